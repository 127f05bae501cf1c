package e2e

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"sigs.k8s.io/yaml"
)

// TestShardsThroughGit runs the example's hub stack with Git delivery, then shard-us against it: the shard holds
// no provider of the hub and commits its spokes' cluster secrets to the hub's registry repository. Once the hub
// stack names the shard's stack (shards[0].stack), its next up admits in its admission guard exactly what the
// shard committed, and changes nothing else; every stack plans no change after each step.
func TestShardsThroughGit(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	stacks := shardStacks(t, env, "hub", "shard-us")
	setPath := func(stack, key, value string, secret bool) {
		t.Helper()
		if err := stacks[stack].SetConfigWithOptions(ctx, key, auto.ConfigValue{Value: value, Secret: secret},
			&auto.ConfigOptions{Path: true}); err != nil {
			t.Fatal(err)
		}
	}
	setPath("hub", "gitops-fleet:git.owner", "gitops-fleet", false)
	setPath("hub", "gitops-fleet:git.repository", "fleet-registry", false)
	for _, name := range []string{"hub", "shard-us"} {
		setPath(name, "github:token", "ghp_e2e0shard0token", true)
		if _, err := stacks[name].Up(ctx, optup.ProgressStreams(progress(t, env, "up-"+name))); err != nil {
			t.Fatalf("up %s: %v", name, err)
		}
	}
	settled := func(when string) { t.Helper(); settledAll(t, env, stacks, when) }
	settled("after the ups")

	for _, secret := range records(t, env, "kubernetes", "kubernetes:core/v1:Secret") {
		if strings.HasPrefix(secret.ID, "argocd/") {
			t.Errorf("cluster secret %s written into the hub: with git every registration comes from the registry", secret.ID)
		}
	}
	committed := map[string]map[string]string{}
	for _, f := range records(t, env, "github", "github:index/repositoryFile:RepositoryFile") {
		if !strings.HasPrefix(f.ID, "fleet-registry/") {
			continue // the hub's delivery of the shard stacks, in the program's repository
		}
		state, err := f.Plain()
		if err != nil {
			t.Fatal(err)
		}
		var secret struct {
			StringData map[string]string `json:"stringData"`
		}
		if err := yaml.Unmarshal([]byte(state["content"].(string)), &secret); err != nil {
			t.Fatalf("%s: %v", f.ID, err)
		}
		committed[f.ID] = secret.StringData
	}
	var paths []string
	for p := range committed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if want := []string{"fleet-registry/clusters/prod/hub.yaml", "fleet-registry/clusters/prod/spoke-us1.yaml",
		"fleet-registry/clusters/prod/spoke-us2.yaml"}; !slices.Equal(paths, want) {
		t.Fatalf("files in the registry %v, want %v", paths, want)
	}
	registered := func() string {
		t.Helper()
		for _, r := range records(t, env, "kubernetes", "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy") {
			if !strings.HasSuffix(r.ID, "gitops-fleet-cluster-secrets") {
				continue
			}
			state, err := r.Plain()
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range state["spec"].(map[string]any)["variables"].([]any) {
				if v := v.(map[string]any); v["name"] == "pinned" {
					return v["expression"].(string)
				}
			}
		}
		t.Fatal("no cluster-secret guard on the hub")
		return ""
	}
	admits := func(spoke string) bool {
		for _, v := range committed["fleet-registry/clusters/prod/"+spoke+".yaml"] {
			if !strings.Contains(registered(), base64.StdEncoding.EncodeToString([]byte(v))) {
				return false
			}
		}
		return true
	}
	if admits("spoke-us1") {
		t.Error("the hub's guard admits spoke-us1 before the hub stack read the shard")
	}

	// The hub stack names the shard's stack: its next up admits the shard's spokes, an update of its guard only.
	setPath("hub", "gitops-fleet:shards[0].stack", "organization/gitops-fleet/shard-us", false)
	p := planOf(previewSteps(t, env, *stacks["hub"], "preview-admit"))
	if len(p["update"]) != 1 || len(p["create"]) > 0 || len(p["delete"]) > 0 || len(p["replace"]) > 0 {
		t.Errorf("naming the shard's stack plans %v on the hub, want one update (its guard)", p)
	}
	if _, err := stacks["hub"].Up(ctx, optup.ProgressStreams(progress(t, env, "up-admit"))); err != nil {
		t.Fatalf("up hub: %v", err)
	}
	for _, spoke := range []string{"spoke-us1", "spoke-us2"} {
		if !admits(spoke) {
			t.Errorf("the hub's guard does not admit %s's registration as the shard committed it", spoke)
		}
	}
	settled("after the hub admitted the shard")
}
