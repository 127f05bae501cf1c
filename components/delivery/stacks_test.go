package delivery

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// shardStages is threeStages with prod deploying the two shard stacks of a fleet beyond one stack, verified by
// their Stacks' status.
func shardStages() StackDeliveryArgs {
	a := threeStages()
	prod := &a.Stages[2]
	prod.Stack, prod.Preview = "", false
	prod.Config = map[string]string{"aws:region": "us-east-1", "gitops-fleet:cidrPrefixLength": "16"}
	prod.Stacks = []StageStack{
		{Name: "us", Stack: "acme/fleet/shard-us"},
		{Name: "eu", Stack: "acme/fleet/shard-eu", Config: map[string]string{"aws:region": "eu-west-1"}},
	}
	prod.Verification = &Verification{Provider: VerifyStackStatus}
	return a
}

// TestStageWithStacks: a stage with stacks delivers a Stack object per stack in its folder, which one promotion
// moves to the Freight's commit together, and which one AnalysisTemplate of its own verifies, a metric per Stack.
func TestStageWithStacks(t *testing.T) {
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
	a := shardStages()
	cloud, d, err := run("fleet", a)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]map[string]any{}
	for _, f := range cloud.OfType("github:index/repositoryFile:RepositoryFile") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(f.Input("content").(string)), &obj); err != nil {
			t.Fatal(err)
		}
		files[f.Input("file").(string)] = obj
	}
	if _, ok := files["deploy/stacks/prod/stack.yaml"]; ok {
		t.Error("prod has a stack.yaml besides its stacks")
	}
	for name, want := range map[string]struct{ stack, object, region string }{
		"us": {"acme/fleet/shard-us", "fleet-prod-us", "us-east-1"},
		"eu": {"acme/fleet/shard-eu", "fleet-prod-eu", "eu-west-1"},
	} {
		obj, ok := files["deploy/stacks/prod/stack-"+name+".yaml"]
		if !ok {
			t.Fatalf("no file for prod's stack %s among %v", name, slices.Collect(maps.Keys(files)))
		}
		spec := obj["spec"].(map[string]any)
		md := obj["metadata"].(map[string]any)
		config := spec["config"].(map[string]any)
		if spec["stack"] != want.stack || md["name"] != want.object || md["namespace"] != "fleet-stacks-prod" ||
			spec["serviceAccountName"] != "fleet-prod" || config["aws:region"] != want.region ||
			config["gitops-fleet:cidrPrefixLength"] != "16" || spec["commit"] != commitA {
			t.Errorf("prod's %s Stack: %v", name, obj)
		}
	}

	stage := cloud.MustGet(t, "kubernetes:kargo.akuity.io/v1alpha1:Stage", "fleet-prod-stage")
	spec := stage.Input("spec").(map[string]any)
	var updated []string
	for _, st := range spec["promotionTemplate"].(map[string]any)["spec"].(map[string]any)["steps"].([]any) {
		if st := st.(map[string]any); st["uses"] == "yaml-update" {
			updated = append(updated, st["as"].(string)+" "+st["config"].(map[string]any)["path"].(string))
		}
	}
	if want := []string{"update-us ./out/deploy/stacks/prod/stack-us.yaml", "update-eu ./out/deploy/stacks/prod/stack-eu.yaml"}; !slices.Equal(updated, want) {
		t.Errorf("prod's promotion updates %v, want %v", updated, want)
	}
	v := spec["verification"].(map[string]any)
	if got := v["analysisTemplates"].([]any)[0].(map[string]any)["name"]; got != StackStatusTemplate+"-prod" {
		t.Errorf("prod is verified by %v, want its own template", got)
	}
	tmpl := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AnalysisTemplate", "fleet-prod-stage-analysis")
	var waits []string
	for _, m := range tmpl.Input("spec").(map[string]any)["metrics"].([]any) {
		m := m.(map[string]any)
		c := m["provider"].(map[string]any)["job"].(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0]
		args := c.(map[string]any)["args"].([]any)
		waits = append(waits, m["name"].(string)+" "+args[1].(string)+" "+args[2].(string))
	}
	if want := []string{"last-successful-commit-us stacks.pulumi.com/fleet-prod-us --namespace=fleet-stacks-prod",
		"last-successful-commit-eu stacks.pulumi.com/fleet-prod-eu --namespace=fleet-stacks-prod"}; !slices.Equal(waits, want) {
		t.Errorf("prod's template waits for %v, want %v", waits, want)
	}
	if got := mocks.Await[map[string][]string](t, d.StageStacks); !cmp.Equal(got, map[string][]string{
		"dev": {"fleet-dev"}, "qa": {"fleet-qa"}, "prod": {"fleet-prod-us", "fleet-prod-eu"}}) {
		t.Errorf("stageStacks %v", got)
	}
	guard := StackGuard(WithDefaults(a, "fleet"))
	if expr := guard.Variables[2].Expression; !strings.Contains(expr, `"fleet-stacks-prod": ["acme/fleet/shard-us", "acme/fleet/shard-eu"]`) {
		t.Errorf("the Stack guard's stages: %s", expr)
	}
}

// TestStageWithStacksProblems: what a stage's stacks may not be.
func TestStageWithStacksProblems(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(a *StackDeliveryArgs)
		want []string
	}{
		"one stack, and stack besides": {func(a *StackDeliveryArgs) {
			a.Stages[2].Stacks = a.Stages[2].Stacks[:1]
			a.Stages[2].Stack = "acme/fleet/prod"
		}, []string{"stages[2].stacks: has one stack; give it as stack", "stages[2].stack: is set besides stacks"}},
		"names": {func(a *StackDeliveryArgs) {
			a.Stages[2].Stacks = append(a.Stages[2].Stacks, StageStack{Name: "us", Stack: "acme/fleet/x"},
				StageStack{Name: "US", Stack: "a b"})
		}, []string{`stages[2].stacks[2].name: "us" is also the name of stacks[0]`,
			`stages[2].stacks[3].name: "US" is not a DNS-1123 label`, `stages[2].stacks[3].stack: "a b" is not a Pulumi stack`}},
		"a Stack name too long": {func(a *StackDeliveryArgs) {
			a.Stages[2].Stacks[0].Name = "a-very-long-shard-name-of-the-us-region"
		}, []string{`stages[2].stackName: "fleet-prod-a-very-long-shard-name-of-the-us-region" has 50 characters`}},
		"preview": {func(a *StackDeliveryArgs) { a.Stages[2].Preview = true },
			[]string{"stages[2].preview: is true, but a stage with stacks has no preview Stack"}},
		"a preview stage of it": {func(a *StackDeliveryArgs) {
			a.Stages = append(a.Stages, DeliveryStage{Name: "prodpreview", Kind: KindPreview, Target: "prod", From: []string{"qa"}})
		}, []string{`stages[3].target: "prod" deploys several stacks`}},
		"a gate with stacks": {func(a *StackDeliveryArgs) {
			a.Stages[1] = DeliveryStage{Name: "qa", Kind: KindGate, Stacks: a.Stages[2].Stacks}
		}, []string{"stages[1].stacks: is set, but a gate deploys nothing"}},
		"pulumiCloud of a self-managed stack": {func(a *StackDeliveryArgs) {
			a.Stages[2].Verification = &Verification{Provider: VerifyPulumiCloud}
			a.Stages[2].Stacks[1].Stack = "shard-eu"
		}, []string{`stages[2].verification.provider: pulumiCloud reads the stack by <org>/<project>/<stack>; stack "shard-eu" is not one`}},
	} {
		t.Run(name, func(t *testing.T) {
			a := shardStages()
			tc.edit(&a)
			err := Validate(WithDefaults(a, "fleet"), false)
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Validate: %v\nwant %q", err, w)
				}
			}
		})
	}
}
