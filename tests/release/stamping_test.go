package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/release/notes"
)

// TestReleaseSDKsCarryTheVersion: `make release-sdks VERSION=<v>` stamps the version into the schema and every
// SDK's package metadata (npm package.json, Python pyproject.toml, .NET csproj, Go SDK's plugin version, Maven
// pom.xml), and every SDK names the schema's pluginDownloadURL, so a program on a released SDK asks the engine
// for the plugin of the same version from the project's releases; the stamped Java SDK builds what Maven Central
// takes.
func TestReleaseSDKsCarryTheVersion(t *testing.T) {
	const version = "9.8.7"
	dir := t.TempDir()
	run(t, root, nil, "make", "release-sdks", "VERSION="+version, "RELEASE_DIR="+dir)
	const server = "github://api.github.com/gitops-fleet/pulumi-fleet"
	var schema struct {
		Version, PluginDownloadURL string
	}
	readJSON(t, filepath.Join(dir, "schema.json"), &schema)
	if schema.Version != version || schema.PluginDownloadURL != server {
		t.Errorf("schema: version %q, pluginDownloadURL %q", schema.Version, schema.PluginDownloadURL)
	}
	for _, tc := range []struct{ file, pattern string }{
		{"sdk/nodejs/package.json", `(?m)^\s*"version": "9\.8\.7",$`},
		{"sdk/python/pyproject.toml", `(?m)^\s*version = "9\.8\.7"$`},
		{"sdk/dotnet/GitOpsFleet.Fleet.csproj", `<Version>9\.8\.7</Version>`},
		{"sdk/go/fleet/internal/pulumiUtilities.go", `version := semver\.MustParse\("9\.8\.7"\)`},
		{"sdk/java/pom.xml", `(?m)^  <version>9\.8\.7</version>$`},
		{"sdk/java/src/main/resources/com/gitopsfleet/fleet/version.txt", `^9\.8\.7\s*$`},
	} {
		data, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Error(err)
			continue
		}
		if !regexp.MustCompile(tc.pattern).Match(data) {
			t.Errorf("%s does not carry version %s (%s)", tc.file, version, tc.pattern)
		}
	}
	for _, f := range []string{"sdk/go/fleet/pulumi-plugin.json", "sdk/python/pulumi_fleet/pulumi-plugin.json",
		"sdk/dotnet/pulumi-plugin.json"} {
		var plugin struct{ Name, Version, Server string }
		readJSON(t, filepath.Join(dir, f), &plugin)
		if plugin.Name != "fleet" || plugin.Version != version || plugin.Server != server {
			t.Errorf("%s: %+v", f, plugin)
		}
	}
	// What Maven Central requires of the stamped Java SDK: its jar with sources and javadoc (-P release, the
	// workflow's profile; signing is the workflow's GPG key, skipped here).
	run(t, filepath.Join(dir, "sdk", "java"), nil, "mvn", "-B", "-q", "--no-transfer-progress", "-P", "release",
		"-Dgpg.skip", "package")
	for _, jar := range []string{"fleet-9.8.7.jar", "fleet-9.8.7-sources.jar", "fleet-9.8.7-javadoc.jar"} {
		if _, err := os.Stat(filepath.Join(dir, "sdk", "java", "target", jar)); err != nil {
			t.Errorf("mvn -P release built no %s", jar)
		}
	}
	// The committed SDKs stay unversioned: a release stamps copies.
	data, err := os.ReadFile(filepath.Join(root, "sdk", "nodejs", "package.json"))
	if err != nil || !strings.Contains(string(data), `"version": "${VERSION}"`) {
		t.Errorf("sdk/nodejs/package.json was changed by the release: %v", err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestChangelogHasTheNextRelease: CHANGELOG.md has notes under "## Unreleased" (renamed to the version when it is
// tagged), and release-notes, the workflow's command, prints them and refuses a version without notes.
func TestChangelogHasTheNextRelease(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := notes.Section(string(data), "Unreleased")
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, ".", nil, "go", "run", "./cmd/release-notes", "-changelog", "../../CHANGELOG.md", "Unreleased")
	if got != want {
		t.Errorf("release-notes printed %q, want %q", got, want)
	}
	cmd := exec.Command("go", "run", "./cmd/release-notes", "-changelog", "../../CHANGELOG.md", "0.0.0-none")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), `no section "## 0.0.0-none"`) {
		t.Errorf("release-notes for a version without notes: %v\n%s", err, out)
	}
}
