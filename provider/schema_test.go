package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/provider/internal/annotate"
	"github.com/google/go-cmp/cmp"
	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// committedSchema is the schema.json at the top of the repository.
func committedSchema(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// boundSchema is the committed schema.json, as written and bound.
func boundSchema(t *testing.T) (pschema.PackageSpec, *pschema.Package) {
	t.Helper()
	var spec pschema.PackageSpec
	if err := json.Unmarshal(committedSchema(t), &spec); err != nil {
		t.Fatal(err)
	}
	pkg, diags, err := pschema.BindSpec(spec, pschema.NewNullLoader(), pschema.ValidationOptions{})
	if err != nil || diags.HasErrors() {
		t.Fatalf("schema does not bind: %v %v", err, diags)
	}
	return spec, pkg
}

func TestSchemaIsCommitted(t *testing.T) {
	got, err := Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(committedSchema(t)), string(got)); diff != "" {
		t.Errorf("schema.json differs from the provider's schema; run `make schema` (-committed +provider):\n%s", diff)
	}
}

// TestSchemaDescriptionsAreCurrent: every annotated package (a components/* package with a zz_annotate.go) has its
// descriptions generated from its Go doc comments as they are now, and is among the Makefile's COMPONENTS, which
// `make schema` regenerates.
func TestSchemaDescriptionsAreCurrent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "components", "*", annotate.FileName))
	if err != nil || len(files) < 9 {
		t.Fatalf("annotated packages %v (%v); want the nine of the components", files, err)
	}
	makefile, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^COMPONENTS := (.*)$`).FindSubmatch(makefile)
	if line == nil {
		t.Fatal("the Makefile has no COMPONENTS line")
	}
	listed := strings.Fields(string(line[1]))
	for _, file := range files {
		path := filepath.Dir(file)
		t.Run(filepath.Base(path), func(t *testing.T) {
			if pkg := "components/" + filepath.Base(path); !slices.Contains(listed, pkg) {
				t.Errorf("%s is not among the Makefile's COMPONENTS: `make schema` leaves its %s as it is", pkg, annotate.FileName)
			}
			want, err := annotate.Generate(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s is stale; run `make schema` (-generated +committed):\n%s", annotate.FileName, diff)
			}
		})
	}
}

func TestSchemaBinds(t *testing.T) {
	spec, pkg := boundSchema(t)
	for _, token := range []string{"fleet:index:Fleet", "fleet:index:FleetCluster", "fleet:index:GitOpsBridge", "fleet:index:StackDelivery", "fleet:index:Tenant"} {
		r, ok := pkg.GetResource(token)
		if !ok || !r.IsComponent {
			t.Errorf("%s is not a component of the package", token)
		}
	}
	if pkg.Name != Name || pkg.License != "Apache-2.0" || pkg.Repository == "" {
		t.Errorf("package metadata: name %q, license %q, repository %q", pkg.Name, pkg.License, pkg.Repository)
	}
	for _, lang := range []string{"go", "nodejs", "python", "csharp", "java"} {
		if _, ok := spec.Language[lang]; !ok {
			t.Errorf("no %s package settings", lang)
		}
	}
}

// TestEveryOptionalInputStatesItsDefault: the description of every optional input of a resource or function, and
// of every optional property of a type they take (the types reachable from their inputs), says what applies when
// it is left out ("Default: ..." or a default named in the text).
func TestEveryOptionalInputStatesItsDefault(t *testing.T) {
	_, pkg := boundSchema(t)
	seen := map[string]bool{}
	var check func(where string, props []*pschema.Property)
	var walk func(t pschema.Type)
	walk = func(typ pschema.Type) {
		switch tt := typ.(type) {
		case *pschema.OptionalType:
			walk(tt.ElementType)
		case *pschema.InputType:
			walk(tt.ElementType)
		case *pschema.ArrayType:
			walk(tt.ElementType)
		case *pschema.MapType:
			walk(tt.ElementType)
		case *pschema.ObjectType:
			if !seen[tt.Token] {
				seen[tt.Token] = true
				check(tt.Token, tt.Properties)
			}
		}
	}
	check = func(where string, props []*pschema.Property) {
		for _, p := range props {
			if !p.IsRequired() && !strings.Contains(strings.ToLower(p.Comment), "default") {
				t.Errorf("%s.%s: the description does not say its default: %q", where, p.Name, p.Comment)
			}
			walk(p.Type)
		}
	}
	for _, r := range pkg.Resources {
		check(r.Token, r.InputProperties)
	}
	for _, f := range pkg.Functions {
		if f.Inputs != nil {
			check(f.Token, f.Inputs.Properties)
		}
	}
	if len(seen) < 30 {
		t.Errorf("walked %d input types; the schema has more", len(seen))
	}
}
