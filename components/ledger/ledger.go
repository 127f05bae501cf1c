package ledger

import (
	"context"
	"net/netip"
	"reflect"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-go-provider/infer"
)

// TypeToken is the type of the ClusterLedger resource.
const TypeToken = "fleet:index:ClusterLedger"

// ClusterLedger is the fleet's record of what identifies each cluster: its region, account role and VPC CIDR.
// A change of any of them replaces the EKS cluster and its VPC, so the ledger refuses it (in preview and in
// up, before any other resource of the fleet is registered) unless the cluster sets allowReplacement. It
// refuses, the same way, the removal of a cluster whose last recorded entry was not decommissioned, unless the
// fleet sets allowRemoval: removal is two runs, decommission then remove (README, "Removing a cluster"). It also
// allocates the VPC CIDRs of clusters that give none, from the pool, and keeps every allocation for as long
// as its cluster stays in the fleet. It lives only in the stack's state; it calls no cloud API.
type ClusterLedger struct{}

// Annotate gives ClusterLedger its schema description.
func (l *ClusterLedger) Annotate(a infer.Annotator) {
	a.Describe(l, "ClusterLedger is a Fleet's record of what identifies each cluster (region, account role, VPC "+
		"CIDR). It refuses a change that would replace a cluster unless the cluster sets allowReplacement, and "+
		"allocates and keeps the VPC CIDRs of clusters that give none. Fleet creates it; it calls no cloud API.")
}

// ClusterLedgerArgs are the inputs of a ClusterLedger.
type ClusterLedgerArgs struct {
	// CidrPool is the IPv4 network VPC CIDRs are allocated from.
	CidrPool string `pulumi:"cidrPool"`
	// CidrPrefixLength is the prefix length of an allocated VPC CIDR.
	CidrPrefixLength int `pulumi:"cidrPrefixLength"`
	// Clusters are the fleet's clusters, in the fleet's order.
	Clusters []LedgerEntry `pulumi:"clusters"`
	// AllowRemoval lets clusters that were not decommissioned leave the fleet. Default: false.
	AllowRemoval bool `pulumi:"allowRemoval,optional"`
	// NoHubAccess says this run cannot write into the hub (a shard that registers through Git and holds no
	// kubeconfig of the hub): a cluster moving from direct to Git delivery, whose handover writes its secret into
	// the hub once more, is refused. Default: false.
	NoHubAccess bool `pulumi:"noHubAccess,optional"`
}

// LedgerEntry is what identifies one cluster.
type LedgerEntry struct {
	// Name is the cluster's name.
	Name string `pulumi:"name"`
	// Region is the cluster's AWS region.
	Region string `pulumi:"region"`
	// AssumeRoleArn is the role of the cluster's aws provider ("" for the ambient credentials). Default: "".
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	// VpcCidr is the VPC CIDR as given; "" to allocate one from the pool. Default: "" (allocated).
	VpcCidr string `pulumi:"vpcCidr,optional"`
	// AllowReplacement lets a change of the above through. Default: false.
	AllowReplacement bool `pulumi:"allowReplacement,optional"`
	// Decommission records that the cluster is being decommissioned: once recorded, it may leave the fleet.
	// Default: false.
	Decommission bool `pulumi:"decommission,optional"`
	// Delivery is how the cluster's secret reaches the hub: "direct" (Pulumi writes it) or "git" (the hub's
	// registry Application brings it from Git). "" reads as "direct". Default: "direct".
	Delivery string `pulumi:"delivery,optional"`
}

// ClusterLedgerState is the ledger as recorded: its inputs and every cluster's VPC CIDR.
type ClusterLedgerState struct {
	ClusterLedgerArgs
	// VpcCidrs are cluster name -> VPC CIDR, given or allocated.
	VpcCidrs map[string]string `pulumi:"vpcCidrs"`
	// Handover are the clusters whose secret the last run wrote directly and this run delivers through Git:
	// Pulumi keeps their secrets one more run, retained on delete, so Argo CD takes them over and nothing
	// live is deleted in between.
	Handover []string `pulumi:"handover,optional"`
}

// Create records a new fleet: every missing CIDR is allocated.
func (ClusterLedger) Create(_ context.Context, req infer.CreateRequest[ClusterLedgerArgs],
) (infer.CreateResponse[ClusterLedgerState], error) {
	state, err := Record(req.Inputs, nil)
	return infer.CreateResponse[ClusterLedgerState]{ID: "ledger", Output: state}, err
}

// Update records a changed fleet against the previous record: allocations are kept, changes of identity
// are refused unless allowed.
func (ClusterLedger) Update(_ context.Context, req infer.UpdateRequest[ClusterLedgerArgs, ClusterLedgerState],
) (infer.UpdateResponse[ClusterLedgerState], error) {
	state, err := Record(req.Inputs, &req.State)
	return infer.UpdateResponse[ClusterLedgerState]{Output: state}, err
}

// Diff reports a change when the inputs differ from the recorded ones, and also in the run after a handover,
// so that run records the fleet again and ends the handover (Pulumi then lets go of the handed-over secrets).
func (ClusterLedger) Diff(_ context.Context, req infer.DiffRequest[ClusterLedgerArgs, ClusterLedgerState],
) (infer.DiffResponse, error) {
	return infer.DiffResponse{HasChanges: !sameArgs(req.Inputs, req.State.ClusterLedgerArgs) || len(req.State.Handover) > 0}, nil
}

// sameArgs compares two sets of inputs by value (an empty list is no list).
func sameArgs(a, b ClusterLedgerArgs) bool {
	if len(a.Clusters) == 0 && len(b.Clusters) == 0 {
		a.Clusters, b.Clusters = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// WireDependencies keeps the VPC CIDRs known in previews: they follow from the inputs alone, which Fleet
// gives as plain values, so a preview plans the clusters at their real CIDRs.
func (ClusterLedger) WireDependencies(f infer.FieldSelector, args *ClusterLedgerArgs, state *ClusterLedgerState) {
	f.OutputField(&state.VpcCidrs).AlwaysKnown()
	f.OutputField(&state.Handover).AlwaysKnown()
}

// Record is the ledger for args given the previous record (nil for a new fleet): the VPC CIDR of each
// cluster (given, kept from previous, or the first free block of the pool, in the order of args.Clusters),
// or an error listing every refused change and every cluster the pool has no room for.
func Record(args ClusterLedgerArgs, previous *ClusterLedgerState) (ClusterLedgerState, error) {
	var ps problems.List
	cidrs := map[string]string{}
	old := map[string]LedgerEntry{}
	if previous != nil {
		for _, e := range previous.Clusters {
			old[e.Name] = e
		}
	}
	var taken []string
	for _, e := range args.Clusters {
		switch {
		case e.VpcCidr != "":
			cidrs[e.Name] = e.VpcCidr
		case previous != nil && previous.VpcCidrs[e.Name] != "":
			cidrs[e.Name] = previous.VpcCidrs[e.Name]
		default:
			continue
		}
		taken = append(taken, cidrs[e.Name])
	}
	for i, e := range args.Clusters {
		if cidrs[e.Name] != "" {
			continue
		}
		block, ok := freeBlock(args.CidrPool, args.CidrPrefixLength, taken)
		if !ok {
			ps.Add(problems.Index("clusters", i)+".vpcCidr", "cidrPool %s has no free /%d left for cluster %q; "+
				"give it a vpcCidr or a larger cidrPool", args.CidrPool, args.CidrPrefixLength, e.Name)
			continue
		}
		cidrs[e.Name] = block
		taken = append(taken, block)
	}
	names, final := make([]string, len(args.Clusters)), make([]string, len(args.Clusters))
	for i, e := range args.Clusters {
		names[i], final[i] = e.Name, cidrs[e.Name]
		if e.VpcCidr != "" {
			final[i] = e.VpcCidr
		}
	}
	CheckOverlaps(&ps, names, final)
	checkRemovals(&ps, args, previous)
	for i, e := range args.Clusters {
		was, ok := old[e.Name]
		if !ok || e.AllowReplacement {
			continue
		}
		field := problems.Index("clusters", i)
		refuse := func(attr, from, to string) {
			ps.Add(field+"."+attr, "changing cluster %q from %q to %q replaces its EKS cluster and VPC and "+
				"everything on them; keep %q, or set %s.allowReplacement: true to replace the cluster",
				e.Name, from, to, from, field)
		}
		if was.Region != e.Region {
			refuse("region", was.Region, e.Region)
		}
		if was.AssumeRoleArn != e.AssumeRoleArn {
			refuse("assumeRoleArn", was.AssumeRoleArn, e.AssumeRoleArn)
		}
		if prev := previous.VpcCidrs[e.Name]; prev != "" && prev != cidrs[e.Name] {
			refuse("vpcCidr", prev, cidrs[e.Name])
		}
	}
	if err := ps.Err(TypeToken); err != nil {
		return ClusterLedgerState{}, err
	}
	handover := []string{}
	for i, e := range args.Clusters {
		if was, ok := old[e.Name]; ok && was.Delivery != "git" && e.Delivery == "git" {
			handover = append(handover, e.Name)
			if args.NoHubAccess {
				ps.Add(problems.Index("clusters", i)+".delivery", "cluster %q moves from direct to Git registration, "+
					"which writes its secret into the hub once more so that Argo CD takes it over; give the hub's "+
					"kubeconfig (hub.kubeconfig) for this run", e.Name)
			}
		}
	}
	if err := ps.Err(TypeToken); err != nil {
		return ClusterLedgerState{}, err
	}
	return ClusterLedgerState{ClusterLedgerArgs: args, VpcCidrs: cidrs, Handover: handover}, nil
}

// checkRemovals refuses, at clusters, each cluster of the previous record that args no longer hold and that
// was not recorded as decommissioned, unless args allow removal.
func checkRemovals(ps *problems.List, args ClusterLedgerArgs, previous *ClusterLedgerState) {
	if previous == nil || args.AllowRemoval {
		return
	}
	kept := map[string]bool{}
	for _, e := range args.Clusters {
		kept[e.Name] = true
	}
	for _, e := range previous.Clusters {
		if kept[e.Name] || e.Decommission {
			continue
		}
		ps.Add("clusters", "removing cluster %q deletes its EKS cluster and VPC while its workloads still run, and "+
			"what its add-on controllers made in AWS (load balancers, volumes, instances) would stay behind; "+
			"decommission it first: keep its entry with decommission: true and run up (Argo CD removes its "+
			"workloads while the controllers clean up after them), then remove the entry; or set allowRemoval: true",
			e.Name)
	}
}

// CheckOverlaps adds a problem at clusters[i].vpcCidr for each cluster whose VPC CIDR (cidrs[i], "" for none)
// overlaps an earlier cluster's, naming it (names[j]). Malformed CIDRs are left to FleetCluster's checks. Fleet
// runs it over the given CIDRs; Record over the given and the allocated ones, since a given CIDR can collide with
// one the ledger allocated in an earlier run, which no check of the config alone can see.
func CheckOverlaps(ps *problems.List, names, cidrs []string) {
	type seen struct {
		i int
		p netip.Prefix
	}
	var earlier []seen
	for i, c := range cidrs {
		p, err := netip.ParsePrefix(c)
		if err != nil || p != p.Masked() {
			continue
		}
		for _, q := range earlier {
			if p.Overlaps(q.p) {
				ps.Add(problems.Index("clusters", i)+".vpcCidr", "%s overlaps clusters[%d].vpcCidr %s (%s); the "+
					"fleet's networks must not overlap (they get peered or routed through a transit gateway)",
					p, q.i, q.p, names[q.i])
			}
		}
		earlier = append(earlier, seen{i, p})
	}
}
