package delivery

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"
)

// TestObjects: the three-stage delivery registers exactly these objects on the hub and in GitHub.
func TestObjects(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	cloud, d, err := run("fleet", threeStages())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range cloud.Resources() {
		if r.Custom && !strings.HasPrefix(r.Type, "pulumi:providers:") {
			got = append(got, kindOf(r)+" "+nameOf(r))
		}
	}
	want := []string{
		"Namespace pulumi-kubernetes-operator", "Release pulumi-kubernetes-operator",
		"Namespace cert-manager", "Release cert-manager", "Namespace kargo", "Release kargo",
		"Namespace fleet-stacks-dev", "Secret pulumi-access-token", "ServiceAccount fleet-dev",
		"ClusterRoleBinding fleet-stacks-dev:fleet-dev:system:auth-delegator",
		"Role gitops-fleet-argocd-sync", "RoleBinding gitops-fleet-argocd-sync",
		"Namespace fleet-stacks-qa", "Secret pulumi-access-token", "ServiceAccount fleet-qa",
		"ClusterRoleBinding fleet-stacks-qa:fleet-qa:system:auth-delegator",
		"Role gitops-fleet-argocd-sync", "RoleBinding gitops-fleet-argocd-sync",
		"Namespace fleet-stacks-prod", "Secret pulumi-access-token", "Secret pulumi-preview-access-token", "ServiceAccount fleet-prod",
		"ClusterRoleBinding fleet-stacks-prod:fleet-prod:system:auth-delegator",
		"ServiceAccount fleet-prod-preview", "ClusterRoleBinding fleet-stacks-prod:fleet-prod-preview:system:auth-delegator",
		"Role gitops-fleet-argocd-sync", "RoleBinding gitops-fleet-argocd-sync",
		"AppProject fleet-delivery", "ValidatingAdmissionPolicy fleet-stacks", "ValidatingAdmissionPolicyBinding fleet-stacks",
		"Branch fleet-branch", "RepositoryFile fleet-dev-stack", "RepositoryFile fleet-qa-stack",
		"RepositoryFile fleet-prod-stack", "RepositoryFile fleet-prod-preview-stack",
		"RepositoryPullRequest fleet-pull-request",
		"Branch fleet-dev-branch", "Branch fleet-qa-branch", "Branch fleet-prod-branch",
		"ConfigMapPatch argocd-cm",
		"Application fleet-dev", "Application fleet-qa", "Application fleet-prod",
		"Project fleet", "ProjectConfig fleet", "Secret git-manifests", "Warehouse program",
		"Stage dev", "Stage qa", "Stage prod",
		"ServiceAccount qa-promoter", "Role qa-promoter", "RoleBinding qa-promoter",
		"ServiceAccount prod-promoter", "Role prod-promoter", "RoleBinding prod-promoter",
	}
	if diff := cmp.Diff(sorted(want), sorted(got)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	if got := mocks.Await[[]string](t, d.Stages.ToStringArrayOutput()); !slices.Equal(got, []string{"dev", "qa", "prod"}) {
		t.Errorf("stages output %v", got)
	}
	files := mocks.Await[map[string]string](t, d.Manifests.ToStringMapOutput())
	if got := slices.Sorted(mapKeys(files)); !slices.Equal(got, []string{"deploy/stacks/dev/stack.yaml",
		"deploy/stacks/prod/preview-stack.yaml", "deploy/stacks/prod/stack.yaml", "deploy/stacks/qa/stack.yaml"}) {
		t.Errorf("manifest files %v", got)
	}
}

// TestManagedHubDestinations: with hubName (a managed Argo CD, which takes no in-cluster server), each stage's
// Application and the delivery's project name the hub by it, in the stage's namespace; without it, they name the
// in-cluster server.
func TestManagedHubDestinations(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	for hubName, want := range map[string]map[string]any{
		"":         {"server": gitopsbridge.InClusterServer},
		"platform": {"name": "platform"},
	} {
		t.Run("hubName "+hubName, func(t *testing.T) {
			a := threeStages()
			a.HubName = hubName
			cloud, _, err := run("fleet", a)
			if err != nil {
				t.Fatal(err)
			}
			project := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "fleet-argocd-project")
			dests := project.Input("spec").(map[string]any)["destinations"].([]any)
			if len(dests) != 3 {
				t.Fatalf("project destinations %v, want one per stage", dests)
			}
			for i, stage := range []string{"dev", "qa", "prod"} {
				ns := map[string]any{"namespace": "fleet-stacks-" + stage}
				maps.Copy(ns, want)
				app := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:Application", "fleet-"+stage+"-application")
				if got := app.Input("spec").(map[string]any)["destination"]; !reflect.DeepEqual(got, ns) {
					t.Errorf("%s's Application deploys to %v, want %v", stage, got, ns)
				}
				if !reflect.DeepEqual(dests[i], ns) {
					t.Errorf("the project's destination %d is %v, want %v", i, dests[i], ns)
				}
			}
		})
	}
}

// TestOrder: each object is registered after what it needs on a real hub: CRDs from the charts, Kargo after
// cert-manager, Applications after the health check, the workspace's RBAC and their manifests, Kargo's objects
// after the Project, and each Stage after its upstream and its Application.
func TestOrder(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	cloud, _, err := run("fleet", threeStages())
	if err != nil {
		t.Fatal(err)
	}
	after := map[string][]string{ // resource name -> resource names it depends on
		"fleet-kargo": {"fleet-cert-manager"},
		"fleet-dev-application": {"fleet-stack-health", "fleet-pulumi-kubernetes-operator", "fleet-dev-sa",
			"fleet-dev-system:auth-delegator", "fleet-dev-access-token", "fleet-dev-stack", "fleet-argocd-project",
			"fleet-stacks-policy", "fleet-stacks-policy-binding"},
		"fleet-prod-application":          {"fleet-prod-stack", "fleet-prod-preview-stack", "fleet-prod-sa", "fleet-prod-preview-sa"},
		"fleet-stacks-policy-binding":     {"fleet-stacks-policy"},
		"fleet-dev-sa":                    {"fleet-dev-namespace"},
		"fleet-project":                   {"fleet-kargo"},
		"fleet-project-config":            {"fleet-project"},
		"fleet-git-manifests":             {"fleet-project"},
		"fleet-warehouse":                 {"fleet-project", "fleet-git-manifests"},
		"fleet-dev-stage":                 {"fleet-warehouse", "fleet-dev-application"},
		"fleet-qa-stage":                  {"fleet-dev-stage", "fleet-qa-application"},
		"fleet-prod-stage":                {"fleet-qa-stage", "fleet-prod-application"},
		"fleet-prod-promoter-binding":     {"fleet-prod-promoter-sa", "fleet-prod-promoter-role"},
		"fleet-prod-promoter-role":        {"fleet-prod-stage"},
		"fleet-dev-stack":                 {"fleet-branch"},
		"fleet-pull-request":              {"fleet-dev-stack", "fleet-qa-stack", "fleet-prod-stack", "fleet-prod-preview-stack"},
		"fleet-dev-system:auth-delegator": {"fleet-dev-sa"},
		"fleet-qa-branch":                 {"fleet-dev-stack", "fleet-qa-stack", "fleet-prod-stack"},
		"fleet-qa-application":            {"fleet-qa-branch"},
	}
	byName := map[string]mocks.Resource{}
	for _, r := range cloud.Resources() {
		byName[r.Name] = r
	}
	for name, deps := range after {
		r, ok := byName[name]
		if !ok {
			t.Errorf("%s is not registered", name)
			continue
		}
		for _, d := range deps {
			if !slices.ContainsFunc(r.Dependencies, func(u string) bool { return strings.HasSuffix(u, "::"+d) }) {
				t.Errorf("%s is not registered after %s (depends on %v)", name, d, r.Dependencies)
			}
		}
	}
}

// TestTemplateChange: a new commit in the config of one stage changes only that stage's template on the manifests
// branch, and in it only spec.commit; the stages' branches, which Kargo's promotions write, are not touched.
func TestTemplateChange(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	before, _, err := run("fleet", threeStages())
	if err != nil {
		t.Fatal(err)
	}
	promoted := threeStages()
	promoted.Stages[1].Commit = commitB
	after, _, err := run("fleet", promoted)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]mocks.Resource{}
	for _, r := range before.Resources() {
		old[r.Name] = r
	}
	var changed []string
	for _, r := range after.Resources() {
		if !r.Inputs.DeepEquals(old[r.Name].Inputs) {
			changed = append(changed, r.Name)
		}
	}
	if !slices.Equal(changed, []string{"fleet-qa-stack"}) {
		t.Fatalf("changed resources %v, want only fleet-qa-stack", changed)
	}
	var was, is map[string]any
	mustYAML(t, old["fleet-qa-stack"].Input("content").(string), &was)
	r, _ := after.Named("github:index/repositoryFile:RepositoryFile", "fleet-qa-stack")
	mustYAML(t, r.Input("content").(string), &is)
	if diff := cmp.Diff(was, is); !strings.Contains(diff, commitB) || strings.Count(diff, "\n-") != 1 {
		t.Errorf("qa's manifest changed beyond spec.commit:\n%s", diff)
	}
}

// TestExisting: with PKO and Kargo already installed no chart is installed, and nothing waits for one; without
// pullRequest the manifests go straight to the branch.
func TestExisting(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := threeStages()
	a.Operator, a.Kargo, a.Manifests.PullRequest = &OperatorInstall{Existing: true}, &KargoInstall{Existing: true}, false
	cloud, d, err := run("fleet", a)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"kubernetes:helm.sh/v3:Release", "github:index/branch:Branch",
		"github:index/repositoryPullRequest:RepositoryPullRequest", "kubernetes:core/v1:Secret"} {
		for _, r := range cloud.OfType(typ) {
			if nameOf(r) != AccessTokenSecret && nameOf(r) != PreviewAccessTokenSecret &&
				!strings.HasPrefix(fmt.Sprint(r.Input("branch")), "stage/") {
				t.Errorf("%s %s registered", typ, nameOf(r))
			}
		}
	}
	for _, f := range cloud.OfType("github:index/repositoryFile:RepositoryFile") {
		if f.Input("branch") != "main" {
			t.Errorf("%s goes to branch %v, want main", f.Name, f.Input("branch"))
		}
	}
	if s := mocks.Await[string](t, d.KargoReleaseStatus); s != "" {
		t.Errorf("kargoReleaseStatus %q with kargo.existing", s)
	}
}

func mustYAML(t *testing.T, text string, into any) {
	t.Helper()
	if err := yaml.Unmarshal([]byte(text), into); err != nil {
		t.Fatalf("%v in %s", err, text)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestTokens: each token input becomes a Secret of each stage's own, in the stage's namespace (or the Kargo
// project's), and stays secret in the state.
func TestTokens(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := threeStages()
	a.Program.GitToken = pulumi.String("ghp_program_canary")
	cloud, _, err := run("fleet", a)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"fleet/git-manifests": "password"}
	for _, stage := range []string{"dev", "qa", "prod"} {
		want["fleet-stacks-"+stage+"/pulumi-access-token"] = "accessToken"
		want["fleet-stacks-"+stage+"/program-git-token"] = "accessToken"
	}
	want["fleet-stacks-prod/pulumi-preview-access-token"] = "accessToken" // prod has a preview Stack
	got := map[string]string{}
	for _, r := range cloud.OfType("kubernetes:core/v1:Secret") {
		md := r.Input("metadata").(map[string]any)
		name := md["namespace"].(string) + "/" + md["name"].(string)
		data, whole := r.Inputs["stringData"], false
		if data.IsSecret() {
			data, whole = data.SecretValue().Element, true
		}
		key := resource.PropertyKey(want[name])
		if v, ok := data.ObjectValue()[key]; ok && (whole || v.IsSecret()) {
			got[name] = string(key)
		} else {
			got[name] = "(no secret " + string(key) + ")"
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the token key of each Secret, when secret (-want +got):\n%s", diff)
	}
}

// TestStageBranches: every stage gets its own branch, created from the manifests branch (so it starts with the
// templates), and with branchProtection each stage's branch is protected like the manifests branch, so that
// Kargo's token cannot push a promotion past its pull request.
func TestStageBranches(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := threeStages()
	a.Manifests.BranchProtection = &gitopsbridge.BranchProtection{}
	for i := range a.Stages {
		a.Stages[i].PullRequest = true
	}
	cloud, _, err := run("fleet", a)
	if err != nil {
		t.Fatal(err)
	}
	var protected []string
	for _, r := range cloud.OfType("github:index/branchProtection:BranchProtection") {
		protected = append(protected, r.Input("pattern").(string))
	}
	if want := []string{"main", "stage/dev", "stage/prod", "stage/qa"}; !slices.Equal(sorted(protected), want) {
		t.Errorf("protected branches %v, want %v", sorted(protected), want)
	}
	for _, stage := range []string{"dev", "qa", "prod"} {
		r, ok := cloud.Named("github:index/branch:Branch", "fleet-"+stage+"-branch")
		if !ok {
			t.Fatalf("no branch for %s", stage)
		}
		if r.Input("branch") != "stage/"+stage || r.Input("sourceBranch") != "main" || r.Input("repository") != "platform" {
			t.Errorf("%s's branch: %v", stage, r.Inputs)
		}
	}
}

// seedStages are seed 004's pipeline: a gate before the dev environments; for each of dev and dev2 a preview
// stage, which the update stage follows on its own; two approval gates after both; a QA preview after both gates
// (All), qa after it, prod after qa.
func seedStages() StackDeliveryArgs {
	a := threeStages()
	a.Manifests.PullRequest = false
	dev := []string{"dev", "dev2"}
	gates := []string{"approvalgateqa", "approvalgateqasec"}
	a.Stages = []DeliveryStage{
		{Name: "approvalgatedev", Kind: KindGate, Approvers: &Approvers{Groups: []string{"dev-leads"}}},
		{Name: "devpreview", Kind: KindPreview, Target: "dev"},
		{Name: "dev", Stack: "acme/fleet/dev", Commit: commitA, From: []string{"devpreview"}},
		{Name: "dev2preview", Kind: KindPreview, Target: "dev2", From: []string{"approvalgatedev"}},
		{Name: "dev2", Stack: "acme/fleet/dev2", Commit: commitA, From: []string{"dev2preview"}},
		{Name: "approvalgateqa", Kind: KindGate, From: dev, Approvers: &Approvers{Groups: []string{"qa"}}},
		{Name: "approvalgateqasec", Kind: KindGate, From: dev, Approvers: &Approvers{Groups: []string{"security"}}},
		{Name: "qapreview", Kind: KindPreview, Target: "qa", From: gates, AvailabilityStrategy: "All"},
		{Name: "qa", Stack: "acme/fleet/qa", Commit: commitA, From: []string{"qapreview"}},
		{Name: "prod", Stack: "acme/fleet/prod", Commit: commitA, From: []string{"qa"}},
	}
	return a
}

func TestStageGraph(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	cloud, d, err := run("fleet", seedStages())
	if err != nil {
		t.Fatal(err)
	}
	stage := func(name string) mocks.Resource {
		r, ok := cloud.Named("kubernetes:kargo.akuity.io/v1alpha1:Stage", "fleet-"+name+"-stage")
		if !ok {
			t.Fatalf("no Stage %s", name)
		}
		return r
	}
	sources := func(name string) map[string]any {
		rf := stage(name).Input("spec").(map[string]any)["requestedFreight"].([]any)
		return rf[0].(map[string]any)["sources"].(map[string]any)
	}
	for name, want := range map[string]map[string]any{
		"approvalgatedev":   {"direct": true},
		"devpreview":        {"stages": []any{"approvalgatedev"}},
		"dev":               {"stages": []any{"devpreview"}},
		"dev2preview":       {"stages": []any{"approvalgatedev"}},
		"dev2":              {"stages": []any{"dev2preview"}},
		"approvalgateqa":    {"stages": []any{"dev", "dev2"}},
		"approvalgateqasec": {"stages": []any{"dev", "dev2"}},
		"qapreview":         {"stages": []any{"approvalgateqa", "approvalgateqasec"}, "availabilityStrategy": "All"},
		"qa":                {"stages": []any{"qapreview"}},
		"prod":              {"stages": []any{"qa"}},
	} {
		if diff := cmp.Diff(want, sources(name)); diff != "" {
			t.Errorf("%s's sources (-want +got):\n%s", name, diff)
		}
	}
	for _, gate := range []string{"approvalgatedev", "approvalgateqa", "approvalgateqasec"} {
		if _, ok := stage(gate).Input("spec").(map[string]any)["promotionTemplate"]; ok {
			t.Errorf("gate %s has a promotion template", gate)
		}
		for _, r := range cloud.Resources() {
			if strings.Contains(r.Name, "-"+gate+"-") && !strings.HasSuffix(r.Name, "-stage") &&
				!strings.Contains(r.Name, "-promoter") {
				t.Errorf("gate %s has %s %s", gate, r.Type, r.Name)
			}
		}
	}
	for _, gate := range []string{"approvalgateqa", "approvalgateqasec"} {
		if !slices.ContainsFunc(stage("qapreview").Dependencies, func(u string) bool { return strings.HasSuffix(u, "::fleet-"+gate+"-stage") }) {
			t.Errorf("qapreview's Stage is not registered after %s's", gate)
		}
	}
	if got := mocks.Await[[]string](t, d.Stages.ToStringArrayOutput()); !slices.Equal(got, []string{"approvalgatedev",
		"devpreview", "dev", "dev2preview", "dev2", "approvalgateqa", "approvalgateqasec", "qapreview", "qa", "prod"}) {
		t.Errorf("stages in graph order %v", got)
	}
	if got := mocks.Await[map[string]string](t, d.ApplicationNames.ToStringMapOutput()); len(got) != 7 {
		t.Errorf("Applications %v, want the seven update and preview stages'", got)
	}
	// A preview stage's Stack previews its target's stack, in its namespace, as its preview ServiceAccount, which
	// the target's workspace creates; its Application waits for that workspace.
	var preview map[string]any
	file, _ := cloud.Named("github:index/repositoryFile:RepositoryFile", "fleet-devpreview-stack")
	mustYAML(t, file.Input("content").(string), &preview)
	spec := preview["spec"].(map[string]any)
	if md := preview["metadata"].(map[string]any); md["name"] != "fleet-dev-preview" || md["namespace"] != "fleet-stacks-dev" ||
		spec["preview"] != true || spec["stack"] != "acme/fleet/dev" || spec["serviceAccountName"] != "fleet-dev-preview" ||
		spec["commit"] != commitA {
		t.Errorf("devpreview's Stack: %v", preview)
	}
	if _, ok := cloud.Named("kubernetes:core/v1:ServiceAccount", "fleet-dev-preview-sa"); !ok {
		t.Error("dev's workspace has no preview ServiceAccount for devpreview")
	}
	app, _ := cloud.Named("kubernetes:argoproj.io/v1alpha1:Application", "fleet-devpreview-application")
	if !slices.ContainsFunc(app.Dependencies, func(u string) bool { return strings.HasSuffix(u, "::fleet-dev-preview-sa") }) {
		t.Errorf("devpreview's Application does not wait for dev's preview ServiceAccount: %v", app.Dependencies)
	}
	var policies []string
	cfg, _ := cloud.Named("kubernetes:kargo.akuity.io/v1alpha1:ProjectConfig", "fleet-project-config")
	for _, p := range cfg.Input("spec").(map[string]any)["promotionPolicies"].([]any) {
		p := p.(map[string]any)
		policies = append(policies, fmt.Sprintf("%v=%v", p["stageSelector"].(map[string]any)["name"], p["autoPromotionEnabled"]))
	}
	if want := []string{"approvalgatedev=false", "devpreview=true", "dev=true", "dev2preview=true", "dev2=true",
		"approvalgateqa=false", "approvalgateqasec=false", "qapreview=true", "qa=true", "prod=false"}; !slices.Equal(policies, want) {
		t.Errorf("promotion policies %v, want %v", policies, want)
	}
}

// TestVerification: verified stages get their provider's AnalysisTemplate in the Kargo project and a
// spec.verification with the Freight's commit; Argo Rollouts is installed first; pulumiCloud's token is a Secret
// in the project; stackStatus's Job may read Stacks in the verified stages' namespaces only.
func TestVerification(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := seedStages()
	for i, s := range a.Stages {
		switch s.Name {
		case "devpreview", "dev":
			a.Stages[i].Verification = &Verification{Provider: VerifyPulumiCloud}
		case "qapreview", "qa":
			a.Stages[i].Verification = &Verification{Provider: VerifyStackStatus, TimeoutSeconds: 600}
		}
	}
	cloud, _, err := run("fleet", a)
	if err != nil {
		t.Fatal(err)
	}
	rollouts, ok := cloud.Named("kubernetes:helm.sh/v3:Release", "fleet-argo-rollouts")
	if !ok || rollouts.Input("version") != DefaultRolloutsChartVersion || rollouts.Input("chart") != RolloutsChart {
		t.Fatalf("Argo Rollouts release: %v", rollouts.Inputs)
	}
	stageSpec := func(name string) map[string]any {
		r, _ := cloud.Named("kubernetes:kargo.akuity.io/v1alpha1:Stage", "fleet-"+name+"-stage")
		return r.Input("spec").(map[string]any)
	}
	args := func(name string) map[string]any {
		out := map[string]any{}
		v, ok := stageSpec(name)["verification"].(map[string]any)
		if !ok {
			return nil
		}
		for _, x := range v["args"].([]any) {
			out[x.(map[string]any)["name"].(string)] = x.(map[string]any)["value"]
		}
		out["template"] = v["analysisTemplates"].([]any)[0].(map[string]any)["name"]
		return out
	}
	commit := `${{ commitFrom("https://github.com/acme/platform.git").ID }}`
	for name, want := range map[string]map[string]any{
		"dev": {"template": PulumiCloudTemplate, "commit": commit, "stack": "acme/fleet/dev", "kind": "update",
			"timeout": "900", "polls": "30"},
		"devpreview": {"template": PulumiCloudTemplate, "commit": commit, "stack": "acme/fleet/dev", "kind": "preview",
			"timeout": "900", "polls": "30"},
		"qa": {"template": StackStatusTemplate, "commit": commit, "stack-name": "fleet-qa", "namespace": "fleet-stacks-qa",
			"timeout": "600"},
		"qapreview": {"template": StackStatusTemplate, "commit": commit, "stack-name": "fleet-qa-preview",
			"namespace": "fleet-stacks-qa", "timeout": "600"},
		"prod": nil,
	} {
		if diff := cmp.Diff(want, args(name)); diff != "" {
			t.Errorf("%s's verification (-want +got):\n%s", name, diff)
		}
	}
	for _, name := range []string{PulumiCloudTemplate, StackStatusTemplate} {
		tmpl, ok := cloud.Named("kubernetes:argoproj.io/v1alpha1:AnalysisTemplate", "fleet-"+name+"-analysis")
		if !ok || tmpl.Input("metadata").(map[string]any)["namespace"] != "fleet" {
			t.Fatalf("AnalysisTemplate %s: %v", name, tmpl.Inputs)
		}
		if !slices.ContainsFunc(tmpl.Dependencies, func(u string) bool { return strings.HasSuffix(u, "::fleet-argo-rollouts") }) {
			t.Errorf("AnalysisTemplate %s is not registered after Argo Rollouts (its CRD)", name)
		}
		for _, stage := range []string{"dev", "qa"} {
			r, _ := cloud.Named("kubernetes:kargo.akuity.io/v1alpha1:Stage", "fleet-"+stage+"-stage")
			if !slices.ContainsFunc(r.Dependencies, func(u string) bool { return strings.HasSuffix(u, "::"+tmpl.Name) }) {
				t.Errorf("Stage %s is not registered after %s", stage, tmpl.Name)
			}
		}
	}
	token, ok := cloud.Named("kubernetes:core/v1:Secret", "fleet-"+PulumiAPITokenSecret)
	if !ok || token.Input("metadata").(map[string]any)["namespace"] != "fleet" || !token.Inputs["stringData"].ContainsSecrets() {
		t.Errorf("the Pulumi API token Secret in the project: %v", token.Inputs)
	}
	var readable []string
	for _, r := range cloud.OfType("kubernetes:rbac.authorization.k8s.io/v1:Role") {
		md := r.Input("metadata").(map[string]any)
		if md["name"] == "fleet-"+StackReaderName {
			readable = append(readable, md["namespace"].(string))
			rules := r.Input("rules").([]any)
			if diff := cmp.Diff([]any{map[string]any{"apiGroups": []any{"pulumi.com"}, "resources": []any{"stacks"},
				"verbs": []any{"get", "list", "watch"}}}, rules); diff != "" {
				t.Errorf("the stack reader's rules (-want +got):\n%s", diff)
			}
		}
	}
	if !slices.Equal(readable, []string{"fleet-stacks-qa"}) {
		t.Errorf("the stack-status Job may read Stacks in %v, want qa's namespace only", readable)
	}
}

// TestPromotionWritesOnlyItsBranch: a stage's promotion reads the templates and writes only its own branch, which
// only its own Application follows, so promoting one stage never moves the revision another stage's argocd-update
// waits for (akuity/kargo PR #2980's failure mode with one branch for every stage).
func TestPromotionWritesOnlyItsBranch(t *testing.T) {
	a := WithDefaults(seedStages(), "fleet")
	links, problems := graph(a.Stages)
	if problems != nil {
		t.Fatal(problems)
	}
	followed := map[string]string{} // branch -> stage whose Application follows it
	for _, l := range links {
		if !l.deploys() {
			continue
		}
		branch := Application(a, l.DeliveryStage)["spec"].(map[string]any)["source"].(map[string]any)["targetRevision"].(string)
		if other, dup := followed[branch]; dup || branch == a.Manifests.Branch {
			t.Errorf("%s's Application follows %s, as %q does (or the templates' branch)", l.Name, branch, other)
		}
		followed[branch] = l.Name
		written := map[string]bool{}
		var checkouts map[string]string // path -> branch
		for _, st := range PromotionSteps(a, l.DeliveryStage) {
			st := st.(map[string]any)
			cfg := st["config"].(map[string]any)
			switch st["uses"] {
			case "git-clone":
				checkouts = map[string]string{}
				for _, c := range cfg["checkout"].([]any) {
					c := c.(map[string]any)
					checkouts[c["path"].(string)] = c["branch"].(string)
				}
			case "git-commit", "git-clear":
				written[checkouts[cfg["path"].(string)]] = true
			case "git-push":
				if cfg["generateTargetBranch"] != true {
					written[checkouts[cfg["path"].(string)]] = true
				}
			case "git-open-pr":
				written[cfg["targetBranch"].(string)] = true
			}
		}
		if len(written) != 1 || !written[branch] {
			t.Errorf("%s's promotion writes %v, want its own branch %s only", l.Name, written, branch)
		}
	}
}
