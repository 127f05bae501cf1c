package fleet_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"
)

// gitHubOutputs are the outputs of a hub stack whose Fleet has git: its hubFacts name the registry.
func gitHubOutputs() map[string]any {
	out := maps.Clone(hubOutputs)
	facts := maps.Clone(hubOutputs["hubFacts"].(map[string]any))
	facts["registry"] = map[string]any{"owner": "acme", "repository": "fleet-registry", "branch": "main"}
	out["hubFacts"] = facts
	return out
}

// runGitShard runs shardStack, edited, against a hub stack with a registry.
func runGitShard(t *testing.T, edit func(*FleetArgs)) (*mocks.Cloud, *Fleet, error) {
	t.Helper()
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := shardStack()
	a.Clusters[1].Environment = "prod-us"
	edit(&a)
	return runShardOf(t, a, gitHubOutputs())
}

// TestGitShardCommitsToTheHubsRegistry: a shard of a hub with git registers its spokes through the hub's registry
// repository, with nothing written into the hub and no provider for it; its shardFacts say what it registered.
func TestGitShardCommitsToTheHubsRegistry(t *testing.T) {
	cloud, f, err := runGitShard(t, func(a *FleetArgs) {
		a.Git = &gitopsbridge.GitDelivery{PullRequest: true}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(cloud.OfType("kubernetes:core/v1:Secret")); n != 0 {
		t.Errorf("%d secrets written into the hub by a Git-mode shard", n)
	}
	if _, ok := cloud.Named("pulumi:providers:kubernetes", "hub-k8s"); ok {
		t.Error("a Git-mode shard made a provider for the hub")
	}
	for spoke, path := range map[string]string{"spoke-us1": "clusters/test/spoke-us1.yaml", "spoke-us2": "clusters/prod-us/spoke-us2.yaml"} {
		file := cloud.MustGet(t, "github:index/repositoryFile:RepositoryFile", spoke+"-manifest")
		if file.Input("file") != path || file.Input("repository") != "fleet-registry" {
			t.Errorf("%s's registration: %v in %v, want %s in the hub's registry", spoke, file.Input("file"),
				file.Input("repository"), path)
		}
	}
	if n := len(cloud.OfType("github:index/repositoryPullRequest:RepositoryPullRequest")); n != 2 {
		t.Errorf("%d pull requests, want one per spoke (the shard's pullRequest)", n)
	}
	facts := mocks.Await[ShardFacts](t, f.ShardFacts)
	if facts.Shard != "us" || len(facts.Spokes) != 2 || facts.Spokes[1].Environment != "prod-us" ||
		facts.Spokes[0].Server == "" || !strings.Contains(facts.Spokes[0].SpokeRoleArn, ":role/") {
		t.Errorf("shardFacts %+v", facts)
	}
}

// TestHubAdmitsItsGitShardsSpokes: the hub stack reads a Git-mode shard's shardFacts (as the shard's Fleet
// exported them) and its admission guard admits exactly the cluster secrets the shard committed to the registry;
// its registry Applications sync the shard's environments too.
func TestHubAdmitsItsGitShardsSpokes(t *testing.T) {
	shardCloud, shard, err := runGitShard(t, func(*FleetArgs) {})
	if err != nil {
		t.Fatal(err)
	}
	facts := mocks.Await[ShardFacts](t, shard.ShardFacts)
	a := hubStack()
	a.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry"}
	a.Shards[0].Stack = "org/fleet/shard-us"
	cloud := mocks.New()
	cloud.SetStack("org/fleet/shard-us", map[string]any{"shardFacts": toMap(t, facts)})
	if err := cloud.Run(func(ctx *pulumi.Context) error { _, err := NewFleet(ctx, "fleet", a); return err }); err != nil {
		t.Fatal(err)
	}
	registered := guardRegistered(t, cloud)
	for _, spoke := range []string{"spoke-us1", "spoke-us2"} {
		content, _ := shardCloud.MustGet(t, "github:index/repositoryFile:RepositoryFile", spoke+"-manifest").Input("content").(string)
		var secret struct {
			Metadata struct {
				Labels, Annotations map[string]string
			} `json:"metadata"`
			StringData map[string]string `json:"stringData"`
		}
		if err := yaml.Unmarshal([]byte(content), &secret); err != nil || len(secret.StringData) != 3 {
			t.Fatalf("%s's registry file: %v\n%s", spoke, err, content)
		}
		for k, v := range secret.StringData {
			if !strings.Contains(registered, base64.StdEncoding.EncodeToString([]byte(v))) {
				t.Errorf("the hub's guard does not admit %s's %s %q as the shard committed it", spoke, k, v)
			}
		}
		for _, m := range []map[string]string{secret.Metadata.Labels, secret.Metadata.Annotations} {
			for k, v := range m {
				if want := fmt.Sprintf("%q: %q", k, v); !strings.Contains(registered, want) {
					t.Errorf("the hub's guard does not pin %s's %s as the shard committed it", spoke, want)
				}
			}
		}
	}
	var envs []string
	for _, app := range cloud.OfType("kubernetes:argoproj.io/v1alpha1:Application") {
		envs = append(envs, app.Input("metadata").(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(envs, ","), "cluster-registry-prod-us") {
		t.Errorf("registry Applications %v: none syncs the shard's environment prod-us", envs)
	}
}

// TestHubRefusesWhatItsShardDidNotGetGranted: a shard's stack that reports another shard, or a spoke the hub stack
// did not list, is refused at shards[0].stack before the hub's resources are registered.
func TestHubRefusesWhatItsShardDidNotGetGranted(t *testing.T) {
	spoke := map[string]any{"name": "spoke-us9", "environment": "test", "clusterName": "spoke-us9",
		"server": "https://evil.example.com", "certificateAuthorityData": "Q0E=", "spokeRoleArn": "arn:aws:iam::1:role/x"}
	for name, tc := range map[string]struct {
		facts map[string]any
		want  string
	}{
		"unlisted spoke": {map[string]any{"shard": "us", "spokes": []any{spoke}},
			`shards[0].stack: stack org/fleet/shard-us has the spoke "spoke-us9", which is not among shard us's clusters`},
		"another shard": {map[string]any{"shard": "eu", "spokes": []any{}}, `shards[0].stack: stack org/fleet/shard-us is shard "eu", not "us"`},
		"not run yet":   {nil, "shards[0].stack: stack org/fleet/shard-us has no shardFacts output of a shard"},
		"a granted spoke registered as argocd-secret": {granted(t, func(s *gitopsbridge.ClusterSecret) { s.Name = "argocd-secret" }),
			`spoke "spoke-us1": its secret argocd-secret registers cluster spoke-us1`},
		"a granted spoke pointed elsewhere": {granted(t, func(s *gitopsbridge.ClusterSecret) { s.Server = "https://evil.example.com" }),
			`spoke "spoke-us1": its server "https://evil.example.com" is not the cluster's EKS endpoint`},
		"a granted spoke with another role": {granted(t, func(s *gitopsbridge.ClusterSecret) {
			s.Config = gitopsbridge.SpokeConfig("spoke-us1", "arn:aws:iam::111122223333:role/admin", "Q0E=")
		}), `spoke "spoke-us1": its role "arn:aws:iam::111122223333:role/admin" is not a spoke role`},
	} {
		t.Run(name, func(t *testing.T) {
			a := hubStack()
			a.Shards[0].Stack = "org/fleet/shard-us"
			cloud := mocks.New()
			cloud.SetStack("org/fleet/shard-us", map[string]any{"shardFacts": tc.facts})
			err := cloud.Run(func(ctx *pulumi.Context) error { _, err := NewFleet(ctx, "fleet", a); return err })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewFleet: %v\nwant %q", err, tc.want)
			}
			for _, r := range cloud.Resources() {
				if r.Type != "fleet:index:Fleet" && r.Type != "pulumi:pulumi:StackReference" {
					t.Errorf("%s %s registered before the shard's stack was checked", r.Type, r.Name)
				}
			}
		})
	}
}

// granted is a shard's facts with the granted spoke spoke-us1 as a Fleet registers it, its secret edited.
func granted(t *testing.T, edit func(*gitopsbridge.ClusterSecret)) map[string]any {
	t.Helper()
	const server = "https://DC85F95D2517D0AB.gr7.us-east-2.eks.amazonaws.com"
	role := "arn:aws:iam::111122223333:role" + clusterinfo.SpokeRolePath + "spoke-us1-use2-gitops-spoke"
	secret := gitopsbridge.ClusterSecret{Name: "spoke-us1", Namespace: "argocd", ClusterName: "spoke-us1",
		Labels: gitopsbridge.Labels("spoke-us1", "prod-us", "1.33", 3, nil, nil), Server: server,
		Config: gitopsbridge.SpokeConfig("spoke-us1", role, "Q0E=")}
	edit(&secret)
	spoke := ShardSpoke{Name: "spoke-us1", Environment: "prod-us", ClusterName: "spoke-us1", Server: server,
		CertificateAuthorityData: "Q0E=", SpokeRoleArn: role, Manifest: secret.YAML()}
	return toMap(t, ShardFacts{Shard: "us", Spokes: []ShardSpoke{spoke}})
}

// TestGitShardRefusals: what a shard's git and tenants may not be, against its hub's registry (or its absence).
func TestGitShardRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		registry bool
		edit     func(*FleetArgs)
		want     []string
	}{
		"git without a hub registry": {false, func(a *FleetArgs) {
			a.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry"}
		}, []string{"git: the hub has no registry repository"}},
		"another repository": {true, func(a *FleetArgs) {
			a.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "my-registry", BranchProtection: &gitopsbridge.BranchProtection{}}
		}, []string{"git: acme/my-registry@main is not the hub's registry acme/fleet-registry@main",
			"git.branchProtection: the registry's branch is the hub's stack's to protect"}},
		"tenants": {true, func(a *FleetArgs) {
			a.Tenants = []tenant.TenantSpec{{Name: "payments", Namespaces: []tenant.TenantNamespace{{Name: "payments"}}}}
		}, []string{"tenants: a shard that registers through the hub's registry acme/fleet-registry@main holds no credentials of the hub"}},
	} {
		t.Run(name, func(t *testing.T) {
			var cloud *mocks.Cloud
			var err error
			if tc.registry {
				cloud, _, err = runGitShard(t, tc.edit)
			} else {
				a := shardStack()
				tc.edit(&a)
				cloud, _, err = runShard(t, a)
			}
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("NewFleet: %v\nwant %q", err, w)
				}
			}
			for _, r := range cloud.Resources() {
				if r.Type != "fleet:index:Fleet" && r.Type != "pulumi:pulumi:StackReference" {
					t.Errorf("%s %s registered before the shard's git was checked", r.Type, r.Name)
				}
			}
		})
	}
}

// guardRegistered are the registrations of the hub's admission guard for cluster secrets: its variables pins0,
// pins1, ... joined.
func guardRegistered(t *testing.T, cloud *mocks.Cloud) string {
	t.Helper()
	policy := cloud.MustGet(t, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy", "hub-cluster-secrets-policy")
	var pins []string
	for _, v := range policy.Input("spec").(map[string]any)["variables"].([]any) {
		if v := v.(map[string]any); strings.HasPrefix(v["name"].(string), "pins") {
			pins = append(pins, v["expression"].(string))
		}
	}
	if len(pins) == 0 {
		t.Fatal("the guard has no pins variable")
	}
	return strings.Join(pins, "\n")
}

// toMap is v as the engine hands a stack's output to a stack reference: JSON-shaped.
func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	raw, err := yaml.Marshal(v)
	var out map[string]any
	if err == nil {
		err = yaml.Unmarshal(raw, &out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGitShardWithoutTheHubRefusesAHandover: a shard given the hub's registry and no kubeconfig tells its ledger
// that it cannot reach the hub (noHubAccess), so a move from direct to Git registration is refused before
// anything else is registered; one with the hub stack (and so its kubeconfig) does not.
func TestGitShardWithoutTheHubRefusesAHandover(t *testing.T) {
	direct := shardStack()
	direct.Hub = &HubRef{ManagementRoleArn: "arn:aws:iam::444455556666:role/argocd", Registry: &Registry{Owner: "acme",
		Repository: "fleet-registry"}}
	for name, tc := range map[string]struct {
		a    FleetArgs
		want any
	}{
		"facts without kubeconfig": {direct, true},
		"hub stack":                {shardStack(), nil},
	} {
		t.Run(name, func(t *testing.T) {
			cloud, _, err := runGitShard(t, func(a *FleetArgs) { *a = tc.a })
			if err != nil {
				t.Fatal(err)
			}
			l := cloud.MustGet(t, "fleet:index:ClusterLedger", "fleet-ledger")
			if got := l.Input("noHubAccess"); got != tc.want {
				t.Errorf("the ledger's noHubAccess is %v, want %v", got, tc.want)
			}
		})
	}
}

// TestManagedHubAdmitsItsGitShardsSpokes: a Git-mode shard of a managed hub commits secrets that name each spoke by
// its EKS cluster ARN with no role, and the managed hub's guard admits exactly those; a shard's spoke registered as
// for a self-managed hub (its endpoint and a spoke role), or by another cluster's ARN, is refused at
// shards[0].stack before anything is registered.
func TestManagedHubAdmitsItsGitShardsSpokes(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	outputs := gitHubOutputs()
	facts := maps.Clone(outputs["hubFacts"].(map[string]any))
	facts["mode"], facts["egressCidrs"] = gitopsbridge.ModeManaged, []any{}
	outputs["hubFacts"] = facts
	a := shardStack()
	a.Git = &gitopsbridge.GitDelivery{}
	_, shard, err := runShardOf(t, a, outputs)
	if err != nil {
		t.Fatal(err)
	}
	read := mocks.Await[ShardFacts](t, shard.ShardFacts)
	hubRun := func(shardFacts map[string]any) (*mocks.Cloud, error) {
		h := hubStack()
		h.Argocd = managedFleet().Argocd
		h.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry"}
		h.Shards[0].Stack = "org/fleet/shard-us"
		cloud := mocks.New()
		cloud.SetStack("org/fleet/shard-us", map[string]any{"shardFacts": shardFacts})
		return cloud, cloud.Run(func(ctx *pulumi.Context) error { _, err := NewFleet(ctx, "fleet", h); return err })
	}
	cloud, err := hubRun(toMap(t, read))
	if err != nil {
		t.Fatal(err)
	}
	registered := guardRegistered(t, cloud)
	for _, spoke := range []string{"spoke-us1", "spoke-us2"} {
		arn := "arn:aws:eks:us-east-2:" + mocks.Account + ":cluster/" + spoke
		if !strings.Contains(registered, base64.StdEncoding.EncodeToString([]byte(arn))) {
			t.Errorf("the managed hub's guard does not admit %s by its ARN %s", spoke, arn)
		}
	}
	byARN := func(edit func(*gitopsbridge.ClusterSecret)) map[string]any {
		s, err := gitopsbridge.ParseClusterSecret(read.Spokes[0].Manifest)
		if err != nil {
			t.Fatal(err)
		}
		edit(&s)
		spoke := read.Spokes[0]
		spoke.Manifest = s.YAML()
		return toMap(t, ShardFacts{Shard: "us", Spokes: []ShardSpoke{spoke}})
	}
	for name, tc := range map[string]struct {
		facts map[string]any
		want  string
	}{
		"a spoke registered for a self-managed hub": {granted(t, func(*gitopsbridge.ClusterSecret) {}),
			`spoke "spoke-us1": its server "https://DC85F95D2517D0AB.gr7.us-east-2.eks.amazonaws.com" is not the EKS cluster ARN of spoke-us1`},
		"another cluster's ARN": {byARN(func(s *gitopsbridge.ClusterSecret) {
			s.Server = "arn:aws:eks:us-east-2:" + mocks.Account + ":cluster/hub"
		}), `is not the EKS cluster ARN of spoke-us1`},
		"a role to assume": {byARN(func(s *gitopsbridge.ClusterSecret) {
			s.Config = gitopsbridge.SpokeConfig("spoke-us1", "arn:aws:iam::111122223333:role/admin", "Q0E=")
		}), `its role "arn:aws:iam::111122223333:role/admin": a managed hub reaches its spokes as the capability's role`},
	} {
		t.Run(name, func(t *testing.T) {
			cloud, err := hubRun(tc.facts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewFleet: %v\nwant %q", err, tc.want)
			}
			for _, r := range cloud.Resources() {
				if r.Type != "fleet:index:Fleet" && r.Type != "pulumi:pulumi:StackReference" {
					t.Errorf("%s %s registered before the shard's stack was checked", r.Type, r.Name)
				}
			}
		})
	}
}
