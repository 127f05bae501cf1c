package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestTypeScriptAndPythonPreviewTheSameFleet previews the dev fleet and the delivery stack from examples/ts-fleet
// and examples/py-fleet (Node.js and Python inline programs on the generated SDKs, built by tests/sdk/check.sh)
// with the same CLI and plugins, and expects exactly the resource types and counts of the Go example's preview.
func TestTypeScriptAndPythonPreviewTheSameFleet(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	work := filepath.Join(env.Root(), ".work", "sdk-check")
	node := filepath.Join(work, "ts-fleet", "bin", "preview.js")
	python := filepath.Join(work, "venv", "bin", "python")
	for _, f := range []string{node, python} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v: build the examples first with `make sdk-check`", err)
		}
	}

	goTypes := map[string]map[string]int{"dev": goPreviewTypes(env, "dev"), "delivery": goPreviewTypes(env, "delivery")}
	runs := map[string]struct {
		dir  string
		argv []string
	}{
		"ts": {filepath.Join(env.Root(), "examples", "ts-fleet"), []string{"node", node}},
		"py": {filepath.Join(env.Root(), "examples", "py-fleet"), []string{python, filepath.Join(env.Root(), "examples", "py-fleet", "preview.py")}},
	}
	for stack, run := range runs {
		t.Run(stack+" refuses what Go refuses", func(t *testing.T) {
			project := projectCopy(env.For(t), filepath.Join(run.dir, "Pulumi.yaml"), "dev", stack+"bad")
			stackFile := filepath.Join(project, "Pulumi."+stack+"bad.yaml")
			data, err := os.ReadFile(stackFile)
			if err != nil {
				t.Fatal(err)
			}
			// spoke-usw2 gets spoke-use2's CIDR: the Fleet's overlap rule, the same error as in Go.
			bad := strings.Replace(string(data), "vpcCidr: 10.30.0.0/16", "vpcCidr: 10.20.0.0/16", 1)
			if bad == string(data) {
				t.Fatal("the dev stack file has no vpcCidr 10.30.0.0/16 to break")
			}
			if err := os.WriteFile(stackFile, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(run.argv[0], append(run.argv[1:], project, stack+"bad")...)
			cmd.Dir = run.dir
			cmd.Env = env.Environ()
			out, err := cmd.CombinedOutput()
			want := "property clusters[2].vpcCidr with value '{10.20.0.0/16}' has a problem: 10.20.0.0/16 overlaps clusters[1].vpcCidr"
			if err == nil || !strings.Contains(string(out), want) {
				t.Errorf("want the preview to fail with %q, got %v:\n%s", want, err, fleettest.Tail(string(out), 20))
			}
		})
		for _, from := range []string{"dev", "delivery"} {
			t.Run(stack+" "+from, func(t *testing.T) {
				name := stack + from
				env := env.For(t)
				project := projectCopy(env, filepath.Join(run.dir, "Pulumi.yaml"), from, name)
				if from == "delivery" {
					setSecrets(env, project, name)
				}
				cmd := exec.Command(run.argv[0], append(run.argv[1:], project, name)...)
				cmd.Dir = run.dir
				cmd.Env = env.Environ()
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(run.argv, " "), err, fleettest.Tail(stderr.String(), 40))
				}
				lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
				var got map[string]int
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
					t.Fatalf("last line of output %q: %v", lines[len(lines)-1], err)
				}
				if diff := cmp.Diff(goTypes[from], got); diff != "" {
					t.Errorf("%s preview of %s creates other resources than the Go one (-go +%s):\n%s", stack, from, stack, diff)
				}
			})
		}
	}
}

// setSecrets creates stack in project with the CLI and sets the delivery's config secrets on it, as a user does
// with `pulumi config set --secret`.
func setSecrets(env *fleettest.Env, project, stack string) {
	env.Pulumi(project, "stack", "init", stack, "--secrets-provider", "passphrase")
	for key, value := range offline.DeliverySecrets {
		env.Pulumi(project, "config", "set", "--secret", "--stack", stack, "--", key, value)
	}
}

// goTypes are the Go example's preview's creates by type, by stack file: computed once for the package (the Java and
// the TypeScript and Python tests compare theirs with them), in the first asking test's run.
var goTypes = struct {
	sync.Mutex
	byStack map[string]map[string]int
}{byStack: map[string]map[string]int{}}

// goPreviewTypes previews the Go example on the config of stack file from (dev, delivery) and counts the resources
// it would create, by type.
func goPreviewTypes(env *fleettest.Env, from string) map[string]int {
	t := env.T()
	t.Helper()
	goTypes.Lock()
	defer goTypes.Unlock()
	if types, ok := goTypes.byStack[from]; ok {
		return types
	}
	project := projectCopy(env, filepath.Join(env.FleetDir(), "Pulumi.yaml"), from, "go"+from)
	stack := env.Stack(project, "go"+from, fleetstack.Run)
	if err := offline.SetDeliverySecrets(context.Background(), stack.Auto); err != nil {
		t.Fatal(err)
	}
	types := previewCreates(stack, "preview")
	if len(types) == 0 {
		t.Fatal("the Go preview creates nothing")
	}
	goTypes.byStack[from] = types
	return types
}

// previewCreates previews stack and counts the resources it would create, by type.
func previewCreates(stack *fleettest.Stack, op string) map[string]int {
	creates := stack.Preview(op).Plan()["create"]
	if creates == nil {
		creates = map[string]int{}
	}
	return creates
}

// projectCopy is a project directory with pulumiYAML and the config of examples/fleet's stack from as
// Pulumi.<stack>.yaml.
func projectCopy(env *fleettest.Env, pulumiYAML, from, stack string) string {
	t := env.T()
	t.Helper()
	dir := t.TempDir()
	for src, dst := range map[string]string{
		pulumiYAML: "Pulumi.yaml", filepath.Join(env.FleetDir(), "Pulumi."+from+".yaml"): "Pulumi." + stack + ".yaml",
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
