package fleetstack

import (
	"errors"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Namespace is the config namespace of the example: its project name.
const Namespace = "gitops-fleet"

// Config is the fleet a stack describes.
type Config struct {
	// Clusters is gitops-fleet:clusters, the fleet's clusters; exactly one has role hub when any is a spoke
	// (unless hub names the hub of another stack).
	Clusters []Cluster `json:"clusters"`
	// Repositories is gitops-fleet:repositories, the Git repositories Argo CD bootstraps from.
	Repositories Repositories `json:"repositories"`
	// Git is gitops-fleet:git: when set, every cluster secret is also committed to this GitHub repository.
	Git *Git `json:"git,omitempty"`
	// Defaults is gitops-fleet:defaults, what every cluster inherits unless it sets its own (Fleet's defaults).
	Defaults *Defaults `json:"defaults,omitempty"`
	// Delivery is gitops-fleet:delivery: when set, the fleet's own stacks are delivered by GitOps from the hub.
	Delivery *Delivery `json:"delivery,omitempty"`
	// CidrPool is gitops-fleet:cidrPool, where VPC CIDRs of clusters without one are allocated (Fleet's cidrPool).
	CidrPool string `json:"cidrPool,omitempty"`
	// AllowRemoval is gitops-fleet:allowRemoval: let an up remove clusters that were not decommissioned first.
	AllowRemoval bool `json:"allowRemoval,omitempty"`
	// Tenants is gitops-fleet:tenants, the teams onboarded onto the fleet (Fleet's tenants, in the schema's keys).
	Tenants []fleet.TenantSpec `json:"tenants,omitempty"`
	// Hub is gitops-fleet:hub, the hub of another stack this stack's spokes join (Fleet's hub: a shard).
	Hub *fleet.HubRef `json:"hub,omitempty"`
	// Shards is gitops-fleet:shards, the stacks of spokes that join this stack's hub (Fleet's shards).
	Shards []fleet.Shard `json:"shards,omitempty"`
}

// Defaults are Fleet's defaults: each applies to every cluster that does not set its own.
type Defaults struct {
	Environment       string            `json:"environment,omitempty"`
	Version           string            `json:"version,omitempty"`
	PublicAccessCidrs []string          `json:"publicAccessCidrs,omitempty"`
	NodeGroups        []NodeGroup       `json:"nodeGroups,omitempty"`
	Addons            map[string]bool   `json:"addons,omitempty"`
	AddonVersions     map[string]string `json:"addonVersions,omitempty"`
	Identity          string            `json:"identity,omitempty"`
	AssumeRoleArn     string            `json:"assumeRoleArn,omitempty"`
	Tags              map[string]string `json:"tags,omitempty"`
	// Drain is every cluster's drain on removal (timeout, force, keep, enabled); force here also goes on past
	// the leftovers of a removal already under way.
	Drain *fleet.DrainOptions `json:"drain,omitempty"`
}

// Role is what a cluster is in the fleet.
type Role string

const (
	// Hub runs Argo CD and manages the fleet.
	Hub Role = "hub"
	// Spoke is managed by the hub's Argo CD.
	Spoke Role = "spoke"
)

// Cluster is one entry of gitops-fleet:clusters.
type Cluster struct {
	// Name is the cluster's name, unique in the fleet: a DNS-1123 label (RFC 1123), for example "spoke-use2".
	Name string `json:"name"`
	// Region is the AWS region, for example "us-east-2".
	Region string `json:"region"`
	// Environment is the GitOps Bridge environment label; default: defaults.environment, else the stack name.
	Environment string `json:"environment,omitempty"`
	// VpcCidr is the VPC's IPv4 CIDR, /16 to /24; the CIDRs of a fleet must not overlap (they get peered or
	// routed through a transit gateway). Default: allocated from cidrPool, and kept.
	VpcCidr string `json:"vpcCidr,omitempty"`
	// PublicAccessCidrs are the networks that may reach the cluster's public API endpoint (CI, office, and for
	// spokes the hub's NAT gateway addresses); without them the endpoint is private (FleetCluster's default).
	PublicAccessCidrs []string `json:"publicAccessCidrs,omitempty"`
	// Role is hub or spoke.
	Role Role `json:"role"`
	// Version is the Kubernetes version; default: FleetCluster's default.
	Version string `json:"version,omitempty"`
	// NodeGroups are the managed node groups; default: FleetCluster's default node group.
	NodeGroups []NodeGroup `json:"nodeGroups,omitempty"`
	// Addons are GitOps Bridge add-ons -> enabled, for example {"metrics_server": true}.
	Addons map[string]bool `json:"addons,omitempty"`
	// AddonSettings are FleetCluster's addonSettings (external-dns zones and domains, Velero's bucket, ...),
	// in the schema's camelCase keys.
	AddonSettings *fleet.AddonSettings `json:"addonSettings,omitempty"`
	// AddonVersions are the add-on versions the add-ons repository installs on this cluster (FleetCluster's
	// addonVersions), for example {"karpenter": "1.14.0"}; default: the pinned template's.
	AddonVersions map[string]string `json:"addonVersions,omitempty"`
	// Identity is "podIdentity" (default) or "irsa": how the add-ons get their roles' credentials.
	Identity string `json:"identity,omitempty"`
	// AssumeRoleArn is the role the cluster's aws provider assumes (a cluster in another account).
	AssumeRoleArn string `json:"assumeRoleArn,omitempty"`
	// Tags are added to the cluster's AWS resources.
	Tags map[string]string `json:"tags,omitempty"`
	// AllowReplacement lets a change of region, account role or VPC CIDR replace this cluster.
	AllowReplacement bool `json:"allowReplacement,omitempty"`
	// Decommission is the first of the two runs that remove the cluster (Fleet's decommission).
	Decommission bool `json:"decommission,omitempty"`
	// Drain is how the cluster is drained when its entry is removed, over defaults.drain.
	Drain *fleet.DrainOptions `json:"drain,omitempty"`
}

// NodeGroup is an EKS managed node group of a cluster.
type NodeGroup struct {
	Name          string   `json:"name"`
	InstanceTypes []string `json:"instanceTypes,omitempty"`
	MinSize       int      `json:"minSize"`
	MaxSize       int      `json:"maxSize"`
	DesiredSize   int      `json:"desiredSize"`
	// DiskSize is the root volume in GiB; default: FleetCluster's.
	DiskSize int `json:"diskSize,omitempty"`
}

// Repositories are the GitOps repositories.
type Repositories struct {
	// Addons holds the add-on ApplicationSets; required.
	Addons *Repo `json:"addons,omitempty"`
	// Workloads holds the workload ApplicationSets; optional.
	Workloads *Repo `json:"workloads,omitempty"`
}

// Repo is a path in a Git repository at a revision.
type Repo struct {
	URL      string `json:"url"`
	Revision string `json:"revision,omitempty"`
	BasePath string `json:"basePath,omitempty"`
	Path     string `json:"path"`
}

// Git is where the cluster secrets are committed.
type Git struct {
	Owner       string `json:"owner"`
	Repository  string `json:"repository"`
	Branch      string `json:"branch,omitempty"`
	PullRequest bool   `json:"pullRequest,omitempty"`
	// BranchProtection protects the branch: registrations land only through reviewed pull requests.
	BranchProtection *fleet.BranchProtection `json:"branchProtection,omitempty"`
}

// Load reads the stack config; a key that is not valid JSON of its shape is an error naming it.
func Load(ctx *pulumi.Context) (Config, error) {
	cfg := config.New(ctx, Namespace)
	var c Config
	for key, dst := range map[string]any{"clusters": &c.Clusters, "repositories": &c.Repositories, "git": &c.Git,
		"defaults": &c.Defaults, "delivery": &c.Delivery, "tenants": &c.Tenants, "hub": &c.Hub, "shards": &c.Shards} {
		if err := cfg.TryObject(key, dst); err != nil && !isMissing(err) {
			return Config{}, &Problems{{Key: Namespace + ":" + key, Message: err.Error()}}
		}
	}
	c.CidrPool = cfg.Get("cidrPool")
	c.AllowRemoval = cfg.GetBool("allowRemoval")
	return c, nil
}

func isMissing(err error) bool { return errors.Is(err, config.ErrMissingVar) }
