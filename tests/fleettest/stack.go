package fleettest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// Stack is a Pulumi stack of the run: an inline program whose project and stack file are copied into the run from a
// project folder (the repository's files are never written to), or a project run by its own language host (Local).
type Stack struct {
	env     *Env
	dir     string // the project folder: Pulumi.yaml and Pulumi.<name>.yaml
	name    string
	program pulumi.RunFunc
	cfg     *Config        // the stack file's config, when the test writes it (Configured)
	every   bool           // Checkpoints
	kept    map[string]any // the run's stack file but the test's config: salt and secrets (sync)
	settle  *settle        // a settled check left to the next operation (SettledByNext)
	// Auto is the Automation API's stack, for what Stack does not say.
	Auto auto.Stack
}

// Stack is stack name of the inline program program, the project folder dir holding its Pulumi.yaml and the stack
// file Pulumi.<name>.yaml (none: a stack without config), both copied into the run now.
func (e *Env) Stack(dir, name string, program pulumi.RunFunc) *Stack {
	e.t.Helper()
	s := &Stack{env: e, dir: dir, name: name, program: program, settle: &settle{root: e.t}}
	s.open()
	return s
}

// Fleet is stack name of the fleet example (examples/fleet, the Go program of fleetstack), with the delivery's
// secrets set where its config delivers stacks.
func (e *Env) Fleet(name string) *Stack {
	e.t.Helper()
	s := e.Stack(e.FleetDir(), name, fleetstack.Run)
	if err := offline.SetDeliverySecrets(context.Background(), s.Auto); err != nil {
		e.t.Fatal(err)
	}
	return s
}

// Local is stack name of the project in dir run by its own language host (Java's, through Maven), as `pulumi up`
// in that folder does.
func (e *Env) Local(dir, name string) *Stack {
	e.t.Helper()
	st, err := e.run.off.LocalStack(context.Background(), dir, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return &Stack{env: e, dir: dir, name: name, Auto: st, settle: &settle{root: e.t}}
}

// For is the stack reporting to t: a subtest's. It shares the stack's config (Configured).
func (s *Stack) For(t testing.TB) *Stack {
	c := *s
	c.env = s.env.For(t)
	return &c
}

// Name is the stack's name.
func (s *Stack) Name() string { return s.name }

// WorkDir is the stack's project folder in the run.
func (s *Stack) WorkDir() string { return s.Auto.Workspace().WorkDir() }

// sync applies the config of a Configured stack. The first time, it writes the stack file into the project folder,
// copies the project into the run, selects the stack and sets the delivery's secrets (`pulumi config set --secret`);
// later, it rewrites the run's stack file itself, the config as it is now with the secrets and the encryption salt
// the run's file has: no CLI call, as a user editing Pulumi.<stack>.yaml makes none. Other stacks were copied once
// (Stack), and keep what SetConfig sets.
func (s *Stack) sync() {
	t := s.env.t
	t.Helper()
	if s.cfg == nil {
		return
	}
	if s.kept == nil {
		if err := writeConfig(s.dir, s.name, *s.cfg); err != nil {
			t.Fatal(err)
		}
		s.open()
		if err := offline.SetDeliverySecrets(context.Background(), s.Auto); err != nil {
			t.Fatal(err)
		}
		kept, err := secretsOf(s.stackFile())
		if err != nil {
			t.Fatal(err)
		}
		s.kept = kept
		return
	}
	doc := map[string]any{}
	maps.Copy(doc, s.kept)
	config := map[string]any(maps.Clone(*s.cfg))
	if secure, ok := s.kept["config"].(map[string]any); ok {
		maps.Copy(config, secure)
	}
	doc["config"] = config
	data, err := yaml.Marshal(doc)
	if err == nil {
		err = os.WriteFile(s.stackFile(), data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// stackFile is the stack's file in the run, Pulumi.<name>.yaml of its project there.
func (s *Stack) stackFile() string { return filepath.Join(s.WorkDir(), "Pulumi."+s.name+".yaml") }

// secretsOf is what of the stack file path the test's config does not give: its encryption salt, and its secrets
// (config values `secure: ...`) under "config".
func secretsOf(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file map[string]any
	if err := yaml.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	kept := map[string]any{}
	for k, v := range file {
		if k != "config" {
			kept[k] = v
		}
	}
	secure := map[string]any{}
	config, _ := file["config"].(map[string]any)
	for k, v := range config {
		if m, ok := v.(map[string]any); ok && m["secure"] != nil {
			secure[k] = v
		}
	}
	kept["config"] = secure
	return kept, nil
}

// open copies the project folder's Pulumi.yaml and stack file into the run and selects the stack.
func (s *Stack) open() {
	st, err := s.env.run.off.Stack(context.Background(), s.dir, s.name, s.program)
	if err != nil {
		s.env.t.Fatal(err)
	}
	s.Auto = st
	s.Checkpoints(s.every)
}

// Checkpoints has the engine save the stack's state after every step of its operations, as a user's `pulumi up`
// does (on), or only at the end of each (off, the harness's default: see skipCheckpoints).
func (s *Stack) Checkpoints(on bool) {
	s.every = on
	if on {
		s.Auto.Workspace().UnsetEnvVar(skipCheckpoints)
	} else {
		s.Auto.Workspace().SetEnvVar(skipCheckpoints, "true")
	}
}

// Up runs `pulumi up` of the stack as it is now (its output logged as op) and returns its steps in the order the
// engine reported them and the stack's outputs; a failure fails the test.
func (s *Stack) Up(op string) Run {
	t := s.env.t
	t.Helper()
	s.unsettled("Up")
	s.sync()
	var res auto.UpResult
	steps, err := withSteps(func(ch chan<- events.EngineEvent) (err error) {
		res, err = s.Auto.Up(context.Background(), optup.EventStreams(ch), optup.ProgressStreams(s.env.progress(op)))
		return err
	})
	if err != nil {
		t.Fatalf("%s of stack %s: %v", op, s.name, err)
	}
	return Run{Steps: steps, Outputs: res.Outputs, Changes: changes(res.Summary.ResourceChanges)}
}

// TryUp runs `pulumi up` as Up does and returns the engine's output (where a failed step says why) and the error,
// the caller's to judge.
func (s *Stack) TryUp(op string, opts ...optup.Option) (string, error) {
	s.env.t.Helper()
	s.unsettled("TryUp")
	s.sync()
	out := s.env.progress(op)
	_, err := s.Auto.Up(context.Background(), append(opts, optup.ProgressStreams(out))...)
	return logOf(s.env, out), err
}

// Preview runs `pulumi preview` of the stack as it is now and returns its steps; a failure fails the test. Plan
// previews and checks the exact plan.
func (s *Stack) Preview(op string, opts ...optpreview.Option) Steps {
	s.env.t.Helper()
	s.unsettled("Preview")
	return s.preview(op, opts...)
}

// preview is Preview.
func (s *Stack) preview(op string, opts ...optpreview.Option) Steps {
	t := s.env.t
	t.Helper()
	s.sync()
	steps, err := withSteps(func(ch chan<- events.EngineEvent) error {
		_, err := s.Auto.Preview(context.Background(), append(opts, optpreview.EventStreams(ch),
			optpreview.ProgressStreams(s.env.progress(op)))...)
		return err
	})
	if err != nil {
		t.Fatalf("%s of stack %s: %v", op, s.name, err)
	}
	return steps
}

// TryPreview runs `pulumi preview` and returns its error, the caller's to judge.
func (s *Stack) TryPreview(op string, opts ...optpreview.Option) error {
	s.env.t.Helper()
	s.unsettled("TryPreview")
	s.sync()
	_, err := s.Auto.Preview(context.Background(), append(opts, optpreview.ProgressStreams(s.env.progress(op)))...)
	return err
}

// Refresh runs `pulumi refresh` and returns its changes by operation (same, delete, update...).
func (s *Stack) Refresh(op string) map[string]int {
	t := s.env.t
	t.Helper()
	s.unsettled("Refresh")
	s.sync()
	res, err := s.Auto.Refresh(context.Background(), optrefresh.ProgressStreams(s.env.progress(op)))
	if err != nil {
		t.Fatalf("%s of stack %s: %v", op, s.name, err)
	}
	return changes(res.Summary.ResourceChanges)
}

// Destroy runs `pulumi destroy` and returns its steps; a failure fails the test.
func (s *Stack) Destroy(op string) Steps {
	t := s.env.t
	t.Helper()
	steps, err := s.TryDestroy(op)
	if err != nil {
		t.Fatalf("%s of stack %s: %v", op, s.name, err)
	}
	return steps
}

// TryDestroy runs `pulumi destroy` and returns its steps and error, the caller's to judge.
func (s *Stack) TryDestroy(op string) (Steps, error) {
	s.env.t.Helper()
	s.unsettled("Destroy")
	s.sync()
	return withSteps(func(ch chan<- events.EngineEvent) error {
		_, err := s.Auto.Destroy(context.Background(), optdestroy.EventStreams(ch), optdestroy.ProgressStreams(s.env.progress(op)))
		return err
	})
}

// SetConfig sets config values by path (`pulumi config set --path`: gitops-fleet:clusters[2].addons.metrics_server)
// in the run's copy of the stack file, until the project's stack file is copied again (the next operation of a
// stack whose file a Change edits).
func (s *Stack) SetConfig(values map[string]string) {
	t := s.env.t
	t.Helper()
	all := auto.ConfigMap{}
	for k, v := range values {
		all[k] = auto.ConfigValue{Value: v}
	}
	// One CLI run for all of them (`pulumi config set-all --path`).
	if err := s.Auto.SetAllConfigWithOptions(context.Background(), all, &auto.ConfigOptions{Path: true}); err != nil {
		t.Fatalf("config %v: %v", slices.Sorted(maps.Keys(values)), err)
	}
}

// Outputs are the stack's outputs.
func (s *Stack) Outputs() auto.OutputMap {
	outs, err := s.Auto.Outputs(context.Background())
	if err != nil {
		s.env.t.Fatal(err)
	}
	return outs
}

// Export is `pulumi stack export` of the stack (run with the CLI: the Automation API's export reveals secrets), as
// text and as a deployment; showSecrets adds --show-secrets.
func (s *Stack) Export(showSecrets bool) (string, apitype.DeploymentV3) {
	t := s.env.t
	t.Helper()
	args := []string{"stack", "export", "--stack", s.name}
	if showSecrets {
		args = append(args, "--show-secrets")
	}
	out, stderr, err := s.env.run.off.Run(context.Background(), s.WorkDir(), args...)
	if err != nil {
		t.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var dep apitype.UntypedDeployment
	if err := json.Unmarshal([]byte(out), &dep); err != nil {
		t.Fatal(err)
	}
	var d apitype.DeploymentV3
	if err := json.Unmarshal(dep.Deployment, &d); err != nil {
		t.Fatal(err)
	}
	return out, d
}

// Run is what an up did: its steps, the stack's outputs after it, and its changes by operation.
type Run struct {
	Steps   Steps
	Outputs auto.OutputMap
	Changes map[string]int
}

// changes is a summary's changes by operation (nil: none).
func changes(c *map[string]int) map[string]int {
	if c == nil {
		return map[string]int{}
	}
	return *c
}

// logOf is the content of the log file f.
func logOf(e *Env, f *os.File) string {
	data, err := os.ReadFile(f.Name())
	if err != nil {
		e.t.Fatal(err)
	}
	return string(data)
}

// Config is a stack file's config, key -> value as YAML reads it (maps, lists, strings, numbers, booleans).
type Config map[string]any

// Configured is stack name of the fleet example's program with the config cfg, which the test edits between
// operations (Config, Change) as a user edits Pulumi.<name>.yaml: each operation applies it as it is then.
func (e *Env) Configured(name string, cfg Config) *Stack {
	e.t.Helper()
	dir := e.t.TempDir()
	project, err := os.ReadFile(filepath.Join(e.FleetDir(), "Pulumi.yaml"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), project, 0o644)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	s := &Stack{env: e, dir: dir, name: name, program: fleetstack.Run, cfg: &cfg, settle: &settle{root: e.t}}
	s.sync()
	return s
}

// Config is the config of a Configured stack, for the test to edit; the next operation applies it.
func (s *Stack) Config() Config {
	if s.cfg == nil {
		s.env.t.Fatalf("stack %s takes its config from %s, not from the test", s.name, s.dir)
	}
	return *s.cfg
}

// writeConfig writes cfg as the stack file Pulumi.<name>.yaml in dir.
func writeConfig(dir, name string, cfg Config) error {
	data, err := yaml.Marshal(map[string]any{"config": map[string]any(cfg)})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "Pulumi."+name+".yaml"), data, 0o644)
}

// FleetDir is the fleet example's project folder (examples/fleet): its Pulumi.yaml and stack files.
func (e *Env) FleetDir() string { return filepath.Join(e.Root(), "examples", "fleet") }

// FleetStatus runs `fleet status` (bin/fleet) over the stack as the run holds it, with args, and returns what it
// printed; a failure fails the test.
func (s *Stack) FleetStatus(args ...string) []byte {
	out, err := s.env.run.off.FleetStatus(s.dir, s.name, args...)
	if err != nil {
		s.env.t.Fatalf("fleet status %v: %v\n%s", args, err, out)
	}
	return out
}

// Preflight previews the stack as it is now with its engine events written to a file, as `pulumi preview
// --event-log <file>` writes them, then runs `fleet preflight -events <file> args...` in the run's environment, as
// a user does before an up into an account. It returns what the command printed and its error (exit status 1: a
// finding fails the plan), the caller's to judge.
func (s *Stack) Preflight(args ...string) ([]byte, error) {
	t := s.env.t
	t.Helper()
	s.unsettled("Preflight")
	s.sync()
	log := filepath.Join(t.TempDir(), "preview-events.json")
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	ch, done := make(chan events.EngineEvent), make(chan error)
	go func() {
		enc := json.NewEncoder(f)
		var err error
		for e := range ch {
			if err == nil {
				err = enc.Encode(e.EngineEvent)
			}
		}
		done <- errors.Join(err, f.Close())
	}()
	_, err = s.Auto.Preview(context.Background(), optpreview.EventStreams(ch), optpreview.ProgressStreams(s.env.progress("preflight-preview")))
	if err = errors.Join(err, <-done); err != nil {
		t.Fatalf("preview of stack %s: %v", s.name, err)
	}
	return s.env.run.off.Fleet(append([]string{"preflight", "-events", log}, args...)...)
}

// FleetConfig is the config of the fleet example's stack file examples/fleet/Pulumi.<name>.yaml, for a Configured
// stack that starts from it.
func (e *Env) FleetConfig(name string) Config {
	t := e.t
	t.Helper()
	data, err := os.ReadFile(filepath.Join(e.FleetDir(), "Pulumi."+name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Config Config `json:"config"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	return file.Config
}
