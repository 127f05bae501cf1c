package workflows

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

const dir = "../../examples/fleet/.github/workflows"

// parse reads and parses a workflow of the pipeline.
func parse(t *testing.T, name string) *actionlint.Workflow {
	t.Helper()
	return parseFile(t, filepath.Join(dir, name))
}

// parseFile reads and parses the workflow at path.
func parseFile(t *testing.T, path string) *actionlint.Workflow {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, errs := actionlint.Parse(data)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	return w
}

// lint runs actionlint over files and reports what it finds.
func lint(t *testing.T, files []string) {
	t.Helper()
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) > 0 {
		t.Errorf("actionlint:\n%s", out.String())
	}
}

// pulumiSteps are the pulumi/actions steps of a job, as their inputs.
func pulumiSteps(job *actionlint.Job) []map[string]string {
	var out []map[string]string
	for _, s := range job.Steps {
		a, ok := s.Exec.(*actionlint.ExecAction)
		if !ok || a.Uses == nil || len(a.Uses.Value) < len("pulumi/actions@") || a.Uses.Value[:15] != "pulumi/actions@" {
			continue
		}
		in := map[string]string{}
		for k, v := range a.Inputs {
			in[k] = v.Value.Value
		}
		out = append(out, in)
	}
	return out
}

func events(w *actionlint.Workflow) []string {
	var out []string
	for _, e := range w.On {
		out = append(out, e.EventName())
	}
	slices.Sort(out)
	return out
}

func matrixStacks(t *testing.T, job *actionlint.Job) []string {
	t.Helper()
	if job.Strategy == nil || job.Strategy.Matrix == nil || job.Strategy.Matrix.Rows["stack"] == nil {
		t.Fatal("no stack matrix")
	}
	var out []string
	for _, v := range job.Strategy.Matrix.Rows["stack"].Values {
		out = append(out, v.(*actionlint.RawYAMLString).Value)
	}
	return out
}

func TestActionlintFindsNothing(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) != 5 {
		t.Fatalf("want the five workflows (preview, deploy, drift, rollout, kubernetes-upgrade), got %v (%v)", files, err)
	}
	lint(t, files)
}

func TestActionlintCatchesABrokenWorkflow(t *testing.T) {
	var out bytes.Buffer
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	broken := []byte("on: push\njobs:\n  up:\n    runs-on: ubuntu-latest\n    needs: [missing]\n    steps:\n      - run: echo ${{ matrix.nope }}\n")
	errs, err := l.Lint("broken.yml", broken, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) == 0 {
		t.Error("actionlint accepted a job that needs a missing job: the lint proves nothing")
	}
}

func TestPreviewOnPullRequest(t *testing.T) {
	w := parse(t, "preview.yml")
	if !slices.Equal(events(w), []string{"pull_request"}) {
		t.Errorf("events %v, want pull_request", events(w))
	}
	job := w.Jobs["preview"]
	if stacks := matrixStacks(t, job); !slices.Equal(stacks, []string{"dev", "prod"}) {
		t.Errorf("stacks %v, want dev and prod", stacks)
	}
	steps := pulumiSteps(job)
	if len(steps) != 1 || steps[0]["command"] != "preview" || steps[0]["comment-on-pr"] != "true" ||
		steps[0]["work-dir"] != "examples/fleet" {
		t.Errorf("want one pulumi preview of examples/fleet commenting on the pull request, got %v", steps)
	}
}

func TestDeployDevThenApprovedProd(t *testing.T) {
	w := parse(t, "deploy.yml")
	if !slices.Equal(events(w), []string{"push"}) {
		t.Errorf("events %v, want push (merge to main)", events(w))
	}
	dev, prod := w.Jobs["dev"], w.Jobs["prod"]
	if dev == nil || prod == nil {
		t.Fatal("want jobs dev and prod")
	}
	if len(prod.Needs) != 1 || prod.Needs[0].Value != "dev" {
		t.Errorf("prod must wait for dev, needs %v", prod.Needs)
	}
	if prod.Environment == nil || prod.Environment.Name.Value != "production" {
		t.Error("prod must run in the production environment, whose reviewers approve it")
	}
	for name, job := range map[string]*actionlint.Job{"dev": dev, "prod": prod} {
		steps := pulumiSteps(job)
		if len(steps) != 1 || steps[0]["command"] != "up" || steps[0]["stack-name"] != "${{ vars.PULUMI_ORG }}/"+name {
			t.Errorf("%s: want one pulumi up of stack %s, got %v", name, name, steps)
		}
	}
}

func TestDriftCheckFailsAndReports(t *testing.T) {
	w := parse(t, "drift.yml")
	if ev := events(w); !slices.Contains(ev, "schedule") {
		t.Errorf("events %v, want a schedule", ev)
	}
	job := w.Jobs["drift"]
	if stacks := matrixStacks(t, job); !slices.Equal(stacks, []string{"dev", "prod"}) {
		t.Errorf("stacks %v, want dev and prod", stacks)
	}
	steps := pulumiSteps(job)
	if len(steps) != 1 || steps[0]["command"] != "preview" || steps[0]["refresh"] != "true" ||
		steps[0]["expect-no-changes"] != "true" {
		t.Errorf("want one pulumi preview --refresh --expect-no-changes, got %v", steps)
	}
	last := job.Steps[len(job.Steps)-1]
	if last.If == nil || last.If.Value != "failure()" {
		t.Error("the last step must report the drift when the preview fails")
	}
}

// runSteps are the run scripts of a job's steps, by step name, with each step's condition.
func runSteps(job *actionlint.Job) (scripts map[string]string, conditions map[string]string) {
	scripts, conditions = map[string]string{}, map[string]string{}
	for _, s := range job.Steps {
		r, ok := s.Exec.(*actionlint.ExecRun)
		if !ok || s.Name == nil {
			continue
		}
		scripts[s.Name.Value] = r.Run.Value
		if s.If != nil {
			conditions[s.Name.Value] = s.If.Value
		}
	}
	return scripts, conditions
}

// TestRollouts: an add-ons repository merge (its dispatch, or a person's run with the commit) and a Kubernetes upgrade
// (a person's run with the version) are rolled out over dev's waves, then over prod's once production's reviewers
// approve, never beside a deploy; what is rolled out comes from the event through the environment, and each stack
// file (its pins and record) is committed back whatever the outcome.
func TestRollouts(t *testing.T) {
	deploy := parse(t, "deploy.yml")
	for _, tc := range []struct {
		file   string
		events []string
		// env is the variable the target goes through and the event field it is read from; flag is fleet rollout's.
		env, from, flag string
	}{
		{"rollout.yml", []string{"repository_dispatch", "workflow_dispatch"}, "revision", "github.event.client_payload.revision", "-revision"},
		{"kubernetes-upgrade.yml", []string{"workflow_dispatch"}, "version", "inputs.version", "-version"},
	} {
		w := parse(t, tc.file)
		if ev := events(w); !slices.Equal(ev, tc.events) {
			t.Errorf("%s: events %v, want %v", tc.file, ev, tc.events)
		}
		if w.Concurrency == nil || deploy.Concurrency == nil || w.Concurrency.Group.Value != deploy.Concurrency.Group.Value ||
			w.Concurrency.CancelInProgress == nil || w.Concurrency.CancelInProgress.Value {
			t.Errorf("%s: a rollout must share the deploys' concurrency group, queued, not cancelling", tc.file)
		}
		if w.Permissions == nil || w.Permissions.Scopes["contents"] == nil || w.Permissions.Scopes["contents"].Value.Value != "write" {
			t.Errorf("%s: the rollout commits the stack files: contents write", tc.file)
		}
		if v := w.Env.Vars[tc.env]; v == nil || !strings.Contains(v.Value.Value, tc.from) {
			t.Errorf("%s: %s must come from %s through the environment", tc.file, strings.ToUpper(tc.env), tc.from)
		}
		dev, prod := w.Jobs["dev"], w.Jobs["prod"]
		if dev == nil || prod == nil || len(prod.Needs) != 1 || prod.Needs[0].Value != "dev" ||
			prod.Environment == nil || prod.Environment.Name.Value != "production" {
			t.Fatalf("%s: want jobs dev and prod, prod after dev in the production environment", tc.file)
		}
		for name, job := range map[string]*actionlint.Job{"dev": dev, "prod": prod} {
			scripts, conditions := runSteps(job)
			var rollout, commit string
			for step, script := range scripts {
				switch {
				case strings.HasPrefix(script, "fleet rollout "):
					rollout = script
				case strings.Contains(script, "git push"):
					commit = step
				}
			}
			want := `-stack "${{ vars.PULUMI_ORG }}/` + name + `" ` + tc.flag + ` "$` + strings.ToUpper(tc.env) + `"`
			if !strings.Contains(rollout, want) || strings.Contains(rollout, "github.event") || strings.Contains(rollout, "inputs.") {
				t.Errorf("%s %s: the rollout step %q, want fleet rollout %s (from the environment only)", tc.file, name, rollout, want)
			}
			if commit == "" || conditions[commit] != "always()" ||
				!strings.Contains(scripts[commit], "examples/fleet/Pulumi."+name+".yaml") {
				t.Errorf("%s %s: want a last step that commits examples/fleet/Pulumi.%s.yaml always, got %q (if %q)",
					tc.file, name, name, scripts[commit], conditions[commit])
			}
		}
	}
}
