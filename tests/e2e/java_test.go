package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"

	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestJavaProjectWithPackageAdd is the path a Java user takes: a copy of examples/java-fleet (a Maven project,
// runtime java, with the dev stack config), `pulumi package add` of the built pulumi-resource-fleet, which has the
// Java language host generate the SDK into sdks/fleet, then preview and up of the project directory through the
// real CLI and pulumi-language-java (Maven compiles and runs the program), which must create exactly the Go
// example's resource types and counts, then a preview that expects no changes, then destroy.
func TestJavaProjectWithPackageAdd(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	goTypes := goPreviewTypes(env, "dev")

	dir := filepath.Join(t.TempDir(), "java-fleet")
	src := filepath.Join(env.Root(), "examples", "java-fleet")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile(filepath.Join(env.FleetDir(), "Pulumi.dev.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.dev.yaml"), config, 0o644); err != nil {
		t.Fatal(err)
	}

	// pulumi-language-java sends Maven's stdout and stderr onto one gRPC stream from two goroutines; the project's
	// .mvn/jvm.config keeps Maven's stderr empty so the two cannot race (docs/languages.md).
	mvn := exec.Command("mvn", "--no-transfer-progress", "-v")
	mvn.Dir = dir
	var stderr strings.Builder
	mvn.Stderr = &stderr
	if err := mvn.Run(); err != nil || stderr.Len() != 0 {
		t.Errorf("mvn -v in the Java project: %v, stderr %q: want nothing on stderr", err, stderr.String())
	}

	out := env.Pulumi(dir, "package", "add", filepath.Join(env.Root(), "bin", "pulumi-resource-fleet"))
	for _, f := range []string{"sdks/fleet/src/main/java/com/gitopsfleet/fleet/Fleet.java",
		"sdks/fleet/src/main/java/com/gitopsfleet/fleet/inputs/AddonSettingsArgs.java"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("pulumi package add did not generate %s: %v\n%s", f, err, fleettest.Tail(out, 20))
		}
	}
	project, _ := os.ReadFile(filepath.Join(dir, "Pulumi.yaml"))
	if !strings.Contains(string(project), "packages:") || !strings.Contains(string(project), "fleet") {
		t.Errorf("pulumi package add did not record the package in Pulumi.yaml:\n%s", project)
	}

	stack := env.Local(dir, "dev")
	types := previewCreates(stack, "java-preview")
	if diff := cmp.Diff(goTypes, types); diff != "" {
		t.Errorf("the Java preview creates other resources than the Go one (-go +java):\n%s", diff)
	}
	up := stack.Up("java-up")
	// The hub's planned load, as the Go example exports it: the dev stack's three clusters, every count summed.
	capacity, _ := up.Outputs["hubCapacity"].Value.(map[string]any)
	sum := 0.0
	for _, k := range []string{"addonApplications", "bootstrapApplications", "workloadApplications", "tenantApplications",
		"registryApplications"} {
		n, _ := capacity[k].(float64)
		sum += n
	}
	if capacity["clusters"] != 3.0 || capacity["applications"] != sum || sum < 3 {
		t.Errorf("the Java stack's hubCapacity output %v: want the dev stack's 3 clusters and the Applications summed", capacity)
	}
	if err := stack.TryPreview("java-preview-again", optpreview.ExpectNoChanges()); err != nil {
		t.Errorf("a second preview of the Java fleet plans changes: %v", err)
	}
	stack.Destroy("java-destroy")
	if left := notRetained(env.Cloud().Records("aws", "")); len(left) != 0 {
		t.Errorf("destroy left %d AWS resources in the emulated cloud", len(left))
	}
}
