package fleet_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// hubStack is DevFleet's hub alone, with shard "us" of two clusters in 10.64.0.0/12.
func hubStack() FleetArgs {
	a := DevFleet()
	a.Clusters = a.Clusters[:1]
	a.CidrPool = "10.0.0.0/12"
	a.Shards = []Shard{{Name: "us", CidrPool: "10.64.0.0/12", Clusters: []string{"spoke-us1", "spoke-us2"}}}
	return a
}

// shardStack is shard "us" of the hub stack "org/fleet/hub": two spokes.
func shardStack() FleetArgs {
	a := DevFleet()
	a.Clusters = a.Clusters[1:]
	a.Clusters[0].Name, a.Clusters[0].VpcCidr = "spoke-us1", "10.65.0.0/16"
	a.Clusters[1].Name = "spoke-us2"
	a.Hub = &HubRef{Stack: "org/fleet/hub", Shard: "us"}
	return a
}

// hubOutputs are the hub stack's outputs as its Fleet exports them.
var hubOutputs = map[string]any{
	"hubFacts": map[string]any{"managementRoleArn": "arn:aws:iam::111122223333:role/hub-argocd-management",
		"egressCidrs": []any{"198.51.100.7/32"}, "vpcCidrs": map[string]any{"hub": "10.0.0.0/16"},
		"shards": []any{map[string]any{"name": "us", "cidrPool": "10.64.0.0/12", "clusters": []any{"spoke-us1", "spoke-us2"}}}},
	"hubKubeconfig": `{"clusters":[{"name":"hub"}]}`,
}

func runShard(t *testing.T, a FleetArgs) (*mocks.Cloud, *Fleet, error) {
	t.Helper()
	return runShardOf(t, a, hubOutputs)
}

// runShardOf runs the shard a against the hub stack "org/fleet/hub" with the outputs hub.
func runShardOf(t *testing.T, a FleetArgs, hub map[string]any) (*mocks.Cloud, *Fleet, error) {
	t.Helper()
	cloud := mocks.New()
	cloud.SetStack("org/fleet/hub", hub)
	var f *Fleet
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		f, err = NewFleet(ctx, "fleet", a)
		return err
	})
	return cloud, f, err
}

func TestHubStackHandsShardsTheirFacts(t *testing.T) {
	cloud, f := build(t, hubStack())
	facts := mocks.Await[HubFacts](t, f.HubFacts)
	if !strings.Contains(facts.ManagementRoleArn, "hub-argocd-management") ||
		facts.VpcCidrs["hub"] == "" || len(facts.Shards) != 1 || facts.Shards[0].CidrPool != "10.64.0.0/12" {
		t.Errorf("hubFacts %+v", facts)
	}
	// The hub's Argo CD projects admit the shard's clusters.
	for _, p := range cloud.OfType("kubernetes:argoproj.io/v1alpha1:AppProject") {
		raw, _ := json.Marshal(p.Input("spec"))
		if strings.HasSuffix(p.Name, "-"+gitopsbridge.AddonApplicationsProject) && !strings.Contains(string(raw), `"name":"spoke-us2"`) {
			t.Errorf("project %s admits no shard cluster: %s", p.Name, raw)
		}
	}
}

func TestShardBuildsItsSpokesOnly(t *testing.T) {
	cloud, f, err := runShard(t, shardStack())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cloud.OfType("fleet:index:GitOpsBridge")); n != 2 {
		t.Errorf("%d GitOpsBridges, want the two spokes'", n)
	}
	if _, ok := cloud.Named("fleet:index:FleetCluster", "hub"); ok {
		t.Error("a shard built a hub")
	}
	for name, s := range mocks.Await[map[string]ClusterSummary](t, f.Clusters) {
		if s.Shard != "us" {
			t.Errorf("clusters[%s].shard = %q, want the stack's shard us", name, s.Shard)
		}
	}
	cidrs := mocks.Await[map[string]string](t, f.VpcCidrs)
	if cidrs["spoke-us1"] != "10.65.0.0/16" || !strings.HasPrefix(cidrs["spoke-us2"], "10.6") {
		t.Errorf("VPC CIDRs %v, want spoke-us2's allocated from the shard's pool 10.64.0.0/12", cidrs)
	}
	eks := cloud.MustGet(t, "eks:index:Cluster", "spoke-us1-cluster")
	raw, _ := json.Marshal(eks.Inputs)
	if !strings.Contains(string(raw), "198.51.100.7/32") {
		t.Errorf("spoke-us1's endpoint does not admit the hub's egress: %s", raw)
	}
	role := cloud.MustGet(t, "aws:iam/role:Role", "spoke-us1-gitops-spoke-role")
	if trust, _ := role.Input("assumeRolePolicy").(string); !strings.Contains(trust, "hub-argocd-management") {
		t.Errorf("spoke-us1's spoke role trusts %s, want the hub's management role", trust)
	}
	secret := cloud.MustGet(t, "kubernetes:core/v1:Secret", "spoke-us1-cluster-secret")
	if !strings.Contains(secret.Provider, "::hub-k8s::") {
		t.Errorf("spoke-us1's cluster secret goes through %s, want the hub's provider", secret.Provider)
	}
	hub := cloud.MustGet(t, "pulumi:providers:kubernetes", "hub-k8s")
	if kc, _ := json.Marshal(hub.Inputs); !strings.Contains(string(kc), "hub") {
		t.Errorf("the hub's provider: %s", kc)
	}
}

func TestShardValidation(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(*FleetArgs)
		want []string
	}{
		"a hub of its own": {func(a *FleetArgs) { a.Clusters[0].Role = Hub },
			[]string{`clusters[0].role: a hub in a fleet that joins the hub of another stack`}},
		"no shard": {func(a *FleetArgs) { a.Hub.Shard = "" }, []string{"hub.shard: is required with stack"}},
		"stack and facts": {func(a *FleetArgs) { a.Hub.ManagementRoleArn = "arn:aws:iam::1:role/x" },
			[]string{"hub: give either stack"}},
		"stack and a registry": {func(a *FleetArgs) { a.Hub.Registry = &Registry{Owner: "acme", Repository: "r"} },
			[]string{"hub: give either stack"}},
		"stack and a mode": {func(a *FleetArgs) { a.Hub.Mode = gitopsbridge.ModeManaged },
			[]string{"hub: give either stack"}},
		"facts with an unknown mode": {func(a *FleetArgs) {
			a.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::1:role/x", Registry: &Registry{Owner: "acme", Repository: "r"},
				Mode: "Managed"}
		}, []string{`hub.mode: "Managed" is not a hub mode; expected one of [selfManaged managed]`}},
		"facts of a managed hub with egress": {func(a *FleetArgs) {
			a.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::1:role/x", Registry: &Registry{Owner: "acme", Repository: "r"},
				Mode: gitopsbridge.ModeManaged, EgressCidrs: []string{"192.0.2.9/32"}}
		}, []string{"hub.egressCidrs: applies to a self-managed hub only"}},
		"facts without kubeconfig": {func(a *FleetArgs) { a.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::1:role/x"} },
			[]string{"hub.kubeconfig: is required"}},
		"facts with an empty registry": {func(a *FleetArgs) {
			a.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::1:role/x", Registry: &Registry{Owner: "acme"}}
		}, []string{"hub.registry: give owner and repository"}},
		"shards and argocd of its own": {func(a *FleetArgs) { a.Argocd = &gitopsbridge.Hub{}; a.Shards = hubStack().Shards },
			[]string{"shards: a shard has no shards of its own", "argocd: configures this stack's hub; a shard has none"}},
	} {
		t.Run(name, func(t *testing.T) {
			cloud := refused(t, tc.edit, tc.want)
			if n := len(cloud.Resources()); n != 0 {
				t.Errorf("%d resources registered", n)
			}
		})
	}
}

// TestShardAgainstItsHub: the rules that need the hub stack's facts, checked once they are read and before anything
// else is registered: the shard is the hub's, its clusters are listed there and are not the hub stack's, their
// CIDRs lie in the shard's pool.
func TestShardAgainstItsHub(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(*FleetArgs)
		want []string
	}{
		"unknown shard": {func(a *FleetArgs) { a.Hub.Shard = "eu" }, []string{`hub.shard: "eu" is not a shard of the hub stack org/fleet/hub (its shards: us)`}},
		"unlisted cluster": {func(a *FleetArgs) { a.Clusters[1].Name = "spoke-us3" },
			[]string{`clusters[1].name: "spoke-us3" is not among shard us's clusters`}},
		"the hub's cluster": {func(a *FleetArgs) { a.Clusters[1].Name = "hub" },
			[]string{`clusters[1].name: "hub" is a cluster of the hub stack`}},
		"outside the pool": {func(a *FleetArgs) { a.Clusters[0].VpcCidr = "10.20.0.0/16" },
			[]string{`clusters[0].vpcCidr: 10.20.0.0/16 is not inside shard us's pool 10.64.0.0/12`}},
		"pool outside the shard's": {func(a *FleetArgs) { a.CidrPool = "10.128.0.0/12" },
			[]string{`cidrPool: 10.128.0.0/12 is not inside shard us's pool`}},
	} {
		t.Run(name, func(t *testing.T) {
			cloud := refused(t, tc.edit, tc.want)
			for _, r := range cloud.Resources() {
				if !slices.Contains([]string{"fleet:index:Fleet", "pulumi:pulumi:StackReference"}, r.Type) {
					t.Errorf("%s %s registered before the shard was checked", r.Type, r.Name)
				}
			}
		})
	}
}

func TestHubShardsValidation(t *testing.T) {
	a := hubStack()
	a.Shards = append(a.Shards, Shard{Name: "us", CidrPool: "10.70.0.0/16", Clusters: []string{"spoke-us1", "hub"}},
		Shard{Name: "eu", CidrPool: "10.0.0.0/16", Clusters: []string{}})
	err := Check(a, "test")
	for _, want := range []string{`shards[1].name: "us" is also the name of shards[0]`,
		`shards[1].cidrPool: 10.70.0.0/16 overlaps shards[0].cidrPool 10.64.0.0/12`,
		`shards[1].clusters[0]: "spoke-us1" is also shards[0].clusters[0]`, `shards[1].clusters[1]: "hub" is also clusters[0]`,
		`shards[2].cidrPool: 10.0.0.0/16 overlaps cidrPool 10.0.0.0/12`, `shards[2].clusters: list the shard's cluster names`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v\nwant %q", err, want)
		}
	}
}

// TestShardWithFactsGiven: a hub built elsewhere, its facts given directly: no stack reference, the spokes trust
// the given role, admit the given networks and write their secrets through the given kubeconfig.
func TestShardWithFactsGiven(t *testing.T) {
	a := shardStack()
	kubeconfig := `{"clusters":[{"name":"elsewhere"}]}`
	a.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::444455556666:role/argocd-elsewhere", EgressCidrs: []string{"192.0.2.9/32"},
		Kubeconfig: &kubeconfig}
	cloud, _, err := runShard(t, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cloud.Named("pulumi:pulumi:StackReference", "fleet-hub"); ok {
		t.Error("a stack reference with the facts given")
	}
	role := cloud.MustGet(t, "aws:iam/role:Role", "spoke-us2-gitops-spoke-role")
	if trust, _ := role.Input("assumeRolePolicy").(string); !strings.Contains(trust, "argocd-elsewhere") {
		t.Errorf("spoke-us2's spoke role trusts %s", trust)
	}
	raw, _ := json.Marshal(cloud.MustGet(t, "eks:index:Cluster", "spoke-us2-cluster").Inputs)
	if !strings.Contains(string(raw), "192.0.2.9/32") {
		t.Errorf("spoke-us2's endpoint does not admit the given egress: %s", raw)
	}
	hub, _ := json.Marshal(cloud.MustGet(t, "pulumi:providers:kubernetes", "hub-k8s").Inputs)
	if !strings.Contains(string(hub), "elsewhere") {
		t.Errorf("the hub's provider: %s", hub)
	}
}

// refused runs the shard with edit applied and expects NewFleet to fail with each of want; it returns the cloud.
func refused(t *testing.T, edit func(*FleetArgs), want []string) *mocks.Cloud {
	t.Helper()
	a := shardStack()
	edit(&a)
	cloud, _, err := runShard(t, a)
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("NewFleet: %v\nwant %q", err, w)
		}
	}
	return cloud
}
