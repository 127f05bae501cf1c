package tools

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestOneDependencySet checks that what make test compiles shares its compiled packages: Go's build cache keys a
// package by its dependencies' compiled output, so a module at two versions compiles twice, with everything above it
// (the Pulumi Kubernetes SDK alone is about 10 CPU-minutes here). The workspace tools.work puts the contract tests and
// the tools built from Kubernetes, Argo CD and aws-iam-authenticator on one set of versions. The product module and
// the CLI do not join it (its replaces pin Kubernetes' staging modules to the servers' release, which the product's
// client follows), so the product requires the version the workspace builds of every module they share, a replaced
// one included, and the CLI the product's. The Kubernetes provider (tests/tools/kubeprovider) is built at the one
// provider version the module proxy serves and compiles only against its own Pulumi release (v3.215.0; v3.259.0's
// codegen/schema no longer takes its ResourceSpec values) and its own Kubernetes release (kubeproviderOwn), so it
// keeps its own copy of those and of everything above them, and takes every other module at the version the product
// or the workspace builds (of about 1,500 packages it compiled 119 that the rest of make test also compiles; now 674,
// 28 of its 91 MB of Go source). So do the modules of make test's other steps and the tools they build: GoReleaser
// (tests/release: 956 of its 1,566 packages shared instead of 105), actionlint (tests/workflows), gotestsum, and
// pulumi-java's generator and language host (provider/java, on pulumi-java's own Pulumi release: 444 of 530 instead of
// 84), but for the modules each case names that its tool requires newer than the product builds, or cannot build with.
func TestOneDependencySet(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the modules' dependencies through the go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(root, "tests", "tools")
	const format = "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}}{{with .Replace}} => {{.Version}}{{end}}{{end}}{{end}}"
	// deps are the modules (and versions) of what go list -deps builds in dir, with env, from args (flags, patterns).
	deps := func(dir, env string, args ...string) map[string]string {
		return selected(t, dir, env, append([]string{"list", "-deps", "-f", format}, args...)...)
	}
	product := deps(root, "GOWORK=off", "-test", "./...")
	workspace := "GOWORK=" + filepath.Join(tools, "tools.work")
	work := selected(t, tools, workspace,
		"list", "-m", "-f", "{{.Path}} {{.Version}}{{with .Replace}} => {{.Version}}{{end}}", "all")
	// What the product and the workspace build, one version of each module once the first case passes.
	built := maps.Clone(work)
	maps.Copy(built, product)
	// What a case is held to: its name in the message, and the versions.
	type reference struct {
		name     string
		versions map[string]string
	}
	theProduct, both := reference{"the product", product}, reference{"the product or the workspace", built}
	cases := []struct {
		name, fix      string
		versions       map[string]string
		against        reference
		productFollows bool
		own            []string // modules the tool keeps at versions of its own
	}{
		{"the workspace tests/tools/tools.work", "in the repository's root, go get", work, theProduct, true, nil},
		{"tests/tools/cli", "in tests/tools/cli, go get", deps(filepath.Join(tools, "cli"), "GOWORK=off",
			"github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"), theProduct, false, nil},
		// -e: the provider's main embeds a schema that make writes beside it before it builds.
		{"tests/tools/kubeprovider", "in tests/tools/kubeprovider, go get", deps(filepath.Join(tools, "kubeprovider"),
			"GOWORK=off", "-e", ".", "./cmd/kubeprovider-schema"), both, false, kubeproviderOwn},
		// The modules of make test's other steps, with the tools they build (GoReleaser, actionlint, gotestsum).
		{"tests/release", "in tests/release, go get", deps(filepath.Join(root, "tests", "release"), "GOWORK=off",
			"-test", "tool", "./..."), both, false, releaseOwn},
		{"tests/workflows", "in tests/workflows, go get", deps(filepath.Join(root, "tests", "workflows"), "GOWORK=off",
			"-test", "tool", "./..."), both, false,
			[]string{"go.yaml.in/yaml/v4"}}, // actionlint v1.7.12 does not compile against v4.0.0-rc.4's errors
		{"tests/tools/gotestsum", "in tests/tools/gotestsum, go get", deps(filepath.Join(tools, "gotestsum"),
			"GOWORK=off", "tool"), both, false,
			[]string{"golang.org/x/tools"}}, // gotestsum v1.13.0 requires a newer one than the product's
		// pulumi-java's generator and language host, on the Pulumi release pulumi-java v1.22.0 builds against.
		{"provider/java", "in provider/java, GONOSUMDB=github.com/pulumi go get", deps(filepath.Join(root, "provider",
			"java"), "GONOSUMDB=github.com/pulumi", "-test", "tool", "./..."), both, false, []string{
			"github.com/pulumi/pulumi/pkg/v3", "github.com/pulumi/pulumi/sdk/v3", "github.com/pulumi/esc",
			"github.com/zclconf/go-cty"}},
	}
	for _, c := range cases {
		var fixes []string
		for module, version := range c.against.versions {
			other, ok := c.versions[module]
			version, other = effective(version), effective(other)
			if !ok || version == "" || other == "" || other == version || slices.Contains(c.own, module) {
				continue
			}
			want := version // a tool follows the product
			if c.productFollows {
				want = other
			}
			fixes = append(fixes, fmt.Sprintf("%s@%s (%s has %s, %s %s)", module, want, c.against.name, version, c.name, other))
		}
		sort.Strings(fixes)
		if len(fixes) > 0 {
			t.Errorf("%s and %s use %d module(s) at two versions, so make test compiles them and every package above "+
				"them twice; %s:\n  %s", c.name, c.against.name, len(fixes), c.fix, strings.Join(fixes, "\n  "))
		}
	}
	// Each tool the workspace builds (its go.mod is a member's) is built at the version the table pins: a member that
	// asks for a newer one would move it.
	members := strings.Fields(string(goOutput(t, tools, workspace, "list", "-m", "-f", "{{.Dir}}")))
	for variable, p := range pins {
		if !slices.Contains(members, filepath.Join(tools, filepath.Dir(p.gomod))) {
			continue
		}
		if got, want := work[p.module], p.prefix+Version(variable); got != want {
			t.Errorf("the workspace builds %s %s, but versions.mk pins %s = %s", p.module, got, variable, want)
		}
	}
}

// kubeproviderOwn are the modules the Kubernetes provider (tests/tools/kubeprovider) keeps at versions of its own, a
// release of each behind what the rest of make test builds: its Pulumi release (v3.215.0, see TestOneDependencySet);
// Kubernetes v0.33, because its await package hands Kubernetes' managed fields to structured-merge-diff v4's field
// sets, which v0.34 moved to v6 (built against v0.36 it does not compile); and what moves with Kubernetes' release
// (controller-runtime, kustomize, kube-openapi and the gnostic-models it reads, Flux's cli-utils, which the provider's
// Flux ssa takes types from). Every other module it shares with the product or the workspace is at their version.
var kubeproviderOwn = []string{
	"github.com/pulumi/pulumi/pkg/v3", "github.com/pulumi/pulumi/sdk/v3", "github.com/pulumi/pulumi-kubernetes/sdk/v4",
	"k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/apimachinery", "k8s.io/apiserver", "k8s.io/cli-runtime",
	"k8s.io/client-go", "k8s.io/component-base", "k8s.io/kube-openapi", "k8s.io/kubectl",
	"sigs.k8s.io/apiserver-network-proxy/konnectivity-client", "sigs.k8s.io/controller-runtime",
	"sigs.k8s.io/kustomize/api", "sigs.k8s.io/kustomize/kyaml", "sigs.k8s.io/structured-merge-diff/v4",
	"github.com/fluxcd/cli-utils", "github.com/google/gnostic-models",
}

// releaseOwn are the modules GoReleaser (tests/release's tool) requires at versions newer than the product and the
// workspace build, so they compile twice until the product moves up to them.
var releaseOwn = []string{
	"github.com/Azure/go-autorest/autorest", "github.com/Azure/go-autorest/autorest/adal",
	"github.com/Azure/go-autorest/autorest/date", "github.com/Azure/go-autorest/logger",
	"github.com/Azure/go-autorest/tracing", "github.com/containerd/stargz-snapshotter/estargz", "github.com/docker/cli",
	"github.com/gabriel-vasile/mimetype", "github.com/google/go-containerregistry", "github.com/hashicorp/golang-lru",
	"github.com/moby/moby/api", "github.com/moby/moby/client", "github.com/tomnomnom/linkheader", "go.uber.org/zap",
	"golang.org/x/tools",
}

// effective is the version a go.mod line "<version>[ => <version>]" builds: the replacement's, if it has one; empty
// for a replacement by a folder, which no version names.
func effective(version string) string {
	if _, replacement, ok := strings.Cut(version, " => "); ok {
		return replacement
	}
	return version
}

// selected runs the go command in dir with env and reads its lines "<module> <version>[ => <version>]".
func selected(t *testing.T, dir, env string, args ...string) map[string]string {
	t.Helper()
	versions := map[string]string{}
	scanner := bufio.NewScanner(bytes.NewReader(goOutput(t, dir, env, args...)))
	for scanner.Scan() {
		if module, version, ok := strings.Cut(scanner.Text(), " "); ok {
			versions[module] = version
		}
	}
	return versions
}

// goOutput is the output of the go command run in dir with env; a failure fails the test.
func goOutput(t *testing.T, dir, env string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return out
}
