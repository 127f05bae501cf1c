package api

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// No C# compiler runs on the build machines, so the C# examples are checked against the generated .NET SDK's
// source (sdk/dotnet) for what a compiler would catch first: each class they name exists, and each property an
// object initializer sets is a property of the class being initialized.
func TestCSharpExamples(t *testing.T) {
	sdk := dotnetProperties(t)
	for _, ex := range Examples {
		t.Run(ex.Dir, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(ex.Dir, "Program.cs"))
			if err != nil {
				t.Fatal(err)
			}
			if problems := checkCSharp(sdk, string(src)); len(problems) > 0 {
				t.Errorf("%s/Program.cs:\n%s", ex.Dir, strings.Join(problems, "\n"))
			}
		})
	}
}

// TestCSharpCheckRefuses: the check finds a misspelt class and a property of another class.
func TestCSharpCheckRefuses(t *testing.T) {
	sdk := dotnetProperties(t)
	for _, tc := range []struct{ name, src, want string }{
		{"unknown resource", `var a = new Fleet.FleetClustr("a", new() { Region = "x" });`, "no class FleetClustrArgs"},
		{"unknown input type", `var a = new Fleet.Inputs.RepoArg { Url = "x" };`, "no class RepoArg"},
		{"unknown property", `var a = new Fleet.FleetCluster("a", new() { Regoin = "x" });`, "Regoin is not a property of FleetClusterArgs"},
		{"nested property", `var a = new Fleet.FleetCluster("a", new() { Region = "x", GitopsAccess = new Fleet.Inputs.GitOpsAccessArgs { HubRole = "y" } });`, "HubRole is not a property of GitOpsAccessArgs"},
		{"local function", "static Fleet.Inputs.ClusterInfoArgs Info(Fleet.FleetCluster c) => new()\n{\n    Server = c.Endpoint,\n    Endpoint = c.Endpoint,\n};", "Endpoint is not a property of ClusterInfoArgs"},
		{"unknown function", `var a = Fleet.GetStilTagged.Invoke(new() { Region = "x" });`, "no class GetStilTaggedInvokeArgs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := checkCSharp(sdk, tc.src)
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("want a problem with %q, got %q", tc.want, problems)
			}
		})
	}
}

var (
	// dotnetClass is a class declaration of the generated SDK.
	dotnetClass = regexp.MustCompile(`(?m)^\s*public (?:sealed )?class (\w+)\b`)
	// dotnetProperty is a public property declaration.
	dotnetProperty = regexp.MustCompile(`(?m)^\s*public [\w<>?,\[\]. ]+? (\w+)\s*(?:\{|$)`)
	// csharpToken is what the check follows in a C# example: the start of an object initializer of an SDK class
	// (a resource's args, an input type, a function's invoke args, an input type a local function returns), any
	// other brace, and a property assignment.
	csharpToken = regexp.MustCompile(`new Fleet\.Inputs\.(\w+)\s*\{|new Fleet\.(\w+)\("[^"]*",\s*new\(\)\s*\{|` +
		`Fleet\.(\w+)\.Invoke\(new\(\)\s*\{|Fleet\.Inputs\.(\w+) \w+\([^)]*\) => new\(\)\s*\{|\{|\}|\b(\w+)\s*=[^=>]`)
)

// dotnetProperties are the generated .NET SDK's classes and the properties each declares.
func dotnetProperties(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "sdk", "dotnet", "*.cs"))
	if err != nil {
		t.Fatal(err)
	}
	inputs, _ := filepath.Glob(filepath.Join("..", "..", "sdk", "dotnet", "Inputs", "*.cs"))
	classes := map[string][]string{}
	for _, f := range append(files, inputs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		decls := dotnetClass.FindAllStringSubmatchIndex(src, -1)
		for i, d := range decls {
			end := len(src)
			if i+1 < len(decls) {
				end = decls[i+1][0]
			}
			name := src[d[2]:d[3]]
			classes[name] = []string{}
			for _, m := range dotnetProperty.FindAllStringSubmatch(src[d[1]:end], -1) {
				classes[name] = append(classes[name], m[1])
			}
		}
	}
	if len(classes) < 10 {
		t.Fatalf("found %d classes in sdk/dotnet", len(classes))
	}
	return classes
}

// checkCSharp is what is wrong with a C# example's use of the SDK.
func checkCSharp(sdk map[string][]string, src string) []string {
	var problems []string
	var stack []string // the class each open brace initializes; "" for other braces
	open := func(class string) {
		if _, ok := sdk[class]; !ok {
			problems = append(problems, fmt.Sprintf("no class %s in sdk/dotnet", class))
		}
		stack = append(stack, class)
	}
	for _, m := range csharpToken.FindAllStringSubmatch(src, -1) {
		switch {
		case m[1] != "":
			open(m[1])
		case m[2] != "":
			open(m[2] + "Args")
		case m[3] != "":
			open(m[3] + "InvokeArgs")
		case m[4] != "":
			open(m[4])
		case m[0] == "{":
			stack = append(stack, "")
		case m[0] == "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case m[5] != "" && len(stack) > 0 && stack[len(stack)-1] != "":
			class := stack[len(stack)-1]
			if props, ok := sdk[class]; ok && !slices.Contains(props, m[5]) {
				problems = append(problems, fmt.Sprintf("%s is not a property of %s", m[5], class))
			}
		}
	}
	return problems
}
