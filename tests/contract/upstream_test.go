package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/xeipuuv/gojsonschema"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/gitops-fleet/pulumi-fleet/tests/upstream"
)

// upstreamDir holds the CRDs and schemas of the versions the product pins (tests/upstream: a local copy, or a cache
// filled from each file's source and checked against its SHA-256).
func upstreamDir(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := upstream.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// crdFiles are the upstream CRDs of the objects the product writes, as the product pins them.
var crdFiles = []string{
	"pko-v2.9.0/pulumi.com_stacks.yaml",
	"argo-cd-chart-10.1.1/crd-application.yaml", "argo-cd-chart-10.1.1/crd-appproject.yaml",
	"argo-cd-chart-10.1.1/crd-applicationset.yaml",
	"kargo-v1.11.2/crds/kargo.akuity.io_projects.yaml", "kargo-v1.11.2/crds/kargo.akuity.io_projectconfigs.yaml",
	"kargo-v1.11.2/crds/kargo.akuity.io_warehouses.yaml", "kargo-v1.11.2/crds/kargo.akuity.io_stages.yaml",
	"argo-rollouts-v1.9.1/analysis-template-crd.yaml",
}

// helmLine is a line of a Helm template (the Argo CD chart's CRDs are templates): dropped before parsing.
var helmLine = regexp.MustCompile(`(?m)^.*\{\{.*\}\}.*$\n?`)

// kargoExpression is a Kargo expression, ${{ ... }}, in a step's config.
var kargoExpression = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// readCRDs reads crdFiles from dir, in their order.
func readCRDs(t *testing.T, dir string) []apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	out := make([]apiextensionsv1.CustomResourceDefinition, len(crdFiles))
	for i, f := range crdFiles {
		raw, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(helmLine.ReplaceAll(raw, nil), &out[i]); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return out
}

// loadCRDs reads the upstream CRDs by "<group>/<version>/<kind>" to the internal validation of that version.
func loadCRDs(t *testing.T, dir string) map[string]*apiextensions.JSONSchemaProps {
	t.Helper()
	out := map[string]*apiextensions.JSONSchemaProps{}
	for _, crd := range readCRDs(t, dir) {
		for _, v := range crd.Spec.Versions {
			var internal apiextensions.CustomResourceValidation
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(
				v.Schema, &internal, nil); err != nil {
				t.Fatal(err)
			}
			out[crd.Spec.Group+"/"+v.Name+"/"+crd.Spec.Names.Kind] = internal.OpenAPIV3Schema
		}
	}
	return out
}

// validateCR checks obj as the API server checks a custom resource on create: against its CRD's schema
// (types, formats, enums, required fields), with no field the schema does not know (what the API server
// would prune, an error here), and the CRD's CEL rules. It returns every problem.
func validateCR(t *testing.T, schemas map[string]*apiextensions.JSONSchemaProps, obj map[string]any) []string {
	t.Helper()
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	props := schemas[group+"/"+version+"/"+kind]
	if props == nil {
		return []string{fmt.Sprintf("no upstream CRD for %s %s", apiVersion, kind)}
	}
	structural, err := structuralschema.NewStructural(props)
	if err != nil {
		t.Fatalf("%s %s: %v", apiVersion, kind, err)
	}
	var problems []string
	pruned := structuralpruning.PruneWithOptions(deepCopy(t, obj), structural, true,
		structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	for _, p := range pruned {
		problems = append(problems, "unknown field "+p)
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range apiservervalidation.ValidateCustomResource(nil, obj, validator) {
		problems = append(problems, e.Error())
	}
	errs, _ := cel.NewValidator(structural, true, celconfig.PerCallLimit).Validate(context.Background(), nil,
		structural, obj, nil, celconfig.RuntimeCELCostBudget)
	for _, e := range errs {
		problems = append(problems, e.Error())
	}
	return problems
}

// validateStep checks a promotion step's config as Kargo v1.11.2 does (gojsonschema, its library) against the
// step's schema: with its expressions evaluated to values of the types the schema asks for.
func validateStep(t *testing.T, dir string, step map[string]any) []string {
	t.Helper()
	uses, _ := step["uses"].(string)
	path := filepath.Join(dir, "kargo-v1.11.2", "schemas", uses+"-config.json")
	if _, err := os.Stat(path); err != nil {
		return []string{fmt.Sprintf("step %q has no schema in Kargo v1.11.2", uses)}
	}
	abs, _ := filepath.Abs(path)
	config := evaluated(step["config"])
	res, err := gojsonschema.Validate(gojsonschema.NewReferenceLoader("file://"+abs), gojsonschema.NewGoLoader(config))
	if err != nil {
		t.Fatalf("%s: %v", uses, err)
	}
	var problems []string
	for _, e := range res.Errors() {
		problems = append(problems, fmt.Sprintf("%s: %s", uses, e))
	}
	return problems
}

// evaluated is a step's config with each "${{ ... }}" expression replaced by what Kargo would evaluate it to:
// a PR number (an integer) for prNumber, a 40-hex-digit commit or a branch name otherwise.
func evaluated(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if s, ok := x.(string); ok && k == "prNumber" && strings.HasPrefix(s, "${{") {
				out[k] = 42
				continue
			}
			out[k] = evaluated(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = evaluated(x)
		}
		return out
	case string:
		if strings.Contains(v, "${{") {
			return kargoExpression.ReplaceAllString(v, strings.Repeat("a", 40))
		}
		return v
	default:
		return v
	}
}

// deepCopy is obj (a map, or a typed Kubernetes object) as JSON's map: what the API server hands to admission.
func deepCopy(t *testing.T, obj any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// deliveryObjects are the custom resources a StackDelivery registers on the hub (each as registered) and the
// Stacks it commits to GitHub (each as committed), by a name for the report.
func deliveryObjects(t *testing.T, a delivery.StackDeliveryArgs) map[string]map[string]any {
	t.Helper()
	return objectsOf(t, func(ctx *pulumi.Context) error {
		_, err := delivery.NewStackDelivery(ctx, "fleet", a)
		return err
	})
}

// objectsOf runs program under mocks and returns the custom resources it registers and the YAML it commits.
func objectsOf(t *testing.T, program pulumi.RunFunc) map[string]map[string]any {
	t.Helper()
	t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_contract"}`)
	cloud := mocks.New()
	if err := cloud.Run(program); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, r := range cloud.Resources() {
		switch {
		case r.Type == "github:index/repositoryFile:RepositoryFile":
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(r.Input("content").(string)), &obj); err != nil {
				t.Fatal(err)
			}
			if obj["kind"] != "Secret" { // a cluster secret: core, no CRD
				out["file "+r.Input("file").(string)] = obj
			}
		case strings.HasPrefix(r.Type, "kubernetes:") && strings.Contains(r.Type, ".") &&
			!strings.Contains(r.Type, "k8s.io/") && !strings.HasPrefix(r.Type, "kubernetes:helm.sh/"):
			obj := map[string]any{}
			for _, k := range []string{"apiVersion", "kind", "metadata", "spec"} {
				if v := r.Input(k); v != nil {
					obj[k] = v
				}
			}
			out[r.Type+" "+r.Name] = obj
		}
	}
	return out
}

// TestDeliveryObjectsMatchUpstream: every custom resource StackDelivery writes (on the hub and in Git) passes the
// upstream CRD of the version the product pins, as the API server checks it (no unknown or missing field, CEL
// rules), and every promotion step's config passes Kargo's schema for the step.
func TestDeliveryObjectsMatchUpstream(t *testing.T) {
	dir := upstreamDir(t)
	schemas := loadCRDs(t, dir)
	a := deliveryArgs()
	a.Kubeconfig = pulumi.String(`{"apiVersion":"v1","kind":"Config"}`)
	a.PulumiAccessToken = pulumi.String("pul-contract")
	a.PreviewAccessToken = pulumi.String("pul-contract-read-only") // prod has a preview Stack
	a.Manifests.PullRequest = true
	a.Stages[1].Approvers = &delivery.Approvers{Groups: []string{"platform"}}
	a.Kargo = &delivery.KargoInstall{AdminPasswordHash: pulumi.String("$2a$10$contract"),
		TokenSigningKey: pulumi.String("signing"), CertManager: delivery.CertManagerInstall,
		GitToken: pulumi.String("ghp_kargo"), Oidc: &delivery.KargoOidc{IssuerUrl: "https://idp.acme.dev", ClientId: "kargo"}}
	objects := deliveryObjects(t, a)
	// And a graph: two first stages, two approval gates after both, qa after both gates (All).
	g := a
	g.Project = "graph"
	g.Stages = []delivery.DeliveryStage{
		{Name: "devpreview", Kind: delivery.KindPreview, Target: "dev",
			Verification: &delivery.Verification{Provider: delivery.VerifyPulumiCloud}},
		{Name: "dev", Stack: "acme/fleet/dev", Commit: strings.Repeat("a", 40), From: []string{"devpreview"},
			Verification: &delivery.Verification{Provider: delivery.VerifyStackStatus}},
		{Name: "dev2", Stack: "acme/fleet/dev2", Commit: strings.Repeat("a", 40), Direct: true},
		{Name: "gate-qa", Kind: delivery.KindGate, From: []string{"dev", "dev2"},
			Approvers: &delivery.Approvers{Groups: []string{"qa"}}},
		{Name: "gate-sec", Kind: delivery.KindGate, From: []string{"dev", "dev2"}},
		{Name: "qa", Stack: "acme/fleet/qa", Commit: strings.Repeat("a", 40), From: []string{"gate-qa", "gate-sec"},
			AvailabilityStrategy: "All"},
	}
	for name, obj := range deliveryObjects(t, g) {
		objects["graph "+name] = obj
	}
	kinds := map[string]int{}
	for name, obj := range objects {
		kinds[fmt.Sprint(obj["kind"])]++
		for _, p := range validateCR(t, schemas, obj) {
			t.Errorf("%s: %s", name, p)
		}
		spec, _ := obj["spec"].(map[string]any)
		template, _ := spec["promotionTemplate"].(map[string]any)
		if obj["kind"] != "Stage" || template == nil { // a gate has no promotion
			continue
		}
		steps := template["spec"].(map[string]any)["steps"].([]any)
		for _, s := range steps {
			for _, p := range validateStep(t, dir, s.(map[string]any)) {
				t.Errorf("%s: %s", name, p)
			}
		}
	}
	for _, k := range []string{"Stack", "Application", "AppProject", "Project", "ProjectConfig", "Warehouse", "Stage",
		"AnalysisTemplate"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the objects checked (%v)", k, kinds)
		}
	}
	// The checks themselves refuse what the API server and Kargo would refuse.
	stack := objects["file deploy/stacks/prod/stack.yaml"]
	evil := deepCopy(t, stack)
	evil["spec"].(map[string]any)["comit"] = "typo"
	delete(evil["spec"].(map[string]any), "stack")
	if p := validateCR(t, schemas, evil); !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, "comit") }) ||
		!slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, "stack") && strings.Contains(s, "Required") }) {
		t.Errorf("a Stack with an unknown field and no stack passes: %v", p)
	}
	if p := validateStep(t, dir, map[string]any{"uses": "git-clone", "config": map[string]any{"repoURL": "x"}}); len(p) == 0 {
		t.Error("a git-clone step without checkout passes Kargo's schema")
	}
}

// TestBridgeObjectsMatchUpstream: every Argo CD object a hub's GitOpsBridge writes with Git delivery and both
// repositories (its projects, registry Applications and bootstrap ApplicationSets) passes chart 10.1.1's CRDs as
// the API server checks them (an AppProject's description is 255 bytes at most).
func TestBridgeObjectsMatchUpstream(t *testing.T) {
	schemas := loadCRDs(t, upstreamDir(t))
	objects := objectsOf(t, func(ctx *pulumi.Context) error {
		_, err := gitopsbridge.NewGitOpsBridge(ctx, "hub", gitopsbridge.GitOpsBridgeArgs{
			Cluster: clusterinfo.ClusterInfoArgs{
				ClusterName: pulumi.String("hub"), Environment: pulumi.String("prod"),
				Server: pulumi.String(spokeServer), CertificateAuthorityData: pulumi.String("Q0E="),
				Region: pulumi.String("us-east-1"), AccountId: pulumi.String("111122223333"),
				KubernetesVersion: pulumi.String("1.33"), Kubeconfig: pulumi.String(`{"apiVersion":"v1","kind":"Config"}`),
			},
			AddonsRepo: &gitopsbridge.Repo{URL: "https://github.com/acme/addons", Path: "bootstrap/control-plane/addons",
				Revision: strings.Repeat("e", 40)},
			// A long URL and tenants' namespaces: the projects' descriptions stay within the CRD's 255 bytes.
			WorkloadsRepo: &gitopsbridge.Repo{URL: "https://github.com/acme-platform-engineering/" + strings.Repeat("fleet-", 20) + "workloads",
				Path: "bootstrap/workloads", Revision: strings.Repeat("f", 40)},
			Hub: &gitopsbridge.Hub{FleetClusters: []string{"spoke-a"}, SignatureKeys: []string{"0123456789ABCDEF"},
				ReservedNamespaces: []string{"payments", "payments-batch", "checkout", "checkout-batch", "search"}},
			Git: &gitopsbridge.GitDelivery{Owner: "acme", Repository: "registry"},
		})
		return err
	})
	kinds := map[string]int{}
	for name, obj := range objects {
		kinds[fmt.Sprint(obj["kind"])]++
		for _, p := range validateCR(t, schemas, obj) {
			t.Errorf("%s: %s", name, p)
		}
	}
	for _, k := range []string{"AppProject", "Application", "ApplicationSet"} {
		if kinds[k] == 0 {
			t.Errorf("no %s among the objects checked (%v)", k, kinds)
		}
	}
}

// TestStackGuardKnowsEveryStackField: the Stack guard pins field by field (deny by default), so its lists of the
// Stack's and the Workspace template's spec fields are exactly those of PKO's Stack CRD at the pinned version: a
// field the lists missed would be left to any manifests commit.
func TestStackGuardKnowsEveryStackField(t *testing.T) {
	schemas := loadCRDs(t, upstreamDir(t))
	stack, ok := schemas["pulumi.com/v1/Stack"]
	if !ok {
		t.Fatal("no pulumi.com/v1 Stack CRD upstream")
	}
	spec := stack.Properties["spec"]
	if got, want := slices.Sorted(maps.Keys(spec.Properties)), slices.Sorted(slices.Values(delivery.StackSpecFields)); !slices.Equal(got, want) {
		t.Errorf("the Stack CRD's spec fields %v, the guard's %v", got, want)
	}
	workspace := spec.Properties["workspaceTemplate"].Properties["spec"]
	if got, want := slices.Sorted(maps.Keys(workspace.Properties)), slices.Sorted(slices.Values(delivery.WorkspaceSpecFields)); !slices.Equal(got, want) {
		t.Errorf("the workspace template's spec fields %v, the guard's %v", got, want)
	}
}
