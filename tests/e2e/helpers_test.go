package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// newEnv is an offline environment in a fresh temporary directory, with a real control plane behind each EKS
// cluster it creates and the real Pulumi Kubernetes provider.
func newEnv(t *testing.T) *offline.Env {
	return offline.ForTestWith(t, offline.Options{ControlPlanes: true})
}

// fleetDir is examples/fleet.
func fleetDir(env *offline.Env) string { return filepath.Join(env.Root, "examples", "fleet") }

// fleetStack is stack of the Go fleet example.
func fleetStack(t *testing.T, env *offline.Env, stack string) auto.Stack {
	t.Helper()
	s, err := env.Stack(context.Background(), fleetDir(env), stack, fleetstack.Run)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// progress is where an operation's output goes: a log file in the env, printed when the test fails.
func progress(t *testing.T, env *offline.Env, op string) *os.File {
	t.Helper()
	f, err := os.CreateTemp(env.Dir, op+"-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.Close()
		if t.Failed() {
			data, _ := os.ReadFile(f.Name())
			t.Logf("%s output:\n%s", op, offline.Tail(string(data), 60))
		}
	})
	return f
}

// records are the emulated cloud's resources of pkg and type (each, when not empty).
func records(t *testing.T, env *offline.Env, pkg, typ string) []emulator.Record {
	t.Helper()
	all, err := env.Store.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []emulator.Record
	for _, r := range all {
		if (pkg == "" || r.Package == pkg) && (typ == "" || r.Type == typ) {
			out = append(out, r)
		}
	}
	return out
}

// exported is `pulumi stack export` of s (run with the CLI: the Automation API's export reveals secrets), as
// text and as a deployment; showSecrets adds --show-secrets.
func exported(t *testing.T, env *offline.Env, s auto.Stack, showSecrets bool) (string, apitype.DeploymentV3) {
	t.Helper()
	args := []string{"stack", "export", "--stack", s.Name()}
	if showSecrets {
		args = append(args, "--show-secrets")
	}
	out, stderr, err := env.Run(context.Background(), s.Workspace().WorkDir(), args...)
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

// urnName is the resource name at the end of a URN.
func urnName(urn string) string { return urn[strings.LastIndex(urn, "::")+2:] }

// retainedTypes are the types FleetCluster retains on delete: Velero's bucket and its settings hold backups.
var retainedTypes = []string{"aws:s3/bucketV2:BucketV2", "aws:s3/bucketVersioningV2:BucketVersioningV2",
	"aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock", "aws:s3/bucketOwnershipControls:BucketOwnershipControls",
	"aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2"}

// notRetained are the records of types FleetCluster does not retain on delete.
func notRetained(rs []emulator.Record) []emulator.Record {
	var out []emulator.Record
	for _, r := range rs {
		if !slices.Contains(retainedTypes, r.Type) {
			out = append(out, r)
		}
	}
	return out
}
