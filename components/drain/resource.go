package drain

import (
	"context"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
)

// TypeToken is the type of the ClusterDrain resource.
const TypeToken = "fleet:index:ClusterDrain"

// ClusterDrain drains a cluster when it is deleted: creating and updating it only record its inputs; deleting it
// runs a Drainer against the cluster (its API through a token like `aws eks get-token`, and the Resource Groups
// Tagging API of its region). Whatever must outlive the drain (the cluster secret, the add-on roles, the node
// groups, the EKS cluster, the VPC) is in its dependsOn, so the engine deletes those only after the drain
// succeeds; a failed drain leaves them all. Fleet creates one per cluster; a program of its own creates it with
// dependsOn its FleetCluster and GitOpsBridge.
type ClusterDrain struct{}

// Annotate gives ClusterDrain its schema description.
func (r *ClusterDrain) Annotate(a infer.Annotator) {
	a.Describe(r, "ClusterDrain drains an EKS cluster when it is deleted: through the cluster's API it deletes the "+
		"Ingresses and Gateways, the Services of type LoadBalancer, the PersistentVolumeClaims whose volumes are "+
		"deleted with them and Karpenter's NodePools and NodeClaims, waiting for each kind; then it waits until the "+
		"Resource Groups Tagging API finds nothing the AWS Load Balancer Controller, the EBS CSI driver or Karpenter "+
		"tagged to the cluster. Create and update only record the inputs. Give it dependsOn the FleetCluster and the "+
		"GitOpsBridge of the cluster, so they are deleted after it; a drain that fails (leftovers at the timeout) "+
		"stops the delete with the ARNs named. Fleet creates one per cluster. It authenticates with the plugin's "+
		"ambient AWS credentials (and assumeRoleArn), the identity that created the cluster.")
}

// ClusterDrainArgs are the inputs of a ClusterDrain.
type ClusterDrainArgs struct {
	// ClusterName is the EKS cluster's name.
	ClusterName string `pulumi:"clusterName"`
	// Region is the cluster's AWS region.
	Region string `pulumi:"region"`
	// Endpoint is the cluster's API server URL (https://...).
	Endpoint string `pulumi:"endpoint"`
	// CertificateAuthorityData is the cluster's CA bundle, base64 PEM (EKS's certificateAuthority.data).
	CertificateAuthorityData string `pulumi:"certificateAuthorityData"`
	// AssumeRoleArn is the role the drain assumes for the cluster's API and AWS, the one of the cluster's aws
	// provider. Default: the ambient credentials.
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	DrainOptions
}

// ClusterDrainState is the drain as recorded: its inputs, which a later delete runs with.
type ClusterDrainState struct {
	ClusterDrainArgs
}

// Config is the fleet provider's configuration (stack config `fleet:<key>`).
type Config struct {
	// DrainForce forces every drain this provider runs (drain.force for all), for a removal already under way:
	// a drain runs with the inputs its resource recorded, which a removed resource can no longer change. For
	// ClusterDrains of your own (the default provider), `pulumi config set fleet:drainForce true` and a rerun go
	// on past the leftovers; Fleet sets it on its own provider from defaults.drain.force. Default: false.
	DrainForce bool `pulumi:"drainForce,optional"`
}

// Create records the inputs.
func (ClusterDrain) Create(_ context.Context, req infer.CreateRequest[ClusterDrainArgs],
) (infer.CreateResponse[ClusterDrainState], error) {
	if err := req.Inputs.check(req.DryRun); err != nil {
		return infer.CreateResponse[ClusterDrainState]{}, err // nothing created
	}
	return infer.CreateResponse[ClusterDrainState]{ID: req.Inputs.ClusterName, Output: ClusterDrainState{req.Inputs}}, nil
}

// Update records the new inputs (a changed knob applies to the next delete).
func (ClusterDrain) Update(_ context.Context, req infer.UpdateRequest[ClusterDrainArgs, ClusterDrainState],
) (infer.UpdateResponse[ClusterDrainState], error) {
	return infer.UpdateResponse[ClusterDrainState]{Output: ClusterDrainState{req.Inputs}}, req.Inputs.check(req.DryRun)
}

// Delete drains the cluster, unless the drain is disabled.
func (ClusterDrain) Delete(ctx context.Context, req infer.DeleteRequest[ClusterDrainState]) (infer.DeleteResponse, error) {
	args, log := req.State.ClusterDrainArgs, p.GetLogger(ctx)
	if !args.On() {
		log.Infof("drain of cluster %q disabled (drain.enabled: false); nothing drained", args.ClusterName)
		return infer.DeleteResponse{}, nil
	}
	d, err := args.drainer(ctx)
	if err != nil {
		return infer.DeleteResponse{}, err
	}
	if infer.GetConfig[Config](ctx).DrainForce {
		d.Force = true
	}
	d.Log, d.Warn = log.Info, log.Warning
	return infer.DeleteResponse{}, d.Run(ctx)
}

// check reports every bad input at once; in a preview the cluster's facts may be unknown (a new cluster's
// endpoint), so only the knobs are checked.
func (a ClusterDrainArgs) check(preview bool) error {
	var ps problems.List
	for _, f := range []struct{ field, value string }{{"clusterName", a.ClusterName}, {"region", a.Region},
		{"endpoint", a.Endpoint}, {"certificateAuthorityData", a.CertificateAuthorityData}} {
		if f.value == "" && !preview {
			ps.Add(f.field, "is required")
		}
	}
	a.Check(&ps, "")
	return ps.Err(TypeToken)
}
