package gitopsbridge

// Hub modes (Hub.Mode, Spoke.HubMode).
const (
	// ModeSelfManaged is Argo CD from the argo-cd Helm chart on the hub's nodes.
	ModeSelfManaged = "selfManaged"
	// ModeManaged is Argo CD as an EKS capability, run by AWS.
	ModeManaged = "managed"
)

// Modes are the hub modes.
var Modes = []string{ModeSelfManaged, ModeManaged}

// Managed tells whether the hub runs the managed Argo CD.
func (h Hub) Managed() bool { return h.Mode == ModeManaged }

// Managed tells whether the spoke registers into a managed Argo CD.
func (s Spoke) Managed() bool { return s.HubMode == ModeManaged }

// byARN tells whether the cluster secret names its cluster by EKS cluster ARN: every secret of a managed hub.
func (a GitOpsBridgeArgs) byARN() bool {
	return a.Hub != nil && a.Hub.Managed() || a.Spoke != nil && a.Spoke.Managed()
}
