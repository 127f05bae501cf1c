package fleet

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"k8s.io/apimachinery/pkg/util/validation"
)

// TypeToken is the type of the Fleet component.
const TypeToken = "fleet:index:Fleet"

// placeholderRole stands in for the hub's management role (an output) while a spoke's FleetCluster
// inputs are checked.
var placeholderRole = pulumi.String("arn:aws:iam::000000000000:role/gitops-fleet-placeholder")

// validate checks the plan as a whole and returns a *problems.Error listing every problem, each at its field path
// ("clusters[1].vpcCidr"), or nil: the fleet rules (clusters, one hub, unique names, non-overlapping VPC CIDRs, a
// pool with room for the clusters without one, the repositories, cross-account roles, the hub's capacity) and
// every cluster's FleetCluster and GitOpsBridge rules, on the arguments the build gives them (their tenants' access
// entries included).
func (p *plan) validate() error {
	a := p.FleetArgs
	var ps problems.List
	if len(a.Clusters) == 0 {
		ps.Add("clusters", "list at least one cluster")
	}
	validateNetworks(&ps, a)
	names := map[string]int{}
	hubs := 0
	for i, c := range a.Clusters {
		field := problems.Index("clusters", i)
		uniqueLabel(&ps, "clusters", i, c.Name, names)
		switch c.Role {
		case Hub:
			if hubs++; hubs > 1 {
				ps.Add(field+".role", "a second hub; a fleet has one hub, which runs Argo CD for all")
			}
		case Spoke:
		default:
			ps.Add(field+".role", "%q: want %q or %q", c.Role, Hub, Spoke)
		}
		if c.AssumeRoleArn != "" && accountOf(c.AssumeRoleArn) == "" {
			ps.Add(field+".assumeRoleArn", "%q is not an IAM role ARN (arn:aws:iam::<account>:role/<name>)", c.AssumeRoleArn)
		}
		validateCluster(&ps, field, p.clusters[i], p.stack)
		gitopsbridge.CheckWave(&ps, field+".wave", c.Wave, c.Role == Hub)
		if c.Drain != nil {
			c.Drain.Check(&ps, field+".drain")
		}
	}
	if a.Defaults != nil && a.Defaults.Drain != nil {
		a.Defaults.Drain.Check(&ps, "defaults.drain")
	}
	switch {
	case a.Hub != nil:
		validateHubRef(&ps, a)
	case hubs == 0:
		for i, c := range a.Clusters {
			if c.Role == Spoke {
				ps.Add(problems.Index("clusters", i)+".role", "spoke %q has no hub to register into; give one cluster "+
					"role hub, or name the hub of another stack in hub", c.Name)
			}
		}
	}
	p.validateShards(&ps)
	validateAccounts(&ps, a)
	p.capacity.checkLimit(&ps)
	if a.Repositories.Addons == nil {
		ps.Add("repositories.addons", "is required: the Git repository of the add-on ApplicationSets")
	}
	p.validateBridge(&ps)
	clusters := make([]tenant.Cluster, len(p.clusters))
	for i, c := range p.clusters {
		clusters[i] = c.selector
	}
	tenant.CheckFleet(&ps, a.Tenants, clusters)
	return ps.Err(TypeToken)
}

// validateHubRef adds the problems of a shard's hub: the hub's stack and shard, or its management role and
// kubeconfig or registry given directly; no hub among the clusters, no shards or Argo CD settings of its own.
// Whether the shard's git fits its hub is known with the hub's facts (shardGit).
func validateHubRef(ps *problems.List, a FleetArgs) {
	r := *a.Hub
	switch {
	case r.Stack != "" && (r.ManagementRoleArn != "" || len(r.EgressCidrs) > 0 || r.Kubeconfig != nil || r.Registry != nil ||
		r.Mode != ""):
		ps.Add("hub", "give either stack (with shard) or the facts (managementRoleArn, egressCidrs, kubeconfig, registry, "+
			"mode), not both")
	case r.Stack != "" && r.Shard == "":
		ps.Add("hub.shard", "is required with stack: this fleet's name among the hub stack's shards")
	case r.Stack == "" && !strings.HasPrefix(r.ManagementRoleArn, "arn:"):
		ps.Add("hub.managementRoleArn", "%q: want the hub's Argo CD management role ARN, or give stack", r.ManagementRoleArn)
	case r.Stack == "" && r.Kubeconfig == nil && r.Registry == nil:
		ps.Add("hub.kubeconfig", "is required without registry: the spokes' cluster secrets are written into the hub")
	}
	switch {
	case r.Mode != "" && !slices.Contains(gitopsbridge.Modes, r.Mode):
		ps.Add("hub.mode", "%q is not a hub mode; expected one of %v (the hub stack's argocd.mode)", r.Mode,
			gitopsbridge.Modes)
	case r.Mode == gitopsbridge.ModeManaged && len(r.EgressCidrs) > 0:
		ps.Add("hub.egressCidrs", "applies to a self-managed hub only: a managed hub's Argo CD reaches the spokes from "+
			"AWS's network as the capability's role, through access entries, not from addresses of the hub")
	}
	if r.Registry != nil && (r.Registry.Owner == "" || r.Registry.Repository == "") {
		ps.Add("hub.registry", "give owner and repository: the hub's registry repository (its Fleet's git)")
	}
	for _, cidr := range r.EgressCidrs {
		if p, err := netip.ParsePrefix(cidr); err != nil || !p.Addr().Is4() {
			ps.Add("hub.egressCidrs", "%q is not an IPv4 CIDR such as 203.0.113.7/32", cidr)
		}
	}
	for i, c := range a.Clusters {
		if c.Role == Hub {
			ps.Add(problems.Index("clusters", i)+".role", "a hub in a fleet that joins the hub of another stack (hub); "+
				"a shard has spokes only")
		}
	}
	if len(a.Shards) > 0 {
		ps.Add("shards", "a shard has no shards of its own; list them in the hub's stack")
	}
	if a.Argocd != nil {
		ps.Add("argocd", "configures this stack's hub; a shard has none (set it in the hub's stack)")
	}
}

// uniqueLabel adds, at list[i].name, a name that is not a DNS-1123 label or that an earlier entry of list has
// (names: name -> index, which it records).
func uniqueLabel(ps *problems.List, list string, i int, name string, names map[string]int) {
	field := problems.Index(list, i) + ".name"
	if errs := validation.IsDNS1123Label(name); len(errs) > 0 {
		ps.Add(field, "%q is not a DNS-1123 label: %s", name, strings.Join(errs, "; "))
	} else if j, dup := names[name]; dup {
		ps.Add(field, "%q is also the name of %s[%d]; names must be unique", name, list, j)
	} else {
		names[name] = i
	}
}

// validateCluster adds the FleetCluster problems of the planned cluster c at field (its VPC CIDR is checked when
// given), through FleetCluster's own defaults and rules (fleetcluster.Resolve, fleetcluster.Validate).
func validateCluster(ps *problems.List, field string, c *clusterPlan, stack string) {
	cidr := c.VpcCidr
	if cidr == "" {
		cidr = "10.0.0.0/16" // allocated: in the pool, checked by validatePool
	}
	var h *hub
	if c.Role == Spoke {
		h = &hub{roleArn: placeholderRole, egress: pulumi.StringArray{}}
	}
	args := clusterArgs(c, cidr, h)
	adopt(ps, field, fleetcluster.Validate(fleetcluster.Resolve(args, c.Name, stack), args), map[string]string{
		"clusterName": "name",
	})
}

// validateBridge adds the GitOpsBridge problems of the fleet's repositories, Git delivery and Argo CD settings,
// through GitOpsBridge's own defaults and rules (gitopsbridge.Resolve, gitopsbridge.Validate).
func (p *plan) validateBridge(ps *problems.List) {
	if p.hub == nil {
		return
	}
	args := p.bridgeArgs(p.hub)
	args.Cluster = clusterinfo.ClusterInfoOutput{} // the cluster's facts are checked by FleetCluster
	args.Wave = nil                                // and its wave with every cluster's, at clusters[i].wave
	adopt(ps, "", gitopsbridge.Validate(gitopsbridge.Resolve(args, p.hub.Name), true), map[string]string{
		"addonsRepo":    "repositories.addons",
		"workloadsRepo": "repositories.workloads",
		"hub":           "argocd",
	})
	if args.Hub != nil {
		gitopsbridge.CheckStackAddonsEnabled(ps, "argocd.stackAddons", args.Hub.StackAddons, p.hub.Addons,
			fmt.Sprintf("the hub cluster %q", p.hub.Name), "its addons")
	}
}

// adopt adds the problems of a component's *problems.Error under prefix, renaming the first path element
// by rename (a component's field -> the fleet's).
func adopt(ps *problems.List, prefix string, err error, rename map[string]string) {
	var pe *problems.Error
	if !errors.As(err, &pe) {
		if err != nil {
			ps.Add(strings.TrimSuffix(prefix, "."), "%v", err)
		}
		return
	}
	for _, p := range pe.Problems {
		f := p.Field
		head, rest, _ := strings.Cut(f, ".")
		head, index, _ := strings.Cut(head, "[")
		if r, ok := rename[head]; ok {
			head = r
		}
		f = head
		if index != "" {
			f += "[" + index
		}
		if rest != "" {
			f += "." + rest
		}
		if prefix != "" {
			f = prefix + "." + f
		}
		ps.Add(f, "%s", p.Message)
	}
}

// validateNetworks checks cidrPool and cidrPrefixLength, then records the fleet in a new ledger: that reports
// overlapping VPC CIDRs and clusters without one the pool has no room for (the ledger keeps earlier
// allocations). With a bad pool only the given CIDRs are compared.
func validateNetworks(ps *problems.List, a FleetArgs) {
	if !validatePool(ps, a) {
		names, given := make([]string, len(a.Clusters)), make([]string, len(a.Clusters))
		for i, c := range a.Clusters {
			names[i], given[i] = c.Name, c.VpcCidr
		}
		ledger.CheckOverlaps(ps, names, given)
		return
	}
	if _, err := ledger.Record(ledgerArgs(a), nil); err != nil {
		var pe *problems.Error
		if errors.As(err, &pe) {
			for _, q := range pe.Problems {
				ps.Add(q.Field, "%s", q.Message)
			}
		}
	}
}

// validateAccounts asks for argocd.spokeAccountIds when some clusters assume roles and others do not: the
// management role's accounts cannot be derived then.
func validateAccounts(ps *problems.List, a FleetArgs) {
	if a.Argocd != nil && len(a.Argocd.SpokeAccountIds) > 0 {
		return
	}
	with, without := 0, 0
	for _, c := range a.Clusters {
		if c.AssumeRoleArn != "" {
			with++
		} else {
			without++
		}
	}
	if with > 0 && without > 0 {
		ps.Add("argocd.spokeAccountIds", "is required when only some clusters set assumeRoleArn: list every "+
			"account the hub's Argo CD manages clusters in (the hub's own included)")
	}
}

// validatePool checks cidrPool and cidrPrefixLength and tells whether blocks can be allocated from them.
func validatePool(ps *problems.List, a FleetArgs) bool {
	p, err := netip.ParsePrefix(a.CidrPool)
	switch {
	case err != nil || !p.Addr().Is4():
		ps.Add("cidrPool", "%q is not an IPv4 CIDR such as 10.0.0.0/8", a.CidrPool)
	case p != p.Masked():
		ps.Add("cidrPool", "%q has host bits set; the network is %s", a.CidrPool, p.Masked())
	case a.CidrPrefixLength < 16 || a.CidrPrefixLength > 24:
		ps.Add("cidrPrefixLength", "%d: want 16 to 24 (the VPC sizes FleetCluster accepts)", a.CidrPrefixLength)
	case a.CidrPrefixLength < p.Bits():
		ps.Add("cidrPrefixLength", "/%d blocks do not fit in cidrPool %s", a.CidrPrefixLength, a.CidrPool)
	default:
		return true
	}
	return false
}

// ledgerArgs are the ClusterLedger inputs of a fleet that carries its defaults.
func ledgerArgs(a FleetArgs) ledger.ClusterLedgerArgs {
	l := ledger.ClusterLedgerArgs{CidrPool: a.CidrPool, CidrPrefixLength: a.CidrPrefixLength, AllowRemoval: a.AllowRemoval}
	for _, c := range a.Clusters {
		l.Clusters = append(l.Clusters, ledger.LedgerEntry{
			Name: c.Name, Region: c.Region, AssumeRoleArn: c.AssumeRoleArn, VpcCidr: c.VpcCidr,
			AllowReplacement: c.AllowReplacement, Decommission: c.Decommission, Delivery: delivery(a),
		})
	}
	return l
}

// delivery is how the fleet's cluster secrets reach the hub, as the ledger records it.
func delivery(a FleetArgs) string {
	if a.Git != nil {
		return "git"
	}
	return "direct"
}

// Check validates args as NewFleet does in stack, resolved with their defaults, and registers nothing: a
// *problems.Error listing every problem at its field path, or nil.
func Check(args FleetArgs, stack string) error {
	return resolve(args, stack).validate()
}
