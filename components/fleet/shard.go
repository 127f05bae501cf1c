package fleet

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

// A fleet beyond one stack: the hub's stack lists its shards (Shard), each a stack of spokes of its own that joins
// the hub (HubRef) through the facts the hub's Fleet exports (HubFacts).

// HubRef is the hub of another stack that this fleet's spokes register into: this fleet is then a shard, with
// spokes only. The facts come from the hub stack's Fleet (stack, shard) or are given directly.
type HubRef struct {
	// Stack is the hub's stack, as a stack reference names it ("<org>/<project>/<stack>"; with a self-managed
	// backend "organization/<project>/<stack>"). Its Fleet's hubFacts and hubKubeconfig outputs give the hub's
	// management role, egress networks, kubeconfig, registry, and this shard's CIDR pool and cluster names.
	// Excludes managementRoleArn, egressCidrs, kubeconfig and registry. Default: none (the facts given directly).
	Stack string `pulumi:"stack,optional"`
	// Shard is this fleet's name among the hub stack's shards (its Fleet's shards). Required with stack. Default: none.
	Shard string `pulumi:"shard,optional"`
	// ManagementRoleArn is the hub's Argo CD management role (GitOpsBridge's managementRoleArn), which every
	// spoke's role trusts, when the facts are given directly. Required without stack.
	// Default: with stack, the hub stack's hubFacts output.
	ManagementRoleArn string `pulumi:"managementRoleArn,optional"`
	// EgressCidrs are the networks the hub's Argo CD reaches the spokes from (its NAT addresses as /32), which the
	// spokes' public API endpoints admit, when the facts are given directly. Default: none.
	EgressCidrs []string `pulumi:"egressCidrs,optional"`
	// Kubeconfig reaches the hub, where the spokes' cluster secrets are written, when the facts are given
	// directly; a secret. Required without stack (with stack, the hub stack's hubKubeconfig output).
	// Default: with stack, the hub stack's hubKubeconfig output.
	Kubeconfig *string `pulumi:"kubeconfig,optional" provider:"secret"`
	// Registry is the hub's registry repository, when the facts are given directly: the spokes then register
	// through Git (each spoke's cluster secret committed to clusters/<environment>/<cluster>.yaml there, as the
	// hub's own fleet does), and the shard needs no kubeconfig of the hub. With stack, the hub stack's Fleet's git
	// decides (hubFacts.registry). Default: none (the spokes register directly, through kubeconfig).
	Registry *Registry `pulumi:"registry,optional"`
	// Mode is the hub's argocd.mode, when the facts are given directly: "selfManaged" (Argo CD from the Helm
	// chart; managementRoleArn is its management role, which each spoke's role trusts) or "managed" (the EKS
	// capability for Argo CD; managementRoleArn is the capability's role, which gets an access entry on each spoke,
	// and each cluster secret names its cluster by EKS cluster ARN: EKS User Guide, "Register target clusters").
	// Default: with stack, the hub stack's hubFacts.mode; else "selfManaged".
	Mode string `pulumi:"mode,optional"`
}

// Registry is the registry repository of a hub with Git delivery (its Fleet's git): where a Git-mode shard
// commits its spokes' cluster secrets, and the hub's registry Applications sync them from.
type Registry struct {
	// Owner is the GitHub user or organization. Required.
	Owner string `pulumi:"owner" json:"owner"`
	// Repository is the repository name (without owner). Required.
	Repository string `pulumi:"repository" json:"repository"`
	// Branch is the branch the hub syncs. Default: "main".
	Branch string `pulumi:"branch,optional" json:"branch,omitempty"`
}

// Shard is a stack of spokes of its own that joins this fleet's hub (its Fleet's hub: {stack, shard}).
type Shard struct {
	// Name is the shard's name, a DNS-1123 label unique among the shards ("us", "eu").
	Name string `pulumi:"name" json:"name"`
	// CidrPool is the shard's IPv4 network: its clusters' VPC CIDRs are allocated from it or must lie in it. It
	// overlaps no other shard's pool and no VPC of this fleet. Required.
	CidrPool string `pulumi:"cidrPool" json:"cidrPool"`
	// Clusters are the names of the shard's clusters: the hub's Argo CD projects admit them (they join
	// argocd.fleetClusters), and no other cluster of the fleet may take them. Required.
	Clusters []string `pulumi:"clusters" json:"clusters"`
	// Stack is the shard's stack ("<org>/<project>/<stack>"), once it has run: this fleet reads its Fleet's
	// shardFacts output through a stack reference, and with git its hub's admission guard admits those spokes'
	// cluster secrets from the registry repository, and its registry Applications sync their environments. A
	// Git-mode shard's spokes are registered only after this stack's next up. Default: none (nothing is read).
	Stack string `pulumi:"stack,optional" json:"stack,omitempty"`
}

// HubFacts are what a shard needs of the hub (Fleet's hubFacts output; empty without a hub in the stack).
type HubFacts struct {
	// ManagementRoleArn is the hub's Argo CD management role; on a managed hub (Mode), the capability's role.
	ManagementRoleArn string `pulumi:"managementRoleArn" json:"managementRoleArn"`
	// Mode is the hub's argocd.mode, "selfManaged" or "managed" (a shard's spokes then give the capability's role
	// an access entry and name their cluster by ARN in its secret). "" from a hub stack of an earlier version
	// reads as "selfManaged".
	Mode string `pulumi:"mode,optional" json:"mode,omitempty"`
	// EgressCidrs are the hub's NAT addresses as /32 networks.
	EgressCidrs []string `pulumi:"egressCidrs" json:"egressCidrs"`
	// VpcCidrs are the hub stack's clusters' names -> VPC CIDRs: a shard's clusters take neither.
	VpcCidrs map[string]string `pulumi:"vpcCidrs" json:"vpcCidrs"`
	// Shards are the hub stack's shards.
	Shards []Shard `pulumi:"shards" json:"shards"`
	// Registry is the hub's registry repository with Git delivery (its Fleet's git): the shards then register
	// their spokes through Git, not through the hub's kubeconfig. Empty without git.
	Registry *Registry `pulumi:"registry,optional" json:"registry,omitempty"`
	// ControllerReplicas are the hub's application controller replicas when it is sharded (A hub at size,
	// docs/capacity.md): a shard's spokes' cluster secrets then name their replica (gitopsbridge.ShardOf), as the
	// hub's own do. 0 below two replicas.
	ControllerReplicas int `pulumi:"controllerReplicas,optional" json:"controllerReplicas,omitempty"`
}

// validateShards adds the problems of a hub stack's shards: names unique DNS-1123 labels, pools that are IPv4
// networks overlapping neither each other, this fleet's cidrPool nor its clusters' given VPC CIDRs, cluster names
// listed once across the shards and none of this fleet's own; shards need a hub in this stack.
func (p *plan) validateShards(ps *problems.List) {
	a := p.FleetArgs
	if len(a.Shards) == 0 {
		return
	}
	if p.hub == nil {
		ps.Add("shards", "shards join this fleet's hub; give one cluster role hub")
	}
	type network struct {
		what   string
		prefix netip.Prefix
	}
	var taken []network
	if p, err := netip.ParsePrefix(a.CidrPool); err == nil {
		taken = append(taken, network{fmt.Sprintf("cidrPool %s", a.CidrPool), p})
	}
	owner := map[string]string{}
	for i, c := range a.Clusters {
		owner[c.Name] = problems.Index("clusters", i)
		if p, err := netip.ParsePrefix(c.VpcCidr); err == nil {
			taken = append(taken, network{problems.Index("clusters", i) + ".vpcCidr " + c.VpcCidr, p})
		}
	}
	names := map[string]int{}
	for i, s := range a.Shards {
		field := problems.Index("shards", i)
		uniqueLabel(ps, "shards", i, s.Name, names)
		p, err := netip.ParsePrefix(s.CidrPool)
		switch {
		case err != nil || !p.Addr().Is4() || p != p.Masked():
			ps.Add(field+".cidrPool", "%q is not an IPv4 network such as 10.64.0.0/12", s.CidrPool)
		default:
			for _, t := range taken {
				if t.prefix.Overlaps(p) {
					ps.Add(field+".cidrPool", "%s overlaps %s: a shard's pool is its own", s.CidrPool, t.what)
				}
			}
			taken = append(taken, network{field + ".cidrPool " + s.CidrPool, p})
		}
		if len(s.Clusters) == 0 {
			ps.Add(field+".clusters", "list the shard's cluster names: the hub's Argo CD admits only those")
		}
		for k, c := range s.Clusters {
			if other, ok := owner[c]; ok {
				ps.Add(problems.Index(field+".clusters", k), "%q is also %s", c, other)
			}
			owner[c] = problems.Index(field+".clusters", k)
		}
	}
}

// checkShard adds the problems of a shard (a fleet with hub) against its hub's facts: its shard is one of the hub
// stack's, its cidrPool (default the shard's) lies in the shard's pool, and each cluster is a spoke listed among
// the shard's clusters, not one of the hub stack's, whose given VPC CIDR lies in the pool.
func checkShard(ps *problems.List, args FleetArgs, facts HubFacts) {
	r := *args.Hub
	var shard *Shard
	var known []string
	for i := range facts.Shards {
		known = append(known, facts.Shards[i].Name)
		if facts.Shards[i].Name == r.Shard {
			shard = &facts.Shards[i]
		}
	}
	if shard == nil {
		ps.Add("hub.shard", "%q is not a shard of the hub stack %s (its shards: %s); add it to that Fleet's shards first",
			r.Shard, r.Stack, strings.Join(known, ", "))
		return
	}
	pool, _ := netip.ParsePrefix(shard.CidrPool)
	if outside(pool, args.CidrPool) {
		ps.Add("cidrPool", "%s is not inside shard %s's pool %s (the hub stack's)", args.CidrPool, shard.Name, shard.CidrPool)
	}
	for i, c := range args.Clusters {
		field := problems.Index("clusters", i)
		if _, ok := facts.VpcCidrs[c.Name]; ok {
			ps.Add(field+".name", "%q is a cluster of the hub stack %s", c.Name, r.Stack)
		} else if !slices.Contains(shard.Clusters, c.Name) {
			ps.Add(field+".name", "%q is not among shard %s's clusters in the hub stack %s; add it there first: the "+
				"hub's Argo CD admits only those", c.Name, shard.Name, r.Stack)
		}
		if outside(pool, c.VpcCidr) {
			ps.Add(field+".vpcCidr", "%s is not inside shard %s's pool %s", c.VpcCidr, shard.Name, shard.CidrPool)
		}
	}
}

// outside says cidr is a network not inside pool ("" and networks that do not parse are checked elsewhere).
func outside(pool netip.Prefix, cidr string) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && !(pool.Contains(p.Addr()) && p.Bits() >= pool.Bits())
}

// shardGit is a shard's Git delivery: with a hub registry, the shard's git (its delivery options: pullRequest,
// commitMessage) on that registry's repository and branch, so the spokes register through the registry the hub
// syncs; without one, none (the spokes register through the hub's kubeconfig). It adds the problems of a git
// that names another repository or branch, protects the branch (the hub's stack does), or of git or tenants
// where they cannot go.
func shardGit(ps *problems.List, a FleetArgs, registry *Registry) *gitopsbridge.GitDelivery {
	if registry == nil {
		if a.Git != nil {
			ps.Add("git", "the hub has no registry repository (its Fleet has no git), so the spokes register "+
				"through its kubeconfig; remove git, or give the hub's Fleet git")
		}
		return a.Git
	}
	if len(a.Tenants) > 0 {
		ps.Add("tenants", "a shard that registers through the hub's registry %s holds no credentials of the hub, "+
			"where a tenant's Argo CD projects go; onboard tenants in the hub's stack", registry)
	}
	g := gitopsbridge.GitDelivery{}
	if a.Git != nil {
		g = *a.Git
	}
	if (g.Owner != "" && g.Owner != registry.Owner) || (g.Repository != "" && g.Repository != registry.Repository) ||
		(g.Branch != "" && g.Branch != or(registry.Branch, "main")) {
		ps.Add("git", "%s/%s@%s is not the hub's registry %s, which the hub syncs; leave owner, repository and "+
			"branch out", g.Owner, g.Repository, or(g.Branch, "main"), registry)
	}
	if g.BranchProtection != nil {
		ps.Add("git.branchProtection", "the registry's branch is the hub's stack's to protect; remove it")
	}
	if g.Path != "" {
		ps.Add("git.path", "a shard's spokes register at clusters/<environment>/<cluster>.yaml, the folders the "+
			"hub syncs; remove path")
	}
	g.Owner, g.Repository, g.Branch = registry.Owner, registry.Repository, or(registry.Branch, "main")
	return &g
}
