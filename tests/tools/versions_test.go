package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestVersionsMatchModules checks each version of the table against the module that builds it: the version a tool's
// go.mod requires (the Kubernetes provider's, which its module pins by pseudo-version, against the Kubernetes SDK the
// fleet asks for, in the product's go.mod), so the table the build, the harness and the docs read cannot drift from what
// is built.
func TestVersionsMatchModules(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range Tools {
		seen[tool.Variable] = true
		if py, ok := pythonPins[tool.Variable]; ok {
			if got := pinned(t, py.requirements, py.project); got != tool.Version {
				t.Errorf("%s = %s, but %s pins %s==%s", tool.Variable, tool.Version, py.requirements, py.project, got)
			}
			if !strings.HasPrefix(py.requirements, tool.Folder+"/") || tool.What == "" {
				t.Errorf("%s: folder %s, what %q; the test reads %s", tool.Variable, tool.Folder, tool.What, py.requirements)
			}
			continue
		}
		c, ok := pins[tool.Variable]
		if !ok {
			t.Errorf("%s (folder %s) has no module to check it against: add it to this test", tool.Variable, tool.Folder)
			continue
		}
		if !strings.HasPrefix(c.gomod, tool.Folder+"/") && !strings.HasPrefix(c.gomod, "..") {
			t.Errorf("%s: the table says folder %s, the test reads %s", tool.Variable, tool.Folder, c.gomod)
		}
		if got := required(t, c.gomod, c.module); got != c.prefix+tool.Version {
			t.Errorf("%s = %s, but %s requires %s %s (%s)", tool.Variable, tool.Version, c.gomod, c.module, got, c.reason)
		}
		if tool.What == "" {
			t.Errorf("%s says nothing of what it is", tool.Variable)
		}
	}
	for name := range pins {
		if !seen[name] {
			t.Errorf("versions.mk has no %s", name)
		}
	}
	for name := range pythonPins {
		if !seen[name] {
			t.Errorf("versions.mk has no %s", name)
		}
	}
}

// pythonPins are the tools from PyPI: the requirements file (relative to tests/tools) that pins each, and its
// project name there.
var pythonPins = map[string]struct{ requirements, project string }{
	"PARLIAMENT_VERSION":     {"iamlint/requirements.txt", "parliament"},
	"CLOUDSPLAINING_VERSION": {"iamlint/requirements.txt", "cloudsplaining"},
}

// pinned is the version requirements pins project at (a `project==version` line), or "".
func pinned(t *testing.T, requirements, project string) string {
	t.Helper()
	data, err := os.ReadFile(requirements)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if name, version, ok := strings.Cut(strings.TrimSpace(line), "=="); ok && strings.EqualFold(name, project) {
			return version
		}
	}
	return ""
}

// pins are the modules that build each tool of the table: the go.mod (relative to tests/tools) that pins it, the
// module, the prefix its version takes there, and why the two must agree.
var pins = map[string]struct {
	reason, gomod, module, prefix string
}{
	"PULUMI_VERSION":        {"the CLI's tool module", "cli/go.mod", "github.com/pulumi/pulumi/pkg/v3", "v"},
	"KUBE_VERSION":          {"the control plane's binaries", "kube/go.mod", "k8s.io/kubernetes", ""},
	"ETCD_VERSION":          {"the etcd the control plane runs", "kube/go.mod", "go.etcd.io/etcd/server/v3", "v"},
	"KWOK_VERSION":          {"kwok and kwokctl", "kwok/go.mod", "sigs.k8s.io/kwok", ""},
	"AUTHENTICATOR_VERSION": {"the token webhook", "authenticator/go.mod", "sigs.k8s.io/aws-iam-authenticator", ""},
	"KUBE_PROVIDER_VERSION": {"the provider reports the version the fleet's SDK asks for", "../../go.mod", "github.com/pulumi/pulumi-kubernetes/sdk/v4", "v"},
	"ARGOCD_VERSION":        {"Argo CD's controllers", "argocd/go.mod", "github.com/argoproj/argo-cd/v3", ""},
	"HELM_VERSION":          {"the repo server's Helm", "argocd/go.mod", "helm.sh/helm/v4", ""},
	"GOTESTSUM_VERSION":     {"make test's runner", "gotestsum/go.mod", "gotest.tools/gotestsum", ""},
}

// The servers run the Kubernetes release whose admission code the contract tests judge the guards with.
func TestServersRunTheContractTestsKubernetes(t *testing.T) {
	for _, module := range []string{"k8s.io/kubernetes", "k8s.io/apiserver"} {
		server := required(t, "kube/go.mod", module)
		contract := required(t, "../contract/go.mod", module)
		if server != contract {
			t.Errorf("the control planes run %s %s, but tests/contract judges the guards with %s: one release for both",
				module, server, contract)
		}
	}
}

// required is the version of module that the go.mod at path requires.
func required(t *testing.T, path, module string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == module {
			return r.Mod.Version
		}
	}
	t.Fatalf("%s requires no %s", path, module)
	return ""
}
