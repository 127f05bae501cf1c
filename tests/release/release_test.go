package release

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// goreleaserBin is GoReleaser built from this module's tool directive (TestMain).
var goreleaserBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "goreleaser")
	if err != nil {
		panic(err)
	}
	goreleaserBin = filepath.Join(dir, "goreleaser")
	build := exec.Command("go", "build", "-o", goreleaserBin, "github.com/goreleaser/goreleaser/v2")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		panic(fmt.Sprintf("building goreleaser: %v", err))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs a command in dir with env added, failing the test with its output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// config is .goreleaser.yaml, as far as the checks read it.
type config struct {
	Builds []struct {
		ID      string   `json:"id"`
		Main    string   `json:"main"`
		Binary  string   `json:"binary"`
		Env     []string `json:"env"`
		Flags   []string `json:"flags"`
		Ldflags []string `json:"ldflags"`
		Goos    []string `json:"goos"`
		Goarch  []string `json:"goarch"`
	} `json:"builds"`
	Archives []struct {
		Formats      []string `json:"formats"`
		NameTemplate string   `json:"name_template"`
	} `json:"archives"`
	Checksum struct {
		NameTemplate string `json:"name_template"`
	} `json:"checksum"`
}

func readConfig(t *testing.T) (config, map[string]any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c config
	var raw map[string]any
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	return c, raw
}

// TestGoReleaserCheck: GoReleaser itself accepts the configuration.
func TestGoReleaserCheck(t *testing.T) {
	run(t, root, nil, goreleaserBin, "check", "--config", ".goreleaser.yaml")
}

// TestReleaseMatrix: the release builds the plugin for Linux, macOS and Windows on amd64 and arm64, stamps the
// tag's version into it, and names each archive as Pulumi's plugin installer asks for it
// (pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz, sdk/go/common/workspace's standard asset name); and the
// fleet command (fleet status) for the same platforms, in fleet-v<version>-<os>-<arch>.tar.gz.
func TestReleaseMatrix(t *testing.T) {
	c, _ := readConfig(t)
	if len(c.Builds) != 2 || len(c.Archives) != 2 {
		t.Fatalf("want two builds and two archives (the plugin, the fleet command), got %d and %d", len(c.Builds), len(c.Archives))
	}
	if cli := c.Builds[1]; cli.Main != "./provider/cmd/fleet" || cli.Binary != "fleet" ||
		!slices.Equal(cli.Goos, c.Builds[0].Goos) || !slices.Equal(cli.Goarch, c.Builds[0].Goarch) ||
		c.Archives[1].NameTemplate != "fleet-v{{ .Version }}-{{ .Os }}-{{ .Arch }}" {
		t.Errorf("the fleet command's build %+v and archive %q: want bin fleet for the plugin's platforms", cli, c.Archives[1].NameTemplate)
	}
	b := c.Builds[0]
	if b.Main != "./provider/cmd/pulumi-resource-fleet" || b.Binary != "pulumi-resource-fleet" {
		t.Errorf("build: main %q binary %q", b.Main, b.Binary)
	}
	if !slices.Equal(b.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(b.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build targets: %v x %v", b.Goos, b.Goarch)
	}
	if !slices.ContainsFunc(b.Ldflags, func(f string) bool {
		return strings.Contains(f, "-X github.com/gitops-fleet/pulumi-fleet/provider.version={{ .Version }}")
	}) {
		t.Errorf("ldflags %q do not stamp provider.version", b.Ldflags)
	}
	a := c.Archives[0]
	if a.NameTemplate != "pulumi-resource-fleet-v{{ .Version }}-{{ .Os }}-{{ .Arch }}" || !slices.Equal(a.Formats, []string{"tar.gz"}) {
		t.Errorf("archive: %q as %v", a.NameTemplate, a.Formats)
	}
	if c.Checksum.NameTemplate == "" {
		t.Error("no checksum file")
	}
}

// TestSnapshotInstallsFromItsPluginDownloadURL builds a snapshot release for this machine's platform, serves its
// dist folder the way GitHub serves a release's assets, and lets the real Pulumi CLI install the plugin from the
// schema's pluginDownloadURL (redirected to that server with PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES): the CLI asks
// for exactly the archive GoReleaser made, installs it, and the installed plugin reports the snapshot's version
// and that download URL in its schema. The same archive installs from the file too (-f), and the Java example's
// `pulumi package add fleet@<version>` uses the installed release.
func TestSnapshotInstallsFromItsPluginDownloadURL(t *testing.T) {
	cli := os.Getenv("PULUMI_FLEET_CLI")
	if cli == "" {
		t.Skip("PULUMI_FLEET_CLI names no Pulumi CLI (make test sets it)")
	}
	_, raw := readConfig(t)
	// This platform only (a release builds six); without -trimpath and CGO_ENABLED=0, so the build reuses the
	// compiled packages of `make provider` instead of compiling every dependency again.
	for _, b := range raw["builds"].([]any) {
		build := b.(map[string]any)
		build["goos"], build["goarch"] = []string{runtime.GOOS}, []string{runtime.GOARCH}
		delete(build, "flags")
		delete(build, "env")
	}
	dist := t.TempDir()
	raw["dist"] = dist
	cfg, err := yaml.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, root, nil, goreleaserBin, "release", "--snapshot", "--clean", "--skip=publish", "--config", cfgPath)

	var meta struct {
		Version string `json:"version"`
	}
	readJSON(t, filepath.Join(dist, "metadata.json"), &meta)
	if meta.Version == "" {
		t.Fatal("dist/metadata.json names no version")
	}
	asset := fmt.Sprintf("pulumi-resource-fleet-v%s-%s-%s.tar.gz", meta.Version, runtime.GOOS, runtime.GOARCH)
	cliAsset := fmt.Sprintf("fleet-v%s-%s-%s.tar.gz", meta.Version, runtime.GOOS, runtime.GOARCH)
	checkArchive(t, filepath.Join(dist, asset), "pulumi-resource-fleet")
	checkArchive(t, filepath.Join(dist, cliAsset), "fleet")
	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	for _, a := range []string{asset, cliAsset} {
		if err != nil || !strings.Contains(string(sums), "  "+a+"\n") {
			t.Errorf("checksums.txt does not list %s: %v\n%s", a, err, sums)
		}
	}

	// GitHub's release download URL: /<owner>/<repo>/releases/download/v<version>/<asset>.
	var mu sync.Mutex
	var asked []string
	prefix := "/gitops-fleet/pulumi-fleet/releases/download/v" + meta.Version + "/"
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(dist, name))
	}))
	defer server.Close()

	var schema struct {
		PluginDownloadURL string `json:"pluginDownloadURL"`
	}
	readJSON(t, filepath.Join(root, "schema.json"), &schema)
	if schema.PluginDownloadURL != "github://api.github.com/gitops-fleet/pulumi-fleet" {
		t.Fatalf("schema.json's pluginDownloadURL is %q", schema.PluginDownloadURL)
	}
	home := t.TempDir()
	env := []string{
		"PULUMI_HOME=" + home,
		"PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES=^" + strings.ReplaceAll(schema.PluginDownloadURL, ".", `\.`) + "=" +
			server.URL + "/gitops-fleet/pulumi-fleet/releases/download/v${VERSION}",
	}
	run(t, root, env, cli, "plugin", "install", "resource", "fleet", meta.Version, "--server", schema.PluginDownloadURL)
	mu.Lock()
	if !slices.Contains(asked, prefix+asset) {
		t.Errorf("the CLI asked for %q, not %s", asked, prefix+asset)
	}
	mu.Unlock()
	ls := run(t, root, env, cli, "plugin", "ls", "--json")
	if !strings.Contains(ls, `"name": "fleet"`) || !strings.Contains(ls, `"version": "`+meta.Version+`"`) {
		t.Errorf("pulumi plugin ls does not list fleet %s:\n%s", meta.Version, ls)
	}
	// A downloaded archive installs as well (`pulumi plugin install ... -f`, the offline way).
	offline := []string{"PULUMI_HOME=" + t.TempDir(), "PULUMI_SKIP_UPDATE_CHECK=true"}
	run(t, root, offline, cli, "plugin", "install", "resource", "fleet", meta.Version, "-f", filepath.Join(dist, asset))
	if ls := run(t, root, offline, cli, "plugin", "ls", "--json"); !strings.Contains(ls, `"version": "`+meta.Version+`"`) {
		t.Errorf("after install -f, pulumi plugin ls does not list fleet %s:\n%s", meta.Version, ls)
	}
	installed := filepath.Join(home, "plugins", "resource-fleet-v"+meta.Version, "pulumi-resource-fleet")
	out := run(t, root, env, cli, "package", "get-schema", installed)
	var served struct {
		Version           string `json:"version"`
		PluginDownloadURL string `json:"pluginDownloadURL"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &served); err != nil {
		t.Fatalf("get-schema: %v\n%s", err, out)
	}
	if served.Version != meta.Version || served.PluginDownloadURL != schema.PluginDownloadURL {
		t.Errorf("the installed plugin's schema has version %q and pluginDownloadURL %q, want %q and %q",
			served.Version, served.PluginDownloadURL, meta.Version, schema.PluginDownloadURL)
	}
	packageAddUsesTheRelease(t, env, cli, meta.Version)
}

// packageAddUsesTheRelease: in a copy of the Java example, `pulumi package add fleet@<version>` takes the installed
// released plugin (pulumi-language-java, bin/, generates the SDK), records that version in Pulumi.yaml, and the
// program compiles with Maven against the SDK it generated, which carries the version.
func packageAddUsesTheRelease(t *testing.T, env []string, cli, version string) {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join(root, "bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(bin, "pulumi-language-java")); err != nil {
		t.Skipf("no bin/pulumi-language-java (make java): %v", err)
	}
	dir := filepath.Join(t.TempDir(), "java-fleet")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, "examples", "java-fleet"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "target"))
	os.RemoveAll(filepath.Join(dir, "sdks"))
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "PULUMI_CONFIG_PASSPHRASE=release",
		"PULUMI_BACKEND_URL=file://"+t.TempDir())
	run(t, dir, env, cli, "package", "add", "fleet@"+version)
	project, err := os.ReadFile(filepath.Join(dir, "Pulumi.yaml"))
	if err != nil || !strings.Contains(string(project), "fleet: fleet@"+version) {
		t.Errorf("Pulumi.yaml does not record fleet@%s: %v\n%s", version, err, project)
	}
	stamped, err := os.ReadFile(filepath.Join(dir, "sdks", "fleet", "src", "main", "resources", "com", "gitopsfleet",
		"fleet", "version.txt"))
	if err != nil || strings.TrimSpace(string(stamped)) != version {
		t.Errorf("the generated Java SDK's version.txt: %q, %v; want %s", stamped, err, version)
	}
	run(t, dir, env, "mvn", "-B", "-q", "--no-transfer-progress", "compile")
	if _, err := os.Stat(filepath.Join(dir, "target", "classes", "gitopsfleet", "App.class")); err != nil {
		t.Errorf("the Java example did not compile against the released package: %v", err)
	}
}

// checkArchive: the archive holds the binary bin (the plugin's, the fleet command's) at its root, executable, with
// the license and the README.
func checkArchive(t *testing.T, path, bin string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no archive %s: %v", filepath.Base(path), err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	modes := map[string]int64{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		modes[h.Name] = h.Mode
	}
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if mode, ok := modes[bin]; !ok || mode&0o111 == 0 {
		t.Errorf("%s: %s at the root, executable: got %v", filepath.Base(path), bin, modes)
	}
	for _, name := range []string{"LICENSE", "README.md"} {
		if _, ok := modes[name]; !ok {
			t.Errorf("%s has no %s: %v", filepath.Base(path), name, modes)
		}
	}
}
