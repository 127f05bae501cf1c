package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestTypeScriptAndPythonPreviewTheSameFleet previews the dev fleet and the delivery stack from examples/ts-fleet
// and examples/py-fleet (Node.js and Python inline programs on the generated SDKs, built by tests/sdk/check.sh)
// with the same CLI and plugins, and expects exactly the resource types and counts of the Go example's preview.
func TestTypeScriptAndPythonPreviewTheSameFleet(t *testing.T) {
	env := newEnv(t)
	work := filepath.Join(env.Root, ".work", "sdk-check")
	node := filepath.Join(work, "ts-fleet", "bin", "preview.js")
	python := filepath.Join(work, "venv", "bin", "python")
	for _, f := range []string{node, python} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v: build the examples first with `make sdk-check`", err)
		}
	}

	goTypes := map[string]map[string]int{"dev": previewTypes(t, env, "dev"), "delivery": previewTypes(t, env, "delivery")}
	runs := map[string]struct {
		dir  string
		argv []string
	}{
		"ts": {filepath.Join(env.Root, "examples", "ts-fleet"), []string{"node", node}},
		"py": {filepath.Join(env.Root, "examples", "py-fleet"), []string{python, filepath.Join(env.Root, "examples", "py-fleet", "preview.py")}},
	}
	for stack, run := range runs {
		t.Run(stack+" refuses what Go refuses", func(t *testing.T) {
			project := projectCopy(t, env, filepath.Join(run.dir, "Pulumi.yaml"), "dev", stack+"bad")
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
			cmd.Env = os.Environ()
			for k, v := range env.Vars {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := cmd.CombinedOutput()
			want := "property clusters[2].vpcCidr with value '{10.20.0.0/16}' has a problem: 10.20.0.0/16 overlaps clusters[1].vpcCidr"
			if err == nil || !strings.Contains(string(out), want) {
				t.Errorf("want the preview to fail with %q, got %v:\n%s", want, err, offline.Tail(string(out), 20))
			}
		})
		for _, from := range []string{"dev", "delivery"} {
			t.Run(stack+" "+from, func(t *testing.T) {
				name := stack + from
				project := projectCopy(t, env, filepath.Join(run.dir, "Pulumi.yaml"), from, name)
				if from == "delivery" {
					setSecrets(t, env, project, name)
				}
				cmd := exec.Command(run.argv[0], append(run.argv[1:], project, name)...)
				cmd.Dir = run.dir
				cmd.Env = os.Environ()
				for k, v := range env.Vars {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(run.argv, " "), err, offline.Tail(stderr.String(), 40))
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
func setSecrets(t *testing.T, env *offline.Env, project, stack string) {
	t.Helper()
	ctx := context.Background()
	if _, stderr, err := env.Run(ctx, project, "stack", "init", stack, "--secrets-provider", "passphrase"); err != nil {
		t.Fatalf("pulumi stack init: %v\n%s", err, stderr)
	}
	for key, value := range offline.DeliverySecrets {
		if _, stderr, err := env.Run(ctx, project, "config", "set", "--secret", "--stack", stack, "--", key, value); err != nil {
			t.Fatalf("pulumi config set --secret %s: %v\n%s", key, err, stderr)
		}
	}
}

// previewTypes previews the Go example on the config of stack file from (dev, delivery) and counts the resources
// it would create, by type.
func previewTypes(t *testing.T, env *offline.Env, from string) map[string]int {
	t.Helper()
	project := projectCopy(t, env, filepath.Join(fleetDir(env), "Pulumi.yaml"), from, "go"+from)
	stack, err := env.Stack(context.Background(), project, "go"+from, fleetstack.Run)
	if err != nil {
		t.Fatal(err)
	}
	if err := offline.SetDeliverySecrets(context.Background(), stack); err != nil {
		t.Fatal(err)
	}
	types := previewCreates(t, env, stack, "preview")
	if len(types) == 0 {
		t.Fatal("the Go preview creates nothing")
	}
	return types
}

// previewCreates previews stack and counts the resources it would create, by type.
func previewCreates(t *testing.T, env *offline.Env, stack auto.Stack, op string, opts ...optpreview.Option) map[string]int {
	t.Helper()
	creates := planOf(previewSteps(t, env, stack, op, opts...))["create"]
	if creates == nil {
		creates = map[string]int{}
	}
	return creates
}

// projectCopy is a project directory with pulumiYAML and the config of examples/fleet's stack from as
// Pulumi.<stack>.yaml.
func projectCopy(t *testing.T, env *offline.Env, pulumiYAML, from, stack string) string {
	t.Helper()
	dir := t.TempDir()
	for src, dst := range map[string]string{
		pulumiYAML: "Pulumi.yaml", filepath.Join(fleetDir(env), "Pulumi."+from+".yaml"): "Pulumi." + stack + ".yaml",
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
