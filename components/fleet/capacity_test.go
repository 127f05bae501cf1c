package fleet_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// largeFleet is the dev fleet with n more spokes (spoke-000, ...), each running the load balancer controller,
// cert-manager and external-secrets over the defaults' EBS CSI driver: four add-on Applications each.
func largeFleet(n int) FleetArgs {
	a := DevFleet()
	a.CidrPrefixLength = 20
	for i := range n {
		a.Clusters = append(a.Clusters, ClusterSpec{Name: fmt.Sprintf("spoke-%03d", i), Region: "us-west-2", Role: Spoke,
			Addons: map[string]bool{"aws_load_balancer_controller": true, "cert_manager": true, "external_secrets": true}})
	}
	return a
}

// TestHubCapacity: the hub's Applications counted from the fleet's arguments (Fleet's hubCapacity output), and the
// application controller's plan: one replica within a replica's budget; past it (clusters or Applications) as
// many replicas as the budget asks, consistent-hashing, the chart sized from the count; replicas and algorithm
// given win; a managed hub has its limit.
func TestHubCapacity(t *testing.T) {
	withWorkloads := DevFleet()
	withWorkloads.Repositories.Workloads = &gitopsbridge.Repo{URL: "https://github.com/example/workloads", Path: "bootstrap/workloads"}
	given := DevFleet()
	given.Argocd = &gitopsbridge.Hub{ControllerSharding: &gitopsbridge.ControllerSharding{Replicas: 3,
		Algorithm: gitopsbridge.ShardingRoundRobin}}
	tight := DevFleet()
	tight.Argocd = &gitopsbridge.Hub{ControllerSharding: &gitopsbridge.ControllerSharding{ApplicationsPerReplica: 2}}
	for _, tc := range []struct {
		name string
		args FleetArgs
		want HubCapacity
		// memory is the controller's memory request, when checked: its share of the Applications and the clusters.
		memory string
	}{
		// hub: metrics-server and the EBS CSI classes; spoke-a: the load balancer controller and the classes;
		// spoke-b: the classes; and the add-ons' bootstrap.
		{"the dev fleet", DevFleet(), HubCapacity{Applications: 6, AddonApplications: 5, BootstrapApplications: 1,
			Clusters: 3, ControllerReplicas: 1}, ""},
		{"a workloads repository", withWorkloads, HubCapacity{Applications: 9, AddonApplications: 5,
			BootstrapApplications: 2, WorkloadApplications: 2, Clusters: 3, ControllerReplicas: 1}, ""},
		{"managed", managedFleet(), HubCapacity{Applications: 6, AddonApplications: 5, BootstrapApplications: 1,
			Clusters: 3, Limit: 1000}, ""},
		{"past a replica's clusters", largeFleet(60), HubCapacity{Applications: 246, AddonApplications: 245,
			BootstrapApplications: 1, Clusters: 63, ControllerReplicas: 2, ShardingAlgorithm: "consistent-hashing"},
			fmt.Sprintf("%dMi", 512+2*123+gitopsbridge.MemoryPerCluster*32)},
		{"replicas and algorithm given", given, HubCapacity{Applications: 6, AddonApplications: 5,
			BootstrapApplications: 1, Clusters: 3, ControllerReplicas: 3, ShardingAlgorithm: "round-robin"}, ""},
		{"past a replica's Applications", tight, HubCapacity{Applications: 6, AddonApplications: 5,
			BootstrapApplications: 1, Clusters: 3, ControllerReplicas: 3, ShardingAlgorithm: "consistent-hashing"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cloud, f := build(t, tc.args)
			if diff := cmp.Diff(tc.want, mocks.Await[HubCapacity](t, f.HubCapacity)); diff != "" {
				t.Errorf("hubCapacity (-want +got):\n%s", diff)
			}
			releases := cloud.OfType("kubernetes:helm.sh/v3:Release")
			if tc.want.Limit > 0 {
				return
			}
			values := releases[0].Input("values").(map[string]any)
			controller, _ := values["controller"].(map[string]any)
			params := values["configs"].(map[string]any)["params"].(map[string]any)
			if tc.want.ControllerReplicas < 2 {
				if controller["replicas"] != nil || params["controller.sharding.algorithm"] != nil {
					t.Errorf("one replica, but the chart's controller values are %v, params %v", controller, params)
				}
				for _, s := range cloud.OfType("kubernetes:core/v1:Secret") {
					if _, ok := s.Input("stringData").(map[string]any)["shard"]; ok {
						t.Errorf("secret %s names a shard of a controller with one replica", s.Name)
					}
				}
				return
			}
			if controller["replicas"] != float64(tc.want.ControllerReplicas) ||
				params["controller.sharding.algorithm"] != tc.want.ShardingAlgorithm || controller["resources"] == nil {
				t.Errorf("the chart's controller values are %v, params %v; want %d replicas, %s, sized", controller,
					params, tc.want.ControllerReplicas, tc.want.ShardingAlgorithm)
			}
			if requests, _ := controller["resources"].(map[string]any)["requests"].(map[string]any); tc.memory != "" &&
				requests["memory"] != tc.memory {
				t.Errorf("the controller's requests are %v, want memory %s", requests, tc.memory)
			}
			secrets := cloud.OfType("kubernetes:core/v1:Secret")
			if len(secrets) != tc.want.Clusters {
				t.Fatalf("%d cluster secrets, want %d", len(secrets), tc.want.Clusters)
			}
			for _, s := range secrets {
				data := s.Input("stringData").(map[string]any)
				name, _ := data["name"].(string)
				if want := fmt.Sprint(gitopsbridge.ShardOf(name, tc.want.ControllerReplicas)); data["shard"] != want {
					t.Errorf("%s's secret names shard %v, want %s", name, data["shard"], want)
				}
			}
		})
	}
}

// TestManagedHubPastItsLimit: a managed hub whose fleet would run more than 1,000 Applications is refused before
// anything is registered, with the count and the way out.
func TestManagedHubPastItsLimit(t *testing.T) {
	a := largeFleet(250)
	managed := managedFleet()
	a.Argocd = managed.Argocd
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error { _, err := NewFleet(ctx, "fleet", a); return err })
	if err == nil || !strings.Contains(err.Error(), "argocd.mode: a managed hub runs at most 1000 Argo CD Applications") ||
		!strings.Contains(err.Error(), "would run 1006 Applications (1005 add-ons, 1 bootstrap) on 253 clusters") ||
		!strings.Contains(err.Error(), "argocd.mode selfManaged") {
		t.Errorf("error %v", err)
	}
	if n := len(cloud.Resources()); n != 0 {
		t.Errorf("%d resources registered before the refusal", n)
	}
}

// TestManagedHubCountsItsShards: a managed hub counts its shards' spokes' Applications as Argo CD's ApplicationSets
// would generate them from the secrets the shards registered (their enable_ labels), and the shards' tenants'
// Applications as the shards counted them, so a shard cannot take the hub past its 1,000 Applications: with as many
// spokes of every add-on as fit, the hub is admitted and its hubCapacity counts them; with one more spoke, or with
// tenants' Applications past the room that is left, it is refused at argocd.mode before anything but the stack
// references is registered.
func TestManagedHubCountsItsShards(t *testing.T) {
	every := map[string]bool{}
	for _, a := range addons.All() {
		every[a.Name] = true
	}
	perSpoke := len(addons.ApplicationSets(every))
	managedHub := hubStack()
	managedHub.Argocd = managedFleet().Argocd
	_, hubOnly := build(t, managedHub)
	base := mocks.Await[HubCapacity](t, hubOnly.HubCapacity)
	fit := (ManagedApplicationsLimit - base.Applications) / perSpoke
	if base.Applications == 0 || fit < 2 {
		t.Fatalf("the hub alone runs %d Applications and each spoke %d: no shard to count", base.Applications, perSpoke)
	}
	room := ManagedApplicationsLimit - base.Applications - fit*perSpoke
	for _, tc := range []struct {
		spokes, tenants int
		refused         bool
	}{{fit, 0, false}, {fit + 1, 0, true}, {fit, room, false}, {fit, room + 1, true}} {
		t.Run(fmt.Sprintf("%d spokes, %d tenants' Applications", tc.spokes, tc.tenants), func(t *testing.T) {
			var spokes []ShardSpoke
			var names []string
			for i := range tc.spokes {
				name := fmt.Sprintf("spoke-us%d", i+1)
				names = append(names, name)
				secret := gitopsbridge.ClusterSecret{Name: name, Namespace: "argocd", ClusterName: name,
					Labels: gitopsbridge.Labels(name, "prod-us", "1.33", 3, every, nil),
					Server: "arn:aws:eks:us-east-2:" + mocks.Account + ":cluster/" + name, Config: gitopsbridge.InClusterConfig()}
				spokes = append(spokes, ShardSpoke{Name: name, Environment: "prod-us", ClusterName: name,
					Server: "https://DC85F95D2517D0AB.gr7.us-east-2.eks.amazonaws.com", Manifest: secret.YAML()})
			}
			spokes[0].TenantApplications = tc.tenants
			a := hubStack()
			a.Argocd = managedHub.Argocd
			a.Shards[0].Clusters, a.Shards[0].Stack = names, "org/fleet/shard-us"
			cloud := mocks.New()
			cloud.SetStack("org/fleet/shard-us", map[string]any{"shardFacts": toMap(t, ShardFacts{Shard: "us", Spokes: spokes})})
			var f *Fleet
			err := cloud.Run(func(ctx *pulumi.Context) error {
				var err error
				f, err = NewFleet(ctx, "fleet", a)
				return err
			})
			want := base.Applications + tc.spokes*perSpoke + tc.tenants
			if tc.refused {
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("argocd.mode: a managed hub runs at most 1000 "+
					"Argo CD Applications (the EKS User Guide's Argo CD quota), and this fleet's would run %d Applications", want)) {
					t.Errorf("NewFleet: %v, want refused at %d Applications", err, want)
				}
				for _, r := range cloud.Resources() {
					if r.Type != "fleet:index:Fleet" && r.Type != "pulumi:pulumi:StackReference" {
						t.Errorf("%s %s registered past the limit", r.Type, r.Name)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := mocks.Await[HubCapacity](t, f.HubCapacity); got.Applications != want || got.Limit != ManagedApplicationsLimit ||
				got.TenantApplications != base.TenantApplications+tc.tenants {
				t.Errorf("hubCapacity %+v, want %d Applications (the hub's own %d, %d per spoke and %d of the shard's "+
					"tenants) against the limit", got, want, base.Applications, perSpoke, tc.tenants)
			}
		})
	}
}

// TestShardSpokesNameTheirReplica: a hub stack whose controller is sharded hands its replicas to its shards
// (hubFacts.controllerReplicas), and a shard's spokes' secrets name their replica as the hub's own do; a hub with
// one replica hands none, and the spokes name no shard.
func TestShardSpokesNameTheirReplica(t *testing.T) {
	hub := hubStack()
	hub.Argocd = &gitopsbridge.Hub{ControllerSharding: &gitopsbridge.ControllerSharding{Replicas: 3}}
	_, f := build(t, hub)
	if facts := mocks.Await[HubFacts](t, f.HubFacts); facts.ControllerReplicas != 3 {
		t.Errorf("hubFacts.controllerReplicas = %d, want 3", facts.ControllerReplicas)
	}
	if _, f := build(t, hubStack()); mocks.Await[HubFacts](t, f.HubFacts).ControllerReplicas != 0 {
		t.Error("a hub with one replica hands its shards replicas")
	}
	for _, replicas := range []int{0, 3} {
		outputs := maps.Clone(hubOutputs)
		facts := maps.Clone(hubOutputs["hubFacts"].(map[string]any))
		facts["controllerReplicas"] = float64(replicas)
		outputs["hubFacts"] = facts
		cloud, _, err := runShardOf(t, shardStack(), outputs)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"spoke-us1", "spoke-us2"} {
			data := cloud.MustGet(t, "kubernetes:core/v1:Secret", name+"-cluster-secret").Input("stringData").(map[string]any)
			shard, ok := data["shard"]
			if want := fmt.Sprint(gitopsbridge.ShardOf(name, 3)); replicas == 3 && shard != want || replicas == 0 && ok {
				t.Errorf("hub replicas %d: %s's secret names shard %v", replicas, name, shard)
			}
		}
	}
}

// TestShardCountsItsTenantsApplications: a shard's shardFacts carry, per spoke, the Applications its tenants run on
// the hub (one per tenant with workloads that selects the spoke), which a managed hub adds to its count
// (TestManagedHubCountsItsShards); a tenant without workloads runs none there.
func TestShardCountsItsTenantsApplications(t *testing.T) {
	a := shardStack()
	a.Tenants = []tenant.TenantSpec{
		{Name: "payments", Clusters: &tenant.TenantSelector{Clusters: []string{"spoke-us1"}},
			Namespaces: []tenant.TenantNamespace{{Name: "payments"}},
			Owners:     []tenant.TenantOwner{{Arn: "arn:aws:iam::111122223333:role/payments"}},
			Workloads:  &tenant.TenantWorkloads{URL: "https://github.com/acme/payments-deploy", Path: "clusters"}},
		{Name: "search", Namespaces: []tenant.TenantNamespace{{Name: "search"}},
			Owners: []tenant.TenantOwner{{Arn: "arn:aws:iam::111122223333:role/search"}}},
	}
	_, f, err := runShard(t, a)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, s := range mocks.Await[ShardFacts](t, f.ShardFacts).Spokes {
		got[s.Name] = s.TenantApplications
	}
	if want := map[string]int{"spoke-us1": 1, "spoke-us2": 0}; !maps.Equal(got, want) {
		t.Errorf("shardFacts' tenants' Applications by spoke %v, want %v", got, want)
	}
}
