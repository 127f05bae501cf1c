package e2e

import (
	"encoding/json"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

const (
	fileType   = "github:index/repositoryFile:RepositoryFile"
	branchType = "github:index/branch:Branch"
	// kargoHead is the head of a stage's branch after the simulated Kargo promotion.
	kargoHead   = "0123456789abcdef0123456789abcdef01234567"
	releaseType = "kubernetes:helm.sh/v3:Release"
	promoted    = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"
)

// TestDelivery: the fleet example's delivery stack (examples/fleet/Pulumi.delivery.yaml) on the offline cloud, its
// hub on a real control plane: a management hub with Argo CD, PKO and Kargo delivering the fleet program's dev, qa
// and prod stacks. After `up` a preview plans no change, the Stack templates are in the emulated GitHub and the
// objects on the hub's API server (as the state read them back); a Kargo promotion (a push to a stage's branch)
// survives a refresh and an up; a new commit in a stage's config changes that stage's template and nothing else;
// adding and removing stages, gates and preview stages plan exactly their objects, each up then a no-op against
// the real server.
func TestDelivery(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	l := env.Configured("delivery", env.FleetConfig("delivery"))
	steps := l.Up("up").Steps
	l.Settled()

	// Each product's objects wait for its chart: Kargo after cert-manager, the Project after Kargo, the
	// Applications after PKO (its Stack CRD) and the Stages after their Applications, dev before qa before prod.
	order := [][2]string{
		{"::delivery-cert-manager", "::delivery-kargo"},
		{"::delivery-kargo", "::delivery-project"},
		{"::delivery-pulumi-kubernetes-operator", "::delivery-dev-application"},
		{"::delivery-stack-health", "::delivery-prod-application"},
		{"::delivery-qa-application", "::delivery-qa-stage"},
		{"::delivery-dev-stage", "::delivery-qa-stage"},
		{"::delivery-qa-stage", "::delivery-prod-stage"},
	}
	for _, o := range order {
		done, start := steps.Last("", o[0], true), steps.First("", o[1], false)
		if done < 0 || start < 0 || start < done {
			t.Errorf("%s starts (event %d) before %s is created (event %d)", o[1], start, o[0], done)
		}
	}

	// The hub: four charts, one Application per stage that its Kargo Stage may update, the Stack health check.
	charts := map[string]string{}
	for _, s := range kubeObjects(l, releaseType) {
		charts[s["name"].(string)] = s["chart"].(string) + "@" + s["version"].(string)
	}
	wantCharts := map[string]string{
		"argo-cd":                    "argo-cd@" + gitopsbridge.DefaultChartVersion,
		"pulumi-kubernetes-operator": "oci://ghcr.io/pulumi/helm-charts/pulumi-kubernetes-operator@2.9.0",
		"cert-manager":               "cert-manager@v1.19.1",
		"kargo":                      "oci://ghcr.io/akuity/kargo-charts/kargo@1.11.2",
	}
	if diff := cmp.Diff(wantCharts, charts); diff != "" {
		t.Errorf("Helm releases on the hub (-want +got):\n%s", diff)
	}
	apps := map[string]string{}
	for _, app := range kubeObjects(l, "kubernetes:argoproj.io/v1alpha1:Application") {
		md := app["metadata"].(map[string]any)
		an, _ := md["annotations"].(map[string]any)
		apps[md["name"].(string)], _ = an["kargo.akuity.io/authorized-stage"].(string)
	}
	if diff := cmp.Diff(map[string]string{"fleet-dev": "fleet:dev", "fleet-qa": "fleet:qa", "fleet-prod": "fleet:prod"}, apps); diff != "" {
		t.Errorf("Applications and their authorized stages (-want +got):\n%s", diff)
	}
	kinds := map[string]int{}
	for _, o := range kubeObjects(l, "") {
		if typ := o[typeKey].(string); strings.HasPrefix(typ, "kubernetes:kargo.akuity.io/") {
			kinds[typ[strings.LastIndex(typ, ":")+1:]]++
		}
	}
	if diff := cmp.Diff(map[string]int{"Project": 1, "ProjectConfig": 1, "Warehouse": 1, "Stage": 3}, kinds); diff != "" {
		t.Errorf("Kargo objects (-want +got):\n%s", diff)
	}
	patches := kubeObjects(l, "kubernetes:core/v1:ConfigMapPatch")
	if len(patches) != 1 || patches[0]["data"].(map[string]any)[delivery.HealthCheckKey] == nil {
		t.Errorf("argocd-cm patches %v, want the pulumi.com/Stack health check", patches)
	}

	// GitHub: one Stack manifest per stage pinned to its commit, and prod's preview Stack.
	before := stackFiles(env)
	if got := slices.Sorted(maps.Keys(before)); !slices.Equal(got, []string{
		"pulumi-fleet/deploy/stacks/dev/stack.yaml", "pulumi-fleet/deploy/stacks/prod/preview-stack.yaml",
		"pulumi-fleet/deploy/stacks/prod/stack.yaml", "pulumi-fleet/deploy/stacks/qa/stack.yaml"}) {
		t.Fatalf("manifest files %v", got)
	}
	// Each stage starts at a commit of this repository that has its stack file (qa's is newer); checked where
	// the clone has the history.
	shallow, _ := exec.Command("git", "-C", env.Root(), "rev-parse", "--is-shallow-repository").Output()
	for stage, commit := range map[string]string{"dev": "81d3a29597266e2c6dee3d95e1a055caf008a79d",
		"qa": "bb2dff323eab3e53353294aee548319934be8859", "prod": "81d3a29597266e2c6dee3d95e1a055caf008a79d"} {
		if err := exec.Command("git", "-C", env.Root(), "cat-file", "-e",
			commit+":examples/fleet/Pulumi."+stage+".yaml").Run(); err != nil && strings.TrimSpace(string(shallow)) == "false" {
			t.Errorf("%s starts at %s, which has no examples/fleet/Pulumi.%s.yaml: %v", stage, commit, stage, err)
		}
		spec := before["pulumi-fleet/deploy/stacks/"+stage+"/stack.yaml"]["spec"].(map[string]any)
		if spec["commit"] != commit || spec["stack"] != "gitops-fleet/gitops-fleet/"+stage {
			t.Errorf("%s's Stack runs %v at %v", stage, spec["stack"], spec["commit"])
		}
	}

	// The secrets stay secret in the state.
	text, _ := l.Export(false)
	for key, v := range offline.DeliverySecrets {
		if strings.Contains(text, v) {
			t.Errorf("%s is in plaintext in `pulumi stack export`", key)
		}
	}

	t.Run("a Kargo promotion of qa survives a refresh and an up", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		branch := kargoPromotes(env, "qa", promoted)
		if c := l.Refresh("refresh"); len(c) != 1 || c["same"] == 0 {
			t.Errorf("refresh after the promotion changes %v, want only \"same\"", c)
		}
		if text, _ := l.Export(false); !strings.Contains(text, kargoHead) {
			t.Error("the refresh did not read qa's branch at Kargo's promotion")
		}
		l.Settled()
		if p := l.Up("up").Steps.Plan(); len(p) != 0 {
			t.Errorf("up after the promotion plans %v", p)
		}
		if got := env.Cloud().Plain(env.Cloud().Record("github", branchType, branch.ID))["sha"]; got != kargoHead {
			t.Errorf("qa's branch is at %v after up, not at Kargo's promotion %s", got, kargoHead)
		}
		if diff := cmp.Diff(before, stackFiles(env)); diff != "" {
			t.Errorf("the templates changed:\n%s", diff)
		}
	})

	t.Run("a new commit in qa's config changes only qa's template", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		stages := l.Config()[offline.DeliveryConfigKey].(map[string]any)["stages"].([]any)
		stages[1].(map[string]any)["commit"] = promoted
		steps := l.Plan("preview", fleettest.Plan{"update": {fileType: 1}})
		if u := steps.URNs("update"); len(u) != 1 || !strings.HasSuffix(u[0], "::delivery-qa-stack") {
			t.Errorf("promoting qa updates %v", u)
		}
		l.Up("up")
		l.SettledByNext() // the next stage's exact plan
		after := stackFiles(env)
		for file, obj := range before {
			diff := cmp.Diff(obj, after[file])
			switch {
			case strings.Contains(file, "/qa/") && (!strings.Contains(diff, promoted) || strings.Count(diff, "\n-") != 1):
				t.Errorf("qa's manifest changed beyond spec.commit:\n%s", diff)
			case !strings.Contains(file, "/qa/") && diff != "":
				t.Errorf("%s changed:\n%s", file, diff)
			}
		}
	})

	// A stage's own objects: what adding one creates and removing it deletes.
	// A stage's own objects: its namespace, its own two token Secrets, its ServiceAccount and binding, Argo CD's
	// application controller's Role and RoleBinding to write its Stacks, its manifest, Application and Kargo Stage.
	stageObjects := map[string]int{
		"kubernetes:core/v1:Namespace":                               1,
		"kubernetes:core/v1:Secret":                                  2,
		"kubernetes:core/v1:ServiceAccount":                          1,
		"kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": 1,
		"kubernetes:rbac.authorization.k8s.io/v1:Role":               1,
		"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding":        1,
		fileType:   1,
		branchType: 1,
		"kubernetes:argoproj.io/v1alpha1:Application": 1,
		"kubernetes:kargo.akuity.io/v1alpha1:Stage":   1,
	}
	// What knows the stages: the ProjectConfig's policies, the Argo CD project's destinations and the Stack
	// guard's stages and namespaces.
	policies := map[string]int{
		"kubernetes:kargo.akuity.io/v1alpha1:ProjectConfig": 1,
		"kubernetes:argoproj.io/v1alpha1:AppProject":        1,
		vap:        1,
		vapBinding: 1,
	}

	t.Run("add a stage after prod: its objects and the ProjectConfig's policy, nothing else", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		d := l.Config()[offline.DeliveryConfigKey].(map[string]any)
		d["stages"] = append(d["stages"].([]any), map[string]any{"name": "dr", "stack": "gitops-fleet/gitops-fleet/dr",
			"commit": promoted})
		steps := l.Plan("preview", fleettest.Plan{"create": stageObjects, "update": policies})
		for _, u := range steps.URNs("create") {
			if !strings.Contains(u, "::delivery-dr-") {
				t.Errorf("adding dr creates %s", u)
			}
		}
		l.Up("up")
		l.SettledByNext() // its removal's exact plan
		if _, ok := stackFiles(env)["pulumi-fleet/deploy/stacks/dr/stack.yaml"]; !ok {
			t.Error("no Stack manifest for dr in GitHub")
		}
	})

	t.Run("remove it: its Stage first, then its Application, then its manifest and workspace identity", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		d := l.Config()[offline.DeliveryConfigKey].(map[string]any)
		d["stages"] = d["stages"].([]any)[:3]
		l.Plan("preview", fleettest.Plan{"delete": stageObjects, "update": policies})
		steps := l.Up("up").Steps
		stage, app := steps.Last("", "::delivery-dr-stage", true), steps.First("", "::delivery-dr-application", false)
		appDone := steps.Last("", "::delivery-dr-application", true)
		file, sa := steps.First("", "::delivery-dr-stack", false), steps.First("", "::delivery-dr-sa", false)
		if stage < 0 || app < stage || file < appDone || sa < appDone {
			t.Errorf("delete order: Stage done %d, Application %d-%d, manifest %d, ServiceAccount %d", stage, app, appDone, file, sa)
		}
		l.SettledByNext() // the gate's exact plan
		for _, r := range env.Cloud().Records("", "") {
			if strings.Contains(r.URN, "::delivery-dr-") {
				t.Errorf("%s of dr is left in the emulated cloud", r.URN)
			}
		}
	})

	stagesOf := func() []any { return l.Config()[offline.DeliveryConfigKey].(map[string]any)["stages"].([]any) }
	stageType, policyConfig := "kubernetes:kargo.akuity.io/v1alpha1:Stage", "kubernetes:kargo.akuity.io/v1alpha1:ProjectConfig"
	t.Run("add an approval gate before prod: its Stage and approvers, prod's sources, nothing that deploys", func(t *testing.T) {
		l := l.For(t)
		d := l.Config()[offline.DeliveryConfigKey].(map[string]any)
		d["stages"] = append(stagesOf(), map[string]any{"name": "approve-prod", "kind": "gate", "from": []any{"qa"},
			"approvers": map[string]any{"groups": []any{"change-board"}}})
		stagesOf()[2].(map[string]any)["from"] = []any{"approve-prod"}
		steps := l.Plan("preview", fleettest.Plan{
			"create": {stageType: 1, "kubernetes:core/v1:ServiceAccount": 1, "kubernetes:rbac.authorization.k8s.io/v1:Role": 1,
				"kubernetes:rbac.authorization.k8s.io/v1:RoleBinding": 1},
			"update": {stageType: 1, policyConfig: 1},
		})
		if u := steps.URNs("update"); !slices.ContainsFunc(u, func(s string) bool { return strings.HasSuffix(s, "::delivery-prod-stage") }) {
			t.Errorf("adding the gate updates %v, not prod's Stage", u)
		}
		l.Up("up")
		l.SettledByNext() // the preview stage's exact plan
	})

	t.Run("add a preview stage for qa: its Stack, branch, Application and Stage, and qa's preview identity and token", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		d := l.Config()[offline.DeliveryConfigKey].(map[string]any)
		d["stages"] = append(stagesOf(), map[string]any{"name": "qapreview", "kind": "preview", "target": "qa",
			"from": []any{"dev"}})
		stagesOf()[1].(map[string]any)["from"] = []any{"qapreview"}
		steps := l.Plan("preview", fleettest.Plan{
			"create": {fileType: 1, branchType: 1, "kubernetes:argoproj.io/v1alpha1:Application": 1, stageType: 1,
				"kubernetes:core/v1:ServiceAccount": 1, "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": 1,
				"kubernetes:core/v1:Secret": 1}, // qa's pulumi-preview-access-token: a preview never gets qa's own token
			"update": {stageType: 1, policyConfig: 1, vap: 1},
		})
		for _, u := range steps.URNs("create") {
			if !strings.Contains(u, "::delivery-qapreview-") && !strings.HasSuffix(u, "::delivery-qa-preview-sa") &&
				!strings.Contains(u, "::delivery-qa-preview-system:auth-delegator") &&
				!strings.HasSuffix(u, "::delivery-qa-preview-access-token") {
				t.Errorf("adding qapreview creates %s", u)
			}
		}
		l.Up("up")
		l.SettledByNext() // the second dev stage's exact plan
		var stack map[string]any
		if err := yaml.Unmarshal([]byte(env.Cloud().Plain(env.Cloud().Record("github", fileType, "pulumi-fleet/deploy/stacks/qapreview/stack.yaml"))["content"].(string)), &stack); err != nil {
			t.Fatal(err)
		}
		md, spec := stack["metadata"].(map[string]any), stack["spec"].(map[string]any)
		if md["namespace"] != "fleet-stacks-qa" || spec["preview"] != true || spec["stack"] != "gitops-fleet/gitops-fleet/qa" {
			t.Errorf("qapreview's Stack: %v", stack)
		}
	})

	t.Run("add a second dev stage and make qa a fan-in of both (All)", func(t *testing.T) {
		l := l.For(t)
		d := l.Config()[offline.DeliveryConfigKey].(map[string]any)
		d["stages"] = append(stagesOf(), map[string]any{"name": "dev2", "stack": "gitops-fleet/gitops-fleet/dev2",
			"commit": promoted, "direct": true})
		qa := stagesOf()[1].(map[string]any)
		qa["from"], qa["availabilityStrategy"] = []any{"dev", "dev2"}, "All"
		update := maps.Clone(policies)
		update[stageType] = 1 // qa's sources
		l.Plan("preview", fleettest.Plan{"create": stageObjects, "update": update})
		l.Up("up")
		l.Settled()
		for _, s := range kubeObjects(l, stageType) {
			if s["metadata"].(map[string]any)["name"] != "qa" {
				continue
			}
			src := s["spec"].(map[string]any)["requestedFreight"].([]any)[0].(map[string]any)["sources"]
			if diff := cmp.Diff(map[string]any{"stages": []any{"dev", "dev2"}, "availabilityStrategy": "All"}, src); diff != "" {
				t.Errorf("qa's sources on the hub (-want +got):\n%s", diff)
			}
		}
	})
}

// stackFiles are the Stack manifests in the emulated GitHub, parsed, by repository/path.
func stackFiles(env *fleettest.Env) map[string]map[string]any {
	t := env.T()
	t.Helper()
	out := map[string]map[string]any{}
	for _, r := range env.Cloud().Records("github", fileType) {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(env.Cloud().Plain(r)["content"].(string)), &obj); err != nil {
			t.Fatal(err)
		}
		if obj["apiVersion"] != "pulumi.com/v1" || obj["kind"] != "Stack" {
			t.Errorf("%s is a %v %v, not a pulumi.com/v1 Stack", r.ID, obj["apiVersion"], obj["kind"])
		}
		out[r.ID] = obj
	}
	return out
}

// kargoPromotes does to the emulated GitHub what Kargo's promotion of stage to commit does: it pushes a commit to
// the stage's own branch, which moves the branch's head (what the github provider reads on refresh). The rendered
// file is not a Pulumi resource; no file Pulumi writes is touched. It returns the branch's record.
func kargoPromotes(env *fleettest.Env, stage, commit string) emulator.Record {
	t := env.T()
	t.Helper()
	for _, r := range env.Cloud().Records("github", branchType) {
		var state map[string]any
		if err := json.Unmarshal(r.State, &state); err != nil {
			t.Fatal(err)
		}
		if state["branch"] != "stage/"+stage {
			continue
		}
		state["sha"], state["etag"] = kargoHead, "W/\""+commit+"\""
		raw, err := json.Marshal(state)
		if err != nil {
			t.Fatal(err)
		}
		r.State = raw
		if err := env.Cloud().Store().Put(r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Fatalf("no branch stage/%s in the emulated GitHub", stage)
	return emulator.Record{}
}

// typeKey is where kubeObjects puts an object's Pulumi type.
const typeKey = "__type"

// kubeObjects are the outputs of the stack's Kubernetes resources of type typ (every Kubernetes type when ""), as
// the provider read them back from the hub's API server, from the state (`stack export --show-secrets`), each
// with its type under typeKey.
func kubeObjects(l *fleettest.Stack, typ string) []map[string]any {
	_, deployment := l.Export(true)
	var out []map[string]any
	for _, r := range deployment.Resources {
		rt := string(r.Type)
		if !r.Custom || !strings.HasPrefix(rt, "kubernetes:") || strings.HasPrefix(rt, "pulumi:providers:") ||
			(typ != "" && rt != typ) {
			continue
		}
		o := maps.Clone(r.Outputs)
		o[typeKey] = rt
		out = append(out, o)
	}
	return out
}
