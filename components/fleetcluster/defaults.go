package fleetcluster

// TypeToken is the Pulumi type of the component.
const TypeToken = "fleet:index:FleetCluster"

// DefaultVersion is the Kubernetes version used when FleetClusterArgs.Version is empty.
const DefaultVersion = "1.33"

// ClusterLogTypes are the five EKS control-plane log types, all enabled by default.
var ClusterLogTypes = []string{"api", "audit", "authenticator", "controllerManager", "scheduler"}

// AmiTypes are the EKS managed node group AMI types a NodeGroup may name (EKS Nodegroup amiType; the
// Amazon Linux 2 types are left out as AL2 reached end of support with Kubernetes 1.32).
var AmiTypes = []string{
	"AL2023_x86_64_STANDARD", "AL2023_ARM_64_STANDARD", "AL2023_x86_64_NVIDIA", "AL2023_x86_64_NEURON",
	"BOTTLEROCKET_x86_64", "BOTTLEROCKET_ARM_64", "BOTTLEROCKET_x86_64_NVIDIA", "BOTTLEROCKET_ARM_64_NVIDIA",
}

// Enumerations accepted by the arguments.
var (
	authenticationModes  = []string{"API_AND_CONFIG_MAP", "API", "CONFIG_MAP"}
	capacityTypes        = []string{"ON_DEMAND", "SPOT"}
	taintEffects         = []string{"NO_SCHEDULE", "NO_EXECUTE", "PREFER_NO_SCHEDULE"}
	natGatewayStrategies = []string{"Single", "OnePerAz"}
	identities           = []string{IdentityPodIdentity, IdentityIRSA}
)

// The values of FleetClusterArgs.Identity.
const (
	// IdentityPodIdentity binds add-on roles with EKS Pod Identity where the add-on's version supports it.
	IdentityPodIdentity = "podIdentity"
	// IdentityIRSA binds add-on roles with IAM roles for service accounts only.
	IdentityIRSA = "irsa"
)

// DefaultNodeGroup is the node group built when FleetClusterArgs.NodeGroups is empty: two to four
// on-demand m6i.large nodes, enough for Argo CD and the usual platform add-ons.
func DefaultNodeGroup() NodeGroup {
	return NodeGroup{
		Name:          "system",
		InstanceTypes: []string{"m6i.large"},
		MinSize:       2,
		DesiredSize:   2,
		MaxSize:       4,
	}
}

// withDefaults returns a copy of args with every unset field at its default. stack is the Pulumi stack
// name (the default environment) and name the component's resource name (the default cluster name).
func withDefaults(args FleetClusterArgs, name, stack string) FleetClusterArgs {
	a := args
	if a.ClusterName == "" {
		a.ClusterName = name
	}
	if a.Environment == "" {
		a.Environment = stack
	}
	if a.Version == "" {
		a.Version = DefaultVersion
	}
	if a.VpcId == nil {
		if a.VpcCidr == "" {
			a.VpcCidr = "10.0.0.0/16"
		}
		if a.AvailabilityZoneCount == 0 {
			a.AvailabilityZoneCount = 3
		}
		if a.NatGatewayStrategy == "" {
			a.NatGatewayStrategy = "Single"
		}
	}
	if a.EndpointPublicAccess == nil {
		a.EndpointPublicAccess = ptr(len(a.PublicAccessCidrs) > 0 || hubEgress(a))
	}
	if a.EnabledClusterLogTypes == nil {
		a.EnabledClusterLogTypes = append([]string(nil), ClusterLogTypes...)
	}
	if a.SecretsEncryption == nil {
		a.SecretsEncryption = ptr(true)
	}
	if a.AuthenticationMode == "" {
		a.AuthenticationMode = "API_AND_CONFIG_MAP"
	}
	if a.Identity == "" {
		a.Identity = IdentityPodIdentity
	}
	if len(a.NodeGroups) == 0 {
		a.NodeGroups = []NodeGroup{DefaultNodeGroup()}
	} else {
		a.NodeGroups = append([]NodeGroup(nil), a.NodeGroups...)
	}
	for i := range a.NodeGroups {
		ng := &a.NodeGroups[i]
		if ng.CapacityType == "" {
			ng.CapacityType = "ON_DEMAND"
		}
		if ng.DiskSize == 0 {
			ng.DiskSize = 50
		}
		if ng.AmiType == "" {
			ng.AmiType = "AL2023_x86_64_STANDARD"
		}
		if ng.MaxUnavailablePercentage == 0 {
			ng.MaxUnavailablePercentage = 33
		}
	}
	return a
}

func ptr[T any](v T) *T { return &v }
