package ledger

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-go-provider/infer"
)

func entries(es ...LedgerEntry) ClusterLedgerArgs {
	return ClusterLedgerArgs{CidrPool: "10.0.0.0/8", CidrPrefixLength: 16, Clusters: es}
}

func entry(name, region, cidr string) LedgerEntry {
	return LedgerEntry{Name: name, Region: region, VpcCidr: cidr}
}

func TestRecordAllocates(t *testing.T) {
	first, err := Record(entries(entry("hub", "us-east-1", ""), entry("a", "us-east-2", "10.0.0.0/16"),
		entry("b", "us-west-2", "")), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"hub": "10.1.0.0/16", "a": "10.0.0.0/16", "b": "10.2.0.0/16"}
	if !maps.Equal(first.VpcCidrs, want) {
		t.Fatalf("a new fleet: got %v, want %v (given CIDRs first, then the free blocks in order)", first.VpcCidrs, want)
	}

	cases := map[string]struct {
		reason string
		args   ClusterLedgerArgs
		want   map[string]string
	}{
		"add one in front": {
			reason: "a new cluster listed first takes a free block; nobody moves",
			args: entries(entry("c", "eu-west-1", ""), entry("hub", "us-east-1", ""),
				entry("a", "us-east-2", "10.0.0.0/16"), entry("b", "us-west-2", "")),
			want: map[string]string{"c": "10.3.0.0/16", "hub": "10.1.0.0/16", "a": "10.0.0.0/16", "b": "10.2.0.0/16"},
		},
		"remove one": {
			reason: "removing the hub (allowed) frees its block; b keeps its own",
			args: func() ClusterLedgerArgs {
				a := entries(entry("a", "us-east-2", "10.0.0.0/16"), entry("b", "us-west-2", ""))
				a.AllowRemoval = true
				return a
			}(),
			want: map[string]string{"a": "10.0.0.0/16", "b": "10.2.0.0/16"},
		},
		"pin the allocation": {
			reason: "writing the allocated CIDR into the config changes nothing",
			args: entries(entry("hub", "us-east-1", "10.1.0.0/16"), entry("a", "us-east-2", "10.0.0.0/16"),
				entry("b", "us-west-2", "")),
			want: want,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Record(tc.args, &first)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if !maps.Equal(got.VpcCidrs, tc.want) {
				t.Errorf("%s: got %v, want %v", tc.reason, got.VpcCidrs, tc.want)
			}
		})
	}
}

func TestRecordRefusesReplacements(t *testing.T) {
	previous, err := Record(entries(entry("hub", "us-east-1", ""), entry("a", "us-east-2", "10.50.0.0/16")), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		reason string
		args   ClusterLedgerArgs
		field  string // "" when the change is let through
		want   string // the message, when not the refusal of a replacement
	}{
		"new vpcCidr": {
			reason: "a new CIDR replaces the VPC and the cluster",
			args:   entries(entry("hub", "us-east-1", ""), entry("a", "us-east-2", "10.60.0.0/16")),
			field:  "clusters[1].vpcCidr",
		},
		"new CIDR for an allocated one": {
			reason: "a CIDR given for a cluster whose CIDR was allocated is a change too",
			args:   entries(entry("hub", "us-east-1", "10.99.0.0/16"), entry("a", "us-east-2", "10.50.0.0/16")),
			field:  "clusters[0].vpcCidr",
		},
		"new region": {
			reason: "a new region replaces everything",
			args:   entries(entry("hub", "us-east-1", ""), entry("a", "eu-west-1", "10.50.0.0/16")),
			field:  "clusters[1].region",
		},
		"new account role": {
			reason: "another account is another cluster",
			args: entries(entry("hub", "us-east-1", ""), LedgerEntry{Name: "a", Region: "us-east-2",
				VpcCidr: "10.50.0.0/16", AssumeRoleArn: "arn:aws:iam::210987654321:role/deployer"}),
			field: "clusters[1].assumeRoleArn",
		},
		"a given CIDR on an allocated one": {
			reason: "a new cluster given the block the ledger allocated to the hub overlaps it",
			args: entries(entry("hub", "us-east-1", ""), entry("a", "us-east-2", "10.50.0.0/16"),
				entry("b", "us-west-2", "10.0.0.0/16")),
			field: "clusters[2].vpcCidr",
			want:  "10.0.0.0/16 overlaps clusters[0].vpcCidr 10.0.0.0/16 (hub)",
		},
		"allowed": {
			reason: "allowReplacement lets the change through",
			args: entries(entry("hub", "us-east-1", ""), LedgerEntry{Name: "a", Region: "us-east-2",
				VpcCidr: "10.60.0.0/16", AllowReplacement: true}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Record(tc.args, &previous)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("%s: %v", tc.reason, err)
				}
				return
			}
			want := tc.want
			if want == "" {
				want = "allowReplacement: true"
			}
			var pe *problems.Error
			if !errors.As(err, &pe) || len(pe.Problems) != 1 || pe.Problems[0].Field != tc.field ||
				!strings.Contains(pe.Problems[0].Message, want) {
				t.Errorf("%s: want one problem at %s saying %q, got %v", tc.reason, tc.field, want, err)
			}
		})
	}
}

func TestRecordReportsAFullPool(t *testing.T) {
	args := entries(entry("a", "us-east-1", ""), entry("b", "us-east-1", ""), entry("c", "us-east-1", ""))
	args.CidrPool = "10.0.0.0/15"
	_, err := Record(args, nil)
	var pe *problems.Error
	if !errors.As(err, &pe) || len(pe.Problems) != 1 || pe.Problems[0].Field != "clusters[2].vpcCidr" {
		t.Errorf("two /16 blocks for three clusters: want one problem at clusters[2].vpcCidr, got %v", err)
	}
}

// TestRecordGuardsRemovals: a cluster leaves the fleet only after an up recorded it as decommissioned, or when
// the fleet allows removal.
func TestRecordGuardsRemovals(t *testing.T) {
	decommissioned := entry("b", "us-west-2", "10.2.0.0/16")
	decommissioned.Decommission = true
	cases := map[string]struct {
		reason   string
		previous ClusterLedgerArgs
		next     ClusterLedgerArgs
		refused  string // the cluster named in the refusal, "" when let through
	}{
		"not decommissioned": {reason: "its workloads and what the controllers made would be orphaned",
			previous: entries(entry("hub", "us-east-1", "10.1.0.0/16"), entry("b", "us-west-2", "10.2.0.0/16")),
			next:     entries(entry("hub", "us-east-1", "10.1.0.0/16")), refused: `"b"`},
		"decommissioned, then removed": {reason: "the two runs",
			previous: entries(entry("hub", "us-east-1", "10.1.0.0/16"), decommissioned),
			next:     entries(entry("hub", "us-east-1", "10.1.0.0/16"))},
		"allowed": {reason: "allowRemoval lets it through",
			previous: entries(entry("hub", "us-east-1", "10.1.0.0/16"), entry("b", "us-west-2", "10.2.0.0/16")),
			next: func() ClusterLedgerArgs {
				a := entries(entry("hub", "us-east-1", "10.1.0.0/16"))
				a.AllowRemoval = true
				return a
			}()},
		"decommissioning is no removal": {reason: "the entry stays",
			previous: entries(entry("hub", "us-east-1", "10.1.0.0/16"), entry("b", "us-west-2", "10.2.0.0/16")),
			next:     entries(entry("hub", "us-east-1", "10.1.0.0/16"), decommissioned)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			prev, err := Record(tc.previous, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Record(tc.next, &prev)
			var perr *problems.Error
			switch {
			case tc.refused == "" && err != nil:
				t.Errorf("%s: %v", tc.reason, err)
			case tc.refused != "" && (!errors.As(err, &perr) || len(perr.Problems) != 1 || perr.Problems[0].Field != "clusters" ||
				!strings.Contains(perr.Problems[0].Message, tc.refused) || !strings.Contains(perr.Problems[0].Message, "decommission: true")):
				t.Errorf("%s: want one refusal at clusters naming %s and decommission: true, got %v", tc.reason, tc.refused, err)
			}
		})
	}
}

// TestRecordHandsOver: a cluster whose last run delivered its secret directly and this run through Git is handed
// over; one that was already on Git, or is new, is not.
func TestRecordHandsOver(t *testing.T) {
	with := func(delivery string, es ...LedgerEntry) ClusterLedgerArgs {
		for i := range es {
			es[i].Delivery = delivery
		}
		return entries(es...)
	}
	cases := map[string]struct {
		previous, next ClusterLedgerArgs
		want           []string
	}{
		"direct to git": {with("direct", entry("hub", "us-east-1", ""), entry("a", "us-east-2", "")),
			with("git", entry("hub", "us-east-1", ""), entry("a", "us-east-2", "")), []string{"hub", "a"}},
		"recorded before delivery was": {with("", entry("hub", "us-east-1", "")),
			with("git", entry("hub", "us-east-1", "")), []string{"hub"}},
		"git to git":    {with("git", entry("hub", "us-east-1", "")), with("git", entry("hub", "us-east-1", "")), []string{}},
		"git to direct": {with("git", entry("hub", "us-east-1", "")), with("direct", entry("hub", "us-east-1", "")), []string{}},
		"a new cluster on git": {with("git", entry("hub", "us-east-1", "")),
			with("git", entry("hub", "us-east-1", ""), entry("b", "us-west-2", "")), []string{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			prev, err := Record(tc.previous, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Record(tc.next, &prev)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Handover, tc.want) {
				t.Errorf("handover %v, want %v", got.Handover, tc.want)
			}
		})
	}
}

// TestRecordRefusesAHandoverWithoutTheHub: a fleet that cannot write into the hub (noHubAccess) cannot hand a
// cluster over from direct to Git; on Git already, it records as usual.
func TestRecordRefusesAHandoverWithoutTheHub(t *testing.T) {
	direct, git := entries(entry("a", "us-east-2", "")), entries(entry("a", "us-east-2", ""))
	direct.Clusters[0].Delivery, git.Clusters[0].Delivery = "direct", "git"
	git.NoHubAccess = true
	prev, err := Record(direct, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Record(git, &prev); err == nil || !strings.Contains(err.Error(),
		`clusters[0].delivery: cluster "a" moves from direct to Git registration`) {
		t.Errorf("Record: %v", err)
	}
	onGit, err := Record(entries(git.Clusters...), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Record(git, &onGit); err != nil || len(got.Handover) != 0 {
		t.Errorf("on Git already: %v, handover %v", err, got.Handover)
	}
}

// TestDiff: a change of the inputs is a change, and so is the run after a handover (which ends it); the same
// inputs with no handover pending are none.
func TestDiff(t *testing.T) {
	args := entries(entry("hub", "us-east-1", "10.1.0.0/16"))
	moved := entries(entry("hub", "us-east-2", "10.1.0.0/16"))
	cases := map[string]struct {
		inputs   ClusterLedgerArgs
		handover []string
		want     bool
	}{
		"same":             {inputs: args},
		"changed":          {inputs: moved, want: true},
		"handover pending": {inputs: args, handover: []string{"hub"}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp, err := ClusterLedger{}.Diff(context.Background(), infer.DiffRequest[ClusterLedgerArgs, ClusterLedgerState]{
				Inputs: tc.inputs, State: ClusterLedgerState{ClusterLedgerArgs: args, Handover: tc.handover}})
			if err != nil || resp.HasChanges != tc.want {
				t.Errorf("HasChanges = %v (%v), want %v", resp.HasChanges, err, tc.want)
			}
		})
	}
}
