package fleet

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/internals"
)

// HubFactsOutput is an output of HubFacts.
type HubFactsOutput struct{ *pulumi.OutputState }

// ElementType is HubFacts.
func (HubFactsOutput) ElementType() reflect.Type { return reflect.TypeFor[HubFacts]() }

func init() {
	pulumi.RegisterOutputType(HubFactsOutput{})
}

// hubFactsOf is the hubFacts output of a fleet whose hub is built (its management role and NAT addresses as /32
// networks), with its clusters' VPC CIDRs, its shards, its registry (nil without git) and its application
// controller's replicas (0 below two).
func hubFactsOf(h *hub, cidrs map[string]string, shards []Shard, registry *Registry, replicas int) HubFactsOutput {
	mode := gitopsbridge.ModeSelfManaged
	if h.managed {
		mode = gitopsbridge.ModeManaged
	}
	return pulumi.All(h.roleArn, h.egress).ApplyT(func(v []any) HubFacts {
		return HubFacts{ManagementRoleArn: v[0].(string), EgressCidrs: v[1].([]string), VpcCidrs: cidrs,
			Shards: shards, Registry: registry, ControllerReplicas: replicas, Mode: mode}
	}).(HubFactsOutput)
}

// readHub is the facts of the hub a shard joins, and the hub's kubeconfig (nil when not known; setHub keeps it
// secret): given in r, or from the hub stack's Fleet (its hubFacts output, read before anything else is
// registered, since the shard's rules need them, and its hubKubeconfig output) through the stack reference
// <name>-hub.
func readHub(ctx *pulumi.Context, name string, parent pulumi.Resource, r HubRef) (HubFacts, pulumi.StringInput, error) {
	if r.Stack == "" {
		var kube pulumi.StringInput
		if r.Kubeconfig != nil {
			kube = pulumi.String(*r.Kubeconfig)
		}
		return HubFacts{ManagementRoleArn: r.ManagementRoleArn, EgressCidrs: r.EgressCidrs, Registry: r.Registry,
			Mode: r.Mode}, kube, nil
	}
	ref, err := pulumi.NewStackReference(ctx, name+"-hub", &pulumi.StackReferenceArgs{Name: pulumi.String(r.Stack)},
		pulumi.Parent(parent))
	if err != nil {
		return HubFacts{}, nil, err
	}
	var facts HubFacts
	found, err := stackOutput(ctx, ref, "hubFacts", &facts)
	if err != nil {
		return HubFacts{}, nil, err
	}
	if !found || facts.ManagementRoleArn == "" {
		return HubFacts{}, nil, fmt.Errorf("hub.stack: stack %s has no hubFacts output with a management role; "+
			"run up on the hub's stack first, with a Fleet whose clusters include the hub", r.Stack)
	}
	return facts, ref.GetStringOutput(pulumi.String("hubKubeconfig")), nil
}

// stackOutput decodes the output key of the stack reference ref into dst (through its JSON), awaited, so that it
// is read before anything else is registered. It reports false when the stack has no such output or the output
// does not have dst's shape.
func stackOutput(ctx *pulumi.Context, ref *pulumi.StackReference, key string, dst any) (bool, error) {
	res, err := internals.UnsafeAwaitOutput(ctx.Context(), ref.GetOutput(pulumi.String(key)))
	if err != nil || res.Value == nil {
		return false, err
	}
	raw, err := json.Marshal(res.Value)
	return err == nil && json.Unmarshal(raw, dst) == nil, nil
}

// withManagedHub joins a managed hub (hubFacts.mode managed) into a shard's plan: its argocd.mode becomes managed,
// so each spoke's GitOpsBridge writes the managed Argo CD's secret (the cluster by EKS cluster ARN, no role). The
// spokes' access entries for the capability's role follow from the shard's hub (clusterArgs).
func (p *plan) withManagedHub() {
	h := gitopsbridge.Hub{}
	if p.Argocd != nil {
		h = *p.Argocd
	}
	h.Mode = gitopsbridge.ModeManaged
	p.Argocd = &h
}
