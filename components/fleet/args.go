package fleet

import (
	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
)

// FleetArgs are the inputs of a Fleet: its clusters and what they share. The shape is the stack config of
// examples/fleet, so a program can pass the config as it is.
type FleetArgs struct {
	// Clusters are the fleet's clusters, at least one. Exactly one has role "hub" when any is a spoke, unless hub
	// names the hub of another stack.
	Clusters []ClusterSpec `pulumi:"clusters"`
	// Hub is the hub of another stack this fleet's spokes register into, which makes this fleet a shard: spokes
	// only, in a stack of their own (see HubRef). Default: none (the hub is one of clusters).
	Hub *HubRef `pulumi:"hub,optional"`
	// Shards are the stacks of spokes that join this fleet's hub (each a Fleet with hub: {stack, shard}): their
	// names, disjoint CIDR pools and cluster names, handed to them through the hubFacts output. Default: none.
	Shards []Shard `pulumi:"shards,optional"`
	// Defaults are settings every cluster inherits unless it sets its own.
	Defaults *ClusterDefaults `pulumi:"defaults,optional"`
	// CidrPool is the IPv4 network VPC CIDRs are allocated from for clusters without a vpcCidr.
	// Default: "10.0.0.0/8". An allocated CIDR is kept in the ClusterLedger and stays the cluster's when
	// clusters are added or removed.
	CidrPool string `pulumi:"cidrPool,optional"`
	// CidrPrefixLength is the size of an allocated VPC CIDR, 16-24. Default: 16.
	CidrPrefixLength int `pulumi:"cidrPrefixLength,optional"`
	// Repositories are the Git repositories Argo CD bootstraps from, written into every cluster secret.
	Repositories Repositories `pulumi:"repositories"`
	// Git commits every cluster secret's manifest to a GitHub repository as well (GitOpsBridge's git).
	// Default: none (the cluster secrets are written into the hub directly).
	Git *gitopsbridge.GitDelivery `pulumi:"git,optional"`
	// Argocd are the hub's Argo CD settings (GitOpsBridge's hub: chart, values, bootstrap). Default: the
	// GitOpsBridge defaults. spokeAccountIds default to the accounts of the spokes' assumeRoleArn, fleetClusters
	// to every cluster; registeredSecrets gets every spoke's cluster secret after those given (spokes of other stacks).
	Argocd *gitopsbridge.Hub `pulumi:"argocd,optional"`
	// AllowRemoval lets an up remove clusters that were not decommissioned first (decommission: true on their
	// entries, recorded by an earlier up). Without it the ClusterLedger refuses such a removal in preview, before
	// anything is touched. Default: false.
	AllowRemoval bool `pulumi:"allowRemoval,optional"`
	// Tenants are the teams onboarded onto the fleet, each onto the clusters it selects (default: every spoke):
	// its namespaces with their quota, limits, network policies and service accounts on each selected cluster, its
	// owners' EKS access scoped to those namespaces, IAM roles for its service accounts (EKS Pod Identity, or IRSA
	// on irsa clusters), and its Argo CD project and ApplicationSet on the hub. With git, the in-cluster objects are
	// committed to tenants/<tenant>/<cluster>.yaml of the registry repository and synced by Argo CD. Default: none.
	Tenants []tenant.TenantSpec `pulumi:"tenants,optional"`
}

// Repositories are the GitOps repositories of the fleet.
type Repositories struct {
	// Addons holds the add-on ApplicationSets (GitOpsBridge addonsRepo). Required.
	Addons *gitopsbridge.Repo `pulumi:"addons"`
	// Workloads holds the workload ApplicationSets (GitOpsBridge workloadsRepo). Optional. Default: none.
	Workloads *gitopsbridge.Repo `pulumi:"workloads,optional"`
}

// Hub and Spoke are the values of ClusterSpec.Role.
const (
	// Hub runs Argo CD and manages the fleet.
	Hub = "hub"
	// Spoke is managed by the hub's Argo CD.
	Spoke = "spoke"
)

// ClusterSpec is one cluster of the fleet.
type ClusterSpec struct {
	// Name is the cluster's name (its EKS name and the name of its components), unique in the fleet: a
	// DNS-1123 label (RFC 1123), for example "spoke-use2". Renaming a cluster removes it and adds another.
	Name string `pulumi:"name"`
	// Region is the AWS region, for example "us-east-2" (FleetCluster's region rules).
	Region string `pulumi:"region"`
	// Role is "hub" (runs Argo CD) or "spoke" (registered into the hub's Argo CD).
	Role string `pulumi:"role"`
	// Environment is the GitOps Bridge environment label: a Kubernetes label value (it labels the cluster's Argo CD
	// cluster secret). Default: defaults.environment, else the stack name.
	Environment string `pulumi:"environment,optional"`
	// Wave is the cluster's rollout wave, written on its cluster secret as the label fleet_wave: a change reaches
	// lower waves first, and an ApplicationSet can select a wave or order its syncs by it (docs/waves.md). The hub
	// is wave 0, on its own; a spoke's is 1 or more. Default: the hub 0; a spoke from its environment: 1 for dev*,
	// sandbox*; 2 for test*, qa*, stag*, uat*, preprod*; 3 for prod* and every other name.
	Wave *int `pulumi:"wave,optional"`
	// Version is the Kubernetes minor version, "1.33". Default: defaults.version, else FleetCluster's default.
	// Raising it upgrades the control plane, then the managed add-ons, then the node groups.
	Version string `pulumi:"version,optional"`
	// VpcCidr is the VPC's IPv4 CIDR, /16 to /24; the fleet's CIDRs may not overlap. Default: allocated from
	// cidrPool and kept in the ClusterLedger.
	VpcCidr string `pulumi:"vpcCidr,optional"`
	// PublicAccessCidrs are the networks allowed to reach the public API endpoint, IPv4 CIDRs ("203.0.113.0/24").
	// Default: defaults.publicAccessCidrs; an empty list counts as unset (a Go program that passes a config-decoded
	// struct, as examples/fleet does, sends every unset list as an empty one). A spoke's endpoint is also open to the
	// hub's NAT addresses (as /32), so Argo CD reaches it: a spoke is public to those addresses even when no list
	// gives any. Only the hub's endpoint is private without any.
	PublicAccessCidrs []string `pulumi:"publicAccessCidrs,optional"`
	// NodeGroups are the managed node groups. Default: defaults.nodeGroups, else FleetCluster's default group (an
	// empty list counts as unset).
	NodeGroups []fleetcluster.NodeGroup `pulumi:"nodeGroups,optional"`
	// Addons are GitOps Bridge add-on names -> enabled, merged over defaults.addons (the cluster's entry wins).
	// Default: defaults.addons.
	Addons map[string]bool `pulumi:"addons,optional"`
	// AddonSettings are FleetCluster's add-on settings for this cluster. Default: none.
	AddonSettings *fleetcluster.AddonSettings `pulumi:"addonSettings,optional"`
	// AddonsRepoRevision is the add-ons repository's revision for this cluster (a full commit SHA, a tag or a
	// branch), written as its cluster secret's addons_repo_revision annotation, which the GitOps Bridge ApplicationSets
	// read the add-ons' values files at (on the hub it also moves the bootstrap, the ApplicationSets themselves). It is
	// the pin `fleet rollout` moves wave by wave (docs/waves.md). Default: repositories.addons.revision.
	AddonsRepoRevision string `pulumi:"addonsRepoRevision,optional"`
	// AddonVersions are the add-on versions the add-ons repository installs on this cluster (FleetCluster
	// addonVersions), merged over defaults.addonVersions (the cluster's entry wins): give them where the
	// ApplicationSets pin another addonChartVersion for the cluster's environment. Default: defaults.addonVersions.
	AddonVersions map[string]string `pulumi:"addonVersions,optional"`
	// Identity is how this cluster's add-ons get their roles' credentials (FleetCluster identity: "podIdentity"
	// or "irsa"). Default: defaults.identity, else "podIdentity".
	Identity string `pulumi:"identity,optional"`
	// AssumeRoleArn is the IAM role ("arn:<partition>:iam::<account>:role/<name>") the cluster's aws
	// provider assumes, for a cluster in another account. Default: defaults.assumeRoleArn, else the ambient
	// credentials.
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	// Tags are added to the cluster's AWS resources, merged over defaults.tags. Default: defaults.tags.
	Tags map[string]string `pulumi:"tags,optional"`
	// NodeSessionManager lets AWS Systems Manager Session Manager reach the cluster's nodes (FleetCluster
	// nodeSessionManager: AmazonSSMManagedInstanceCore on the node role). Default: defaults.nodeSessionManager,
	// else false.
	NodeSessionManager *bool `pulumi:"nodeSessionManager,optional"`
	// AllowReplacement lets a change of region, account role or VPC CIDR through for this cluster. Such a
	// change replaces the EKS cluster and its VPC (and everything on them); without this flag the
	// ClusterLedger refuses it before any resource is touched. Default: false.
	AllowReplacement bool `pulumi:"allowReplacement,optional"`
	// Decommission is the first of the two runs that remove a cluster: it keeps the cluster and its add-ons, and
	// labels its cluster secret fleet_decommission: "true", which workload ApplicationSets exclude (the README
	// gives the selector), so Argo CD deletes the cluster's workloads, and with them their load balancers and
	// volumes, while the add-on controllers that clean up after them still run. Once an up has recorded it in the
	// ClusterLedger, the entry may be removed. Default: false.
	Decommission bool `pulumi:"decommission,optional"`
	// Drain is how the cluster is drained when its entry is removed (or the stack destroyed), over
	// defaults.drain (each field set here wins): a ClusterDrain deletes its load balancers', volumes' and
	// Karpenter's objects and waits until AWS holds nothing the add-on controllers made for it, before its
	// secret, add-on roles, cluster and VPC go. It runs with the settings recorded by the up before the removal.
	// Default: defaults.drain, else enabled with a 20m timeout.
	Drain *drain.DrainOptions `pulumi:"drain,optional"`
}

// ClusterDefaults are what every cluster inherits unless it sets its own.
type ClusterDefaults struct {
	// Environment is the default GitOps Bridge environment. Default: the stack name.
	Environment string `pulumi:"environment,optional"`
	// Version is the default Kubernetes minor version. Default: none (FleetCluster's default).
	Version string `pulumi:"version,optional"`
	// PublicAccessCidrs are the default networks allowed to reach the public API endpoints. Default: none.
	PublicAccessCidrs []string `pulumi:"publicAccessCidrs,optional"`
	// NodeGroups are the default managed node groups. Default: none (FleetCluster's default group).
	NodeGroups []fleetcluster.NodeGroup `pulumi:"nodeGroups,optional"`
	// Addons are add-ons enabled (or disabled) on every cluster; a cluster's own entry wins. Default: none.
	Addons map[string]bool `pulumi:"addons,optional"`
	// AddonVersions are the add-on versions the add-ons repository installs on every cluster (FleetCluster
	// addonVersions); a cluster's own entry wins. Default: the pinned template's.
	AddonVersions map[string]string `pulumi:"addonVersions,optional"`
	// Identity is the default identity mode of the clusters' add-ons, "podIdentity" (default) or "irsa".
	Identity string `pulumi:"identity,optional"`
	// AssumeRoleArn is the default role of the clusters' aws providers. Default: none (the ambient credentials).
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	// Tags are added to every cluster's AWS resources. Default: none.
	Tags map[string]string `pulumi:"tags,optional"`
	// NodeSessionManager is every cluster's nodeSessionManager (a cluster's own wins). Default: false.
	NodeSessionManager *bool `pulumi:"nodeSessionManager,optional"`
	// Drain is every cluster's drain (a cluster's own drain wins, field by field). Its force also applies to
	// drains already under way: with force true here, a rerun of a removal that failed on leftovers goes on
	// (the removed entry itself can no longer be changed). Default: enabled, 20m timeout, not forced.
	Drain *drain.DrainOptions `pulumi:"drain,optional"`
}
