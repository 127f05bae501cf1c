package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"sigs.k8s.io/yaml"
)

// program is a Pulumi YAML program, as far as the examples use it (Pulumi YAML's documented program
// format: https://www.pulumi.com/docs/iac/languages-sdks/yaml/yaml-language-reference/).
type program struct {
	Name      string                    `json:"name"`
	Runtime   string                    `json:"runtime"`
	Config    map[string]map[string]any `json:"config"`
	Resources map[string]struct {
		Type       string         `json:"type"`
		Properties map[string]any `json:"properties"`
		Options    map[string]any `json:"options"`
	} `json:"resources"`
	Variables map[string]map[string]struct {
		Function  string         `json:"function"`
		Arguments map[string]any `json:"arguments"`
	} `json:"variables"`
	Outputs map[string]any `json:"outputs"`
}

// resourceOptions are the resource options Pulumi YAML takes.
var resourceOptions = []string{"additionalSecretOutputs", "aliases", "customTimeouts", "deleteBeforeReplace",
	"dependsOn", "ignoreChanges", "import", "parent", "protect", "provider", "providers", "version",
	"pluginDownloadURL", "replaceOnChanges", "retainOnDelete", "deletedWith", "hideDiffs", "replaceWith"}

// TestYAMLExamples binds every example's Pulumi.yaml to the committed schema.json the way Pulumi YAML types a
// program: each resource's type is a resource of the package, each property an input of it with a value of its
// type (objects with their required properties and no others, arrays, maps, strings, numbers, booleans), each
// fn::invoke a function of the package with its inputs, and each ${name.property} a config key, a resource's
// output or a function's result.
func TestYAMLExamples(t *testing.T) {
	pkg := boundSchema(t)
	for _, ex := range Examples {
		t.Run(ex.Dir, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(ex.Dir, "Pulumi.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if problems := checkYAML(pkg, src); len(problems) > 0 {
				t.Errorf("%s/Pulumi.yaml:\n%s", ex.Dir, strings.Join(problems, "\n"))
			}
		})
	}
}

// TestYAMLCheckRefuses: the check finds what Pulumi YAML would refuse.
func TestYAMLCheckRefuses(t *testing.T) {
	pkg := boundSchema(t)
	for _, tc := range []struct{ name, src, want string }{
		{"unknown type", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:Flet\n", "no resource fleet:index:Flet"},
		{"unknown property", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties:\n      region: us-east-1\n      regoin: x\n", "regoin: not an input"},
		{"missing required", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties: {}\n", "region: required"},
		{"wrong scalar", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties:\n      region: us-east-1\n      availabilityZoneCount: three\n", "availabilityZoneCount: want integer"},
		{"nested unknown", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties:\n      region: us-east-1\n      gitopsAccess: {hubRole: x}\n", "gitopsAccess.hubRole: not a property"},
		{"bad output reference", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties: {region: us-east-1}\noutputs:\n  o: ${a.kubeConfig}\n", "${a.kubeConfig}: kubeConfig is not an output"},
		{"unknown name", "name: x\nruntime: yaml\noutputs:\n  o: ${b.x}\n", "${b.x}: no resource, variable or config b"},
		{"bad function argument", "name: x\nruntime: yaml\nvariables:\n  v:\n    fn::invoke:\n      function: fleet:getStillTagged\n      arguments: {clusterName: a, regoin: b}\n", "regoin: not an input"},
		{"output into a plain input", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties: {region: us-east-1}\n  b:\n    type: fleet:FleetCluster\n    properties: {region: '${a.region}'}\n", "region: a plain input"},
		{"bad option", "name: x\nruntime: yaml\nresources:\n  a:\n    type: fleet:FleetCluster\n    properties: {region: us-east-1}\n    options: {dependOn: []}\n", "option dependOn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := checkYAML(pkg, []byte(tc.src))
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("want a problem with %q, got %q", tc.want, problems)
			}
		})
	}
}

// boundSchema is the committed schema.json, bound.
func boundSchema(t *testing.T) *pschema.Package {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec pschema.PackageSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	pkg, diags, err := pschema.BindSpec(spec, pschema.NewNullLoader(), pschema.ValidationOptions{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("schema does not bind: %v %v", err, diags)
	}
	return pkg
}

// checkYAML is what is wrong with a Pulumi YAML program for the package, sorted.
func checkYAML(pkg *pschema.Package, src []byte) []string {
	var prog program
	if err := yaml.UnmarshalStrict(src, &prog); err != nil {
		return []string{err.Error()}
	}
	c := yamlChecker{pkg: pkg, resources: map[string]*pschema.Resource{}, variables: map[string]*pschema.Function{}}
	if prog.Name == "" || prog.Runtime != "yaml" {
		c.problem("name and runtime: yaml are required")
	}
	for name, r := range prog.Resources {
		res, ok := pkg.GetResource(canonical(r.Type))
		if !ok {
			c.problem("resource %s: no resource %s in the package", name, canonical(r.Type))
			continue
		}
		c.resources[name] = res
	}
	for name, v := range prog.Variables {
		inv, ok := v["fn::invoke"]
		if !ok || len(v) != 1 {
			c.problem("variable %s: only fn::invoke variables are checked", name)
			continue
		}
		fn, ok := pkg.GetFunction(canonical(inv.Function))
		if !ok {
			c.problem("variable %s: no function %s in the package", name, canonical(inv.Function))
			continue
		}
		c.variables[name] = fn
		c.object("variable "+name, inv.Arguments, fn.Inputs.Properties)
	}
	c.config = prog.Config
	for name, r := range prog.Resources {
		if res := c.resources[name]; res != nil {
			c.object("resource "+name, r.Properties, res.InputProperties)
		}
		for opt, v := range r.Options {
			if !slices.Contains(resourceOptions, opt) {
				c.problem("resource %s: option %s is not a resource option", name, opt)
			}
			c.value("resource "+name+" option "+opt, v, pschema.AnyType)
		}
	}
	for name, v := range prog.Outputs {
		c.value("output "+name, v, pschema.AnyType)
	}
	sort.Strings(c.problems)
	return c.problems
}

// canonical is a type token with the index module spelled out ("fleet:Fleet" is "fleet:index:Fleet").
func canonical(token string) string {
	if parts := strings.Split(token, ":"); len(parts) == 2 {
		return parts[0] + ":index:" + parts[1]
	}
	return token
}

type yamlChecker struct {
	pkg       *pschema.Package
	config    map[string]map[string]any
	resources map[string]*pschema.Resource
	variables map[string]*pschema.Function
	problems  []string
}

func (c *yamlChecker) problem(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// object checks an object's keys against properties: each a property, each required property given.
func (c *yamlChecker) object(path string, v map[string]any, properties []*pschema.Property) {
	for key, value := range v {
		i := slices.IndexFunc(properties, func(p *pschema.Property) bool { return p.Name == key })
		if i < 0 {
			c.problem("%s: %s: not an input", path, key)
			continue
		}
		if s, ok := value.(string); ok && properties[i].Plain && c.isOutput(s) {
			c.problem("%s: %s: a plain input, which takes no resource output (%s)", path, key, s)
		}
		c.value(path+"."+key, value, properties[i].Type)
	}
	for _, p := range properties {
		if _, ok := v[p.Name]; !ok && p.IsRequired() {
			c.problem("%s: %s: required", path, p.Name)
		}
	}
}

var interpolation = regexp.MustCompile(`^\$\{([^}]+)\}$`)

// value checks a value against a schema type; an interpolation stands for any type once its reference resolves.
func (c *yamlChecker) value(path string, v any, t pschema.Type) {
	if s, ok := v.(string); ok && strings.Contains(s, "${") {
		m := interpolation.FindStringSubmatch(s)
		if m == nil {
			c.problem("%s: %q: only whole ${...} references are checked", path, s)
			return
		}
		c.reference(path, m[1])
		return
	}
	switch tt := t.(type) {
	case *pschema.OptionalType:
		c.value(path, v, tt.ElementType)
	case *pschema.InputType:
		c.value(path, v, tt.ElementType)
	case *pschema.ArrayType:
		items, ok := v.([]any)
		if !ok {
			c.problem("%s: want a list", path)
			return
		}
		for i, item := range items {
			c.value(fmt.Sprintf("%s[%d]", path, i), item, tt.ElementType)
		}
	case *pschema.MapType:
		m, ok := v.(map[string]any)
		if !ok {
			c.problem("%s: want a map", path)
			return
		}
		for k, item := range m {
			c.value(path+"."+k, item, tt.ElementType)
		}
	case *pschema.ObjectType:
		m, ok := v.(map[string]any)
		if !ok {
			c.problem("%s: want an object (%s)", path, tt.Token)
			return
		}
		for key := range m {
			if _, ok := tt.Property(key); !ok {
				c.problem("%s.%s: not a property of %s", path, key, tt.Token)
			}
		}
		c.object(path, m, tt.Properties)
	default:
		c.scalar(path, v, t)
	}
}

// scalar checks a primitive value, and walks the values of an untyped one (options, outputs).
func (c *yamlChecker) scalar(path string, v any, t pschema.Type) {
	var ok bool
	switch t {
	case pschema.StringType:
		_, ok = v.(string)
	case pschema.BoolType:
		_, ok = v.(bool)
	case pschema.IntType:
		f, isNumber := v.(float64)
		ok = isNumber && f == float64(int64(f))
	case pschema.NumberType:
		_, ok = v.(float64)
	default:
		ok = true
		switch vv := v.(type) {
		case []any:
			for i, item := range vv {
				c.value(fmt.Sprintf("%s[%d]", path, i), item, pschema.AnyType)
			}
		case map[string]any:
			for k, item := range vv {
				c.value(path+"."+k, item, pschema.AnyType)
			}
		}
	}
	if !ok {
		c.problem("%s: want %s, got %v", path, t, v)
	}
}

// isOutput tells whether a value is a reference to a resource's or a variable's output, unknown until the
// resource exists.
func (c *yamlChecker) isOutput(s string) bool {
	m := interpolation.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	name, _, _ := strings.Cut(m[1], ".")
	return c.resources[name] != nil || c.variables[name] != nil
}

// reference checks ${name} and ${name.property...}: a config key, a resource (with one of its outputs) or a
// variable (with one of its function's results).
func (c *yamlChecker) reference(path, ref string) {
	name, property, _ := strings.Cut(ref, ".")
	property, _, _ = strings.Cut(property, ".")
	var outputs []*pschema.Property
	switch {
	case c.resources[name] != nil:
		outputs = c.resources[name].Properties
	case c.variables[name] != nil && c.variables[name].Outputs != nil:
		outputs = c.variables[name].Outputs.Properties
	case c.config[name] != nil:
		if property != "" {
			c.problem("%s: ${%s}: config %s has no properties", path, ref, name)
		}
		return
	default:
		c.problem("%s: ${%s}: no resource, variable or config %s", path, ref, name)
		return
	}
	if property != "" && !slices.ContainsFunc(outputs, func(p *pschema.Property) bool { return p.Name == property }) {
		c.problem("%s: ${%s}: %s is not an output of %s", path, ref, property, name)
	}
}
