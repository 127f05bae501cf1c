package fleet

import (
	"maps"
	"regexp"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// roleARNPattern matches an IAM role ARN, arn:<partition>:iam::<account>:role/<path><name>; group 1 is the account.
var roleARNPattern = regexp.MustCompile(`^arn:aws[a-z-]*:iam::(\d{12}):role/[\w+=,.@/-]{1,512}$`)

// Defaults of FleetArgs.
const (
	DefaultCidrPool         = "10.0.0.0/8"
	DefaultCidrPrefixLength = 16
)

// withDefaults returns a copy of args with the fleet-wide defaults in every cluster: environment, version,
// public access CIDRs, node groups, assume role, merged add-ons and tags; and the tenants' defaults. VPC CIDRs stay
// as given (the ClusterLedger allocates the missing ones); the hub's Argo CD settings are resolve's.
func withDefaults(args FleetArgs, stack string) FleetArgs {
	a := args
	if a.CidrPool == "" {
		a.CidrPool = DefaultCidrPool
	}
	if a.CidrPrefixLength == 0 {
		a.CidrPrefixLength = DefaultCidrPrefixLength
	}
	d := ClusterDefaults{}
	if a.Defaults != nil {
		d = *a.Defaults
	}
	if d.Environment == "" {
		d.Environment = stack
	}
	a.Clusters = make([]ClusterSpec, len(args.Clusters))
	for i, c := range args.Clusters {
		c.Environment = or(c.Environment, d.Environment)
		c.Version = or(c.Version, d.Version)
		c.AssumeRoleArn = or(c.AssumeRoleArn, d.AssumeRoleArn)
		// An empty list is unset: Pulumi's Go SDK sends a nil list of a plain struct (pulumi.ToOutput) as an empty one.
		if len(c.PublicAccessCidrs) == 0 {
			c.PublicAccessCidrs = slices.Clone(d.PublicAccessCidrs)
		}
		if len(c.NodeGroups) == 0 {
			c.NodeGroups = slices.Clone(d.NodeGroups)
		}
		c.Addons = merged(d.Addons, c.Addons)
		c.AddonVersions = merged(d.AddonVersions, c.AddonVersions)
		c.Identity = or(c.Identity, d.Identity)
		c.Tags = merged(d.Tags, c.Tags)
		if c.NodeSessionManager == nil {
			c.NodeSessionManager = d.NodeSessionManager
		}
		a.Clusters[i] = c
	}
	a.Tenants = make([]tenant.TenantSpec, len(args.Tenants))
	for i, t := range args.Tenants {
		a.Tenants[i] = tenant.WithDefaults(t)
	}
	return a
}

func or(v, dflt string) string {
	if v == "" {
		return dflt
	}
	return v
}

// merged is base with over's entries laid on top; nil when both are empty.
func merged[V any](base, over map[string]V) map[string]V {
	if len(base) == 0 && len(over) == 0 {
		return nil
	}
	m := maps.Clone(base)
	if m == nil {
		m = map[string]V{}
	}
	maps.Copy(m, over)
	return m
}

// hub is what a spoke's FleetCluster takes from the hub: Argo CD's management role and the networks the hub's
// Argo CD calls from (its NAT addresses as /32).
type hub struct {
	roleArn pulumi.StringInput
	egress  pulumi.StringArrayInput
	// managed: roleArn is the managed Argo CD's capability role (argocd.mode managed), which reaches the spokes
	// through access entries from AWS's network, not from the hub's.
	managed bool
}

// clusterArgs are the FleetCluster inputs of a planned cluster at its VPC CIDR; h is the hub for a spoke, nil for
// the hub. The tenants that select it get their access entries, and it enforces NetworkPolicies (networkPolicy),
// which the tenants' namespaces are fenced with.
func clusterArgs(c *clusterPlan, vpcCidr string, h *hub) fleetcluster.FleetClusterArgs {
	args := fleetcluster.FleetClusterArgs{
		ClusterName:        c.Name,
		Region:             c.Region,
		Environment:        c.Environment,
		Version:            c.Version,
		VpcCidr:            vpcCidr,
		PublicAccessCidrs:  c.PublicAccessCidrs,
		NodeGroups:         c.NodeGroups,
		Addons:             c.Addons,
		AddonSettings:      c.AddonSettings,
		AddonVersions:      c.AddonVersions,
		Identity:           c.Identity,
		Tags:               c.Tags,
		AccessEntries:      tenant.AccessEntries(c.tenants, c.selector, awsnames.PartitionOf(c.Region)),
		NetworkPolicy:      len(c.tenants) > 0,
		NodeSessionManager: c.NodeSessionManager != nil && *c.NodeSessionManager,
	}
	switch {
	case h != nil && h.managed:
		args.GitOpsAccess = &fleetcluster.GitOpsAccess{CapabilityRoleArn: h.roleArn}
	case h != nil:
		args.GitOpsAccess = &fleetcluster.GitOpsAccess{HubRoleArn: h.roleArn, HubEgressCidrs: h.egress}
	}
	return args
}

// bridgeArgs are the GitOpsBridge inputs of a planned cluster: hub mode with the fleet's Argo CD settings, or spoke
// mode (the hub is reached through the fleet's hub Kubernetes provider).
func (p *plan) bridgeArgs(c *clusterPlan) gitopsbridge.GitOpsBridgeArgs {
	args := gitopsbridge.GitOpsBridgeArgs{
		AddonsRepo:    p.Repositories.Addons,
		WorkloadsRepo: p.Repositories.Workloads,
		Git:           p.Git,
		Decommission:  c.Decommission,
		Wave:          c.Wave,
		Shard:         p.shardOf(c.Name),
	}
	if r := p.Repositories.Addons; r != nil && c.AddonsRepoRevision != "" {
		pinned := *r
		pinned.Revision = c.AddonsRepoRevision
		args.AddonsRepo = &pinned
	}
	if c.Role == Hub {
		args.Hub = p.Argocd
	} else {
		args.Spoke = &gitopsbridge.Spoke{HubMode: p.hubMode()}
	}
	return args
}

// hubMode is the mode of the fleet's hub (argocd.mode); "" for GitOpsBridge's default.
func (p *plan) hubMode() string {
	if p.Argocd == nil {
		return ""
	}
	return p.Argocd.Mode
}

// argocdSettings are the fleet's Argo CD settings before its application controller's plan (planController).
// With Git delivery and no registryEnvironments, the hub syncs the registry folder of every environment of the
// fleet. A hub cluster that enables an add-on the hub's stack does not install itself (argocd.stackAddons) lets the
// add-ons repository install onto the hub (argocd.addonsOnHub, which the stack file thereby asks for); one a tenant
// selects keeps Argo CD's application controller its cluster admin (argocd.controllerClusterAdmin: the tenant's
// Applications sync Namespaces and workloads there). Every
// tenant's namespaces are reserved from the workloads repository (argocd.reservedNamespaces). Without
// fleetClusters, the add-ons' and workloads' Applications may deploy to every spoke of the fleet. Without
// spokeAccountIds, when every cluster names an assumeRoleArn, the management role may assume spoke roles in the
// accounts of those roles; otherwise GitOpsBridge's default (the hub's own account) applies.
func (p *plan) argocdSettings() gitopsbridge.Hub {
	a := p.FleetArgs
	h := gitopsbridge.Hub{}
	if a.Argocd != nil {
		h = *a.Argocd
	}
	if a.Git != nil && len(h.RegistryEnvironments) == 0 {
		for _, c := range a.Clusters {
			if !slices.Contains(h.RegistryEnvironments, c.Environment) {
				h.RegistryEnvironments = append(h.RegistryEnvironments, c.Environment)
			}
		}
	}
	if c := p.hub; c != nil {
		stack := gitopsbridge.ThroughStack(&h)
		for name, on := range c.Addons {
			h.AddonsOnHub = h.AddonsOnHub || on && !slices.Contains(stack, name)
		}
		h.ControllerClusterAdmin = len(c.tenants) > 0 || h.ControllerClusterAdmin
	}
	for _, t := range a.Tenants {
		for _, n := range t.NamespaceNames() {
			if !slices.Contains(h.ReservedNamespaces, n) {
				h.ReservedNamespaces = append(h.ReservedNamespaces, n)
			}
		}
	}
	if len(h.FleetClusters) == 0 {
		for _, c := range a.Clusters {
			h.FleetClusters = append(h.FleetClusters, c.Name)
		}
		for _, s := range a.Shards {
			h.FleetClusters = append(h.FleetClusters, s.Clusters...)
		}
	}
	if len(h.SpokeAccountIds) > 0 {
		return h
	}
	var accounts []string
	for _, c := range a.Clusters {
		acct := accountOf(c.AssumeRoleArn)
		if acct == "" {
			return h
		}
		if !slices.Contains(accounts, acct) {
			accounts = append(accounts, acct)
		}
	}
	h.SpokeAccountIds = accounts
	return h
}

// accountOf is the account of an IAM role ARN, "" when arn is not one.
func accountOf(arn string) string {
	m := roleARNPattern.FindStringSubmatch(arn)
	if m == nil {
		return ""
	}
	return m[1]
}

// tenantCluster is what a tenant's selector reads of a cluster, and the add-ons with an account-wide role it runs
// (enabled and accepted as they are in addonSettings.acceptAccountWide).
func tenantCluster(c ClusterSpec) tenant.Cluster {
	out := tenant.Cluster{Name: c.Name, Environment: c.Environment, Hub: c.Role == Hub}
	if c.AddonSettings != nil {
		for _, name := range c.AddonSettings.AcceptAccountWide {
			if c.Addons[name] && !slices.Contains(out.AccountWide, name) {
				out.AccountWide = append(out.AccountWide, name)
			}
		}
	}
	slices.Sort(out.AccountWide)
	return out
}
