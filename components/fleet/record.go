package fleet

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/internals"
)

// ledgerResource is a ClusterLedger as the program sees it.
type ledgerResource struct {
	pulumi.CustomResourceState
	// VpcCidrs are cluster name -> VPC CIDR.
	VpcCidrs pulumi.StringMapOutput `pulumi:"vpcCidrs"`
	// Handover are the clusters whose secret moves from direct to Git delivery in this run.
	Handover pulumi.StringArrayOutput `pulumi:"handover"`
}

// ledgerProvider is the fleet provider of the ledger: an explicit one, child of the Fleet, so that the ledger is
// served by the same plugin process whatever SDK (and SDK version) the program uses. It carries no version: a
// versioned provider in the state would make the engine pin the program's unversioned default provider (the Go
// SDK's) to that version in the next run, renaming it. The engine fills in the version of the program's own fleet
// provider from the second run on (Java, TypeScript, Python SDKs carry one); that is no change to the ledger, so
// the version is ignored.
type ledgerProvider struct {
	pulumi.ProviderResourceState
}

// answer is what the ledger answers: every cluster's VPC CIDR, and the clusters whose secret moves from direct
// to Git delivery in this run.
type answer struct {
	cidrs    map[string]string
	handover []string
	// provider is the fleet provider the ledger is served by, which serves the clusters' drains too.
	provider pulumi.ProviderResource
}

// record registers the fleet's ClusterLedger and waits for its answer (the ledger is served by this
// plugin, in preview too), or the ledger's refusal. Nothing else of the fleet is registered before it answers,
// so a refused change touches nothing.
//
// The provider's drainForce (Fleet's defaults.drain.force) forces the drains it runs, those of clusters removed
// by an earlier failed run included; it is set only when true, so a fleet without it keeps the provider as it was.
func record(ctx *pulumi.Context, name string, parent pulumi.Resource, args ledger.ClusterLedgerArgs, drainForce bool,
) (answer, error) {
	clusters := pulumi.Array{}
	for _, e := range args.Clusters {
		clusters = append(clusters, pulumi.Map{
			"name":             pulumi.String(e.Name),
			"region":           pulumi.String(e.Region),
			"assumeRoleArn":    pulumi.String(e.AssumeRoleArn),
			"vpcCidr":          pulumi.String(e.VpcCidr),
			"allowReplacement": pulumi.Bool(e.AllowReplacement),
			"decommission":     pulumi.Bool(e.Decommission),
			"delivery":         pulumi.String(e.Delivery),
		})
	}
	config := pulumi.Map{}
	if drainForce {
		config["drainForce"] = pulumi.Bool(true)
	}
	var prov ledgerProvider
	if err := ctx.RegisterResource("pulumi:providers:fleet", name+"-ledger", config, &prov, pulumi.Parent(parent),
		pulumi.IgnoreChanges([]string{"version"})); err != nil {
		return answer{}, err
	}
	inputs := pulumi.Map{
		"cidrPool":         pulumi.String(args.CidrPool),
		"cidrPrefixLength": pulumi.Int(args.CidrPrefixLength),
		"clusters":         clusters,
		"allowRemoval":     pulumi.Bool(args.AllowRemoval),
	}
	if args.NoHubAccess { // only when set, so that every other ledger keeps its inputs as they were
		inputs["noHubAccess"] = pulumi.Bool(true)
	}
	var l ledgerResource
	err := ctx.RegisterResource(ledger.TypeToken, name+"-ledger", inputs, &l, pulumi.Parent(parent), pulumi.Provider(&prov))
	if err != nil {
		return answer{}, err
	}
	res, err := internals.UnsafeAwaitOutput(ctx.Context(), pulumi.All(l.VpcCidrs, l.Handover))
	if err != nil {
		return answer{}, err
	}
	v, _ := res.Value.([]any)
	if !res.Known || len(v) != 2 {
		return answer{}, fmt.Errorf("%s %s-ledger: its answer is unknown in this run", ledger.TypeToken, name)
	}
	m, _ := v[0].(map[string]string)
	handover, _ := v[1].([]string)
	for _, e := range args.Clusters {
		if m[e.Name] == "" {
			return answer{}, fmt.Errorf("%s %s-ledger: no VPC CIDR for cluster %q", ledger.TypeToken, name, e.Name)
		}
	}
	return answer{cidrs: m, handover: handover, provider: &prov}, nil
}
