package fleet

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// drainResource is a ClusterDrain as the program sees it.
type drainResource struct {
	pulumi.CustomResourceState
}

// built is one cluster as built: its entry, FleetCluster and GitOpsBridge, and what they registered.
type built struct {
	spec     *clusterPlan
	cl       *fleetcluster.FleetCluster
	bridge   *gitopsbridge.GitOpsBridge
	children *children
}

// children records the resources registered under a component, through a transformation the component's
// children inherit (the SDK runs it as each is registered, before it returns). A drain depends on them
// directly: dependsOn a local component reads its children when the drain's registration runs, concurrently with
// theirs, so it could miss some.
type children struct {
	mu  sync.Mutex
	all []pulumi.Resource
}

func (c *children) record(args *pulumi.ResourceTransformationArgs) *pulumi.ResourceTransformationResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all = append(c.all, args.Resource)
	return nil
}

// option is the resource option that records a component's children.
func (c *children) option() pulumi.ResourceOption {
	return pulumi.Transformations([]pulumi.ResourceTransformation{c.record})
}

func (c *children) list() []pulumi.Resource {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.all)
}

// drains registers a ClusterDrain per cluster, each depending on what its cluster's FleetCluster and
// GitOpsBridge registered (so the engine deletes the secret, the add-on roles, the node groups, the cluster and
// the VPC only after the drain); every spoke's also on the hub's: the engine deletes a resource before what it
// depends on, so a destroy drains the spokes, then the hub, whose Argo CD keeps running until then. Each is
// served by the ledger's provider. It returns the drains by cluster name: a tenant's guard on a cluster depends on
// the cluster's drain, so that a destroy asks the guard first (see tenant.Target.Drain).
func (b *builder) drains(hub *built, spokes []built) (map[string]pulumi.Resource, error) {
	out := map[string]pulumi.Resource{}
	var after []pulumi.Resource
	if hub != nil {
		d, err := b.drain(*hub, nil)
		if err != nil {
			return nil, err
		}
		after, out[hub.spec.Name] = append(after, d), d
	}
	for _, s := range spokes {
		d, err := b.drain(s, after)
		if err != nil {
			return nil, err
		}
		out[s.spec.Name] = d
	}
	return out, nil
}

func (b *builder) drain(c built, after []pulumi.Resource) (pulumi.Resource, error) {
	o := b.drainOptions(c.spec.ClusterSpec)
	props := pulumi.Map{
		"clusterName":              c.cl.ClusterName,
		"region":                   pulumi.String(c.spec.Region),
		"endpoint":                 c.cl.Endpoint,
		"certificateAuthorityData": c.cl.CertificateAuthorityData,
		"assumeRoleArn":            pulumi.String(c.spec.AssumeRoleArn),
		"force":                    pulumi.Bool(o.Force),
		"keep":                     pulumi.ToStringArray(o.Keep),
	}
	if o.Enabled != nil {
		props["enabled"] = pulumi.Bool(*o.Enabled)
	}
	if o.Timeout != "" {
		props["timeout"] = pulumi.String(o.Timeout)
	}
	var d drainResource
	err := b.ctx.RegisterResource(drain.TypeToken, c.spec.Name+"-drain", props, &d, pulumi.Parent(b.comp),
		pulumi.Provider(b.drainProvider), pulumi.DependsOn(append(c.children.list(), after...)))
	return &d, err
}

// drainOptions are the cluster's drain over the fleet's defaults.
func (b *builder) drainOptions(c ClusterSpec) drain.DrainOptions {
	var o, base drain.DrainOptions
	if c.Drain != nil {
		o = *c.Drain
	}
	if b.p.Defaults != nil && b.p.Defaults.Drain != nil {
		base = *b.p.Defaults.Drain
	}
	return o.Merge(base)
}

// forcesDrains tells whether the fleet's defaults force every drain.
func forcesDrains(d *ClusterDefaults) bool {
	return d != nil && d.Drain != nil && d.Drain.Force
}

// stillTagged is, for a decommissioned cluster, what AWS still holds of what its add-on controllers made
// (getStillTagged, served by the drains' provider); nil for other clusters. An AWS error is a warning: the summary
// is for information, and the drain asks again before the cluster goes.
func (b *builder) stillTagged(c ClusterSpec) pulumi.StringArrayInput {
	if !c.Decommission {
		return nil
	}
	var res drain.GetStillTaggedResult
	args := drain.GetStillTaggedArgs{ClusterName: c.Name, Region: c.Region, AssumeRoleArn: c.AssumeRoleArn}
	if err := b.ctx.Invoke(drain.StillTaggedToken, args, &res, pulumi.Provider(b.drainProvider)); err != nil {
		_ = b.ctx.Log.Warn(fmt.Sprintf("cluster %q is decommissioned, but what is still tagged to it in AWS is unknown: %v",
			c.Name, err), &pulumi.LogArgs{Resource: b.comp})
		return nil
	}
	return pulumi.ToStringArray(res.Arns)
}
