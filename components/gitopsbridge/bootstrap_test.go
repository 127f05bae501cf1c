package gitopsbridge

import (
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

const (
	appSetType = "kubernetes:argoproj.io/v1alpha1:ApplicationSet"
	appType    = "kubernetes:argoproj.io/v1alpha1:Application"
)

func TestBootstrapApplicationSets(t *testing.T) {
	args := hubArgs()
	args.AddonsRepo = &Repo{URL: "https://github.com/acme/addons", BasePath: "argocd/", Path: "bootstrap/addons"}
	args.WorkloadsRepo = &Repo{URL: "https://github.com/acme/apps", Path: "bootstrap/workloads", Revision: "main"}
	cloud, _ := build(t, "hub", args)
	release := mocks.URN(TypeToken, releaseType, "hub-argocd")
	for prefix, part := range map[string]string{"addons": "addons", "workload": "workloads"} {
		r := cloud.MustGet(t, appSetType, "hub-bootstrap-"+part)
		if !slices.Contains(r.Dependencies, release) {
			t.Errorf("%s is created before Argo CD's CRDs", r.Name)
		}
		spec := r.Input("spec").(map[string]any)
		generators := []any{map[string]any{"clusters": map[string]any{"selector": map[string]any{
			"matchLabels": map[string]any{SecretTypeLabel: "cluster", "cluster_name": "hub"}}}}}
		if diff := cmp.Diff(generators, spec["generators"]); diff != "" {
			t.Errorf("%s: the generator selects the hub's own secret (-want +got):\n%s", r.Name, diff)
		}
		source := spec["template"].(map[string]any)["spec"].(map[string]any)["source"].(map[string]any)
		wantSource := map[string]any{
			"repoURL":        "{{.metadata.annotations." + prefix + "_repo_url}}",
			"targetRevision": "{{.metadata.annotations." + prefix + "_repo_revision}}",
			"path":           "{{.metadata.annotations." + prefix + "_repo_basepath}}{{.metadata.annotations." + prefix + "_repo_path}}",
			"directory":      map[string]any{"recurse": true},
		}
		if diff := cmp.Diff(wantSource, source); diff != "" {
			t.Errorf("%s: the source comes from the secret's %s_repo_* annotations (-want +got):\n%s", r.Name, prefix, diff)
		}
		if spec["goTemplate"] != true {
			t.Errorf("%s: the template uses Go templates ({{.metadata...}})", r.Name)
		}
		md := r.Input("metadata").(map[string]any)
		if md["namespace"] != "argocd" || md["name"] != "bootstrap-"+part {
			t.Errorf("%s metadata = %v", r.Name, md)
		}
	}
}

func TestBootstrapObjects(t *testing.T) {
	args := hubArgs()
	args.Hub.Bootstrap = []map[string]any{{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
		"metadata": map[string]any{"name": "platform", "labels": map[string]any{"team": "platform"}},
		"spec":     map[string]any{"project": "platform"},
	}}
	cloud, _ := build(t, "hub", args)
	r := cloud.MustGet(t, appType, "hub-Application-platform")
	want := map[string]any{
		"metadata": map[string]any{"name": "platform", "namespace": "argocd", "labels": map[string]any{"team": "platform"}},
		"spec":     map[string]any{"project": "platform"},
	}
	got := map[string]any{"metadata": r.Input("metadata"), "spec": r.Input("spec")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a raw object is created as given, in Argo CD's namespace by default (-want +got):\n%s", diff)
	}
	if len(cloud.OfType(appSetType)) != 0 {
		t.Error("no repository was given, yet a bootstrap ApplicationSet was created")
	}
}
