package fleet

import (
	"maps"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// summary is the clusters output's entry of cluster c, built as cl and registered by bridge.
func (b *builder) summary(c ClusterSpec, cl *fleetcluster.FleetCluster, bridge *gitopsbridge.GitOpsBridge) ClusterSummaryOutput {
	stillTagged := b.stillTagged(c)
	known := stillTagged != nil
	if !known {
		stillTagged = pulumi.StringArray{}
	}
	shard := ""
	if b.p.Hub != nil {
		shard = b.p.Hub.Shard
	}
	return pulumi.All(cl.KubernetesVersion, cl.ClusterArn, cl.Endpoint, bridge.SecretName, bridge.SecretNamespace,
		bridge.Labels, cl.Addons, cl.GitOpsMetadata, stillTagged).ApplyT(func(v []any) ClusterSummary {
		s := ClusterSummary{
			Region: c.Region, Role: c.Role, Environment: c.Environment,
			Wave: gitopsbridge.WaveOf(c.Wave, c.Role == Hub, c.Environment), AddonsRepoRevision: b.addonsRevision(c),
			KubernetesVersion: v[0].(string),
			VpcCidr:           b.cidrs[c.Name], ClusterArn: v[1].(string), Endpoint: v[2].(string), SecretName: v[3].(string),
			SecretNamespace: v[4].(string), Labels: v[5].(map[string]string), Shard: shard,
			NodeGroups: nodeGroupSummaries(c.NodeGroups),
			Addons:     addonSummaries(v[6].(map[string]bool), c.AddonVersions, v[7].(map[string]string)),
		}
		if c.Role == Hub && b.p.Argocd != nil {
			for _, name := range gitopsbridge.ThroughStack(b.p.Argocd) {
				if a, ok := s.Addons[name]; ok {
					a.ThroughStack = true
					s.Addons[name] = a
				}
			}
		}
		if c.Decommission && known {
			s.StillTagged = v[8].([]string)
		}
		return s
	}).(ClusterSummaryOutput)
}

// nodeGroupSummaries are the node groups FleetCluster builds for groups: each with its capacity type's default, or
// its one default group when groups is empty.
func nodeGroupSummaries(groups []fleetcluster.NodeGroup) []NodeGroupSummary {
	if len(groups) == 0 {
		groups = []fleetcluster.NodeGroup{fleetcluster.DefaultNodeGroup()}
	}
	out := make([]NodeGroupSummary, len(groups))
	for i, g := range groups {
		out[i] = NodeGroupSummary{Name: g.Name, InstanceTypes: slices.Clone(g.InstanceTypes), MinSize: g.MinSize,
			DesiredSize: g.DesiredSize, MaxSize: g.MaxSize, CapacityType: g.CapacityType}
		if out[i].CapacityType == "" {
			out[i].CapacityType = "ON_DEMAND"
		}
	}
	return out
}

// addonSummaries are the enabled add-ons of a cluster (enabled: FleetCluster's addons output, implied ones
// included) with the version their identity is for (versions, else the catalogue's) and their role and namespace
// from the cluster's GitOps Bridge metadata.
func addonSummaries(enabled map[string]bool, versions, metadata map[string]string) map[string]AddonSummary {
	out := map[string]AddonSummary{}
	for _, name := range slices.Sorted(maps.Keys(enabled)) {
		if !enabled[name] {
			continue
		}
		var s AddonSummary
		if a, ok := addons.Lookup(name); ok && a.Identity != nil {
			p := a.Identity.Prefix(name)
			s = AddonSummary{Version: a.Version, IamRoleArn: metadata[p+addons.IAMRoleArnSuffix],
				Namespace: metadata[p+addons.NamespaceSuffix]}
			if v, ok := versions[name]; ok {
				s.Version = v
			}
		}
		out[name] = s
	}
	return out
}

// addonsRevision is the add-ons repository revision c's cluster secret names: its own, else the fleet's.
func (b *builder) addonsRevision(c ClusterSpec) string {
	if c.AddonsRepoRevision != "" || b.p.Repositories.Addons == nil {
		return c.AddonsRepoRevision
	}
	return b.p.Repositories.Addons.Revision
}
