package tools

import (
	"bufio"
	"bytes"
	"fmt"
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
// one included, and the CLI the product's. The exception: the Kubernetes provider (tests/tools/kubeprovider),
// which is built at the one provider version the module proxy serves and compiles only against its own Pulumi release
// (v3.215.0; v3.259.0's codegen/schema no longer takes its ResourceSpec values), so it keeps its own copy of the
// Pulumi SDKs.
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
	product := selected(t, root, "GOWORK=off", "list", "-deps", "-test", "-f", format, "./...")
	workspace := "GOWORK=" + filepath.Join(tools, "tools.work")
	work := selected(t, tools, workspace,
		"list", "-m", "-f", "{{.Path}} {{.Version}}{{with .Replace}} => {{.Version}}{{end}}", "all")
	cases := []struct {
		name, fix      string
		versions       map[string]string
		productFollows bool
	}{
		{"the workspace tests/tools/tools.work", "in the repository's root, go get", work, true},
		{"tests/tools/cli", "in tests/tools/cli, go get", selected(t, filepath.Join(tools, "cli"), "GOWORK=off",
			"list", "-deps", "-f", format, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"), false},
	}
	for _, c := range cases {
		var fixes []string
		for module, version := range product {
			other, ok := c.versions[module]
			version, other = effective(version), effective(other)
			if !ok || version == "" || other == "" || other == version {
				continue
			}
			want := version // a tool follows the product
			if c.productFollows {
				want = other
			}
			fixes = append(fixes, fmt.Sprintf("%s@%s (the product has %s, %s %s)", module, want, version, c.name, other))
		}
		sort.Strings(fixes)
		if len(fixes) > 0 {
			t.Errorf("%s and the product module use %d module(s) at two versions, so make test compiles them and every "+
				"package above them twice; %s:\n  %s", c.name, len(fixes), c.fix, strings.Join(fixes, "\n  "))
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
