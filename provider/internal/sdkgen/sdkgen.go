package sdkgen

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	dotnet "github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the generator name the SDKs' headers carry.
const tool = "pulumi-fleet"

// GoModule is the Go SDK's module; its go.mod is written next to the generated package.
const GoModule = "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"

// Languages are the SDK folders under sdk/, one per language.
var Languages = []string{"go", "nodejs", "python", "dotnet"}

var generators = map[string]func(*pschema.Package) (map[string][]byte, error){
	"go": func(pkg *pschema.Package) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	},
	"nodejs": func(pkg *pschema.Package) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, nil)
	},
	"python": func(pkg *pschema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, nil)
	},
	// .NET's generator lives with its language host (pulumi-dotnet), not in pulumi/pkg. It always fetches the
	// package icon with http.Get (pulumi's logo from GitHub when the schema names none), which cannot work offline
	// and would make the SDK depend on the network; it gets the project's logo from a file: URL instead.
	"dotnet": func(pkg *pschema.Package) (map[string][]byte, error) {
		pkg.LogoURL = logoURL
		return dotnet.GeneratePackage(tool, pkg, nil, nil)
	},
}

//go:embed logo.png
var logo embed.FS

// logoURL is logo.png served by the file: protocol registered on http.DefaultTransport.
const logoURL = "file:///logo.png"

func init() {
	http.DefaultTransport.(*http.Transport).RegisterProtocol("file", http.NewFileTransportFS(logo))
}

// Generate returns the files of one language's SDK, by path relative to its folder.
func Generate(schemaPath, lang string) (map[string][]byte, error) {
	generate, ok := generators[lang]
	if !ok {
		return nil, fmt.Errorf("no generator for %q", lang)
	}
	// Each generator decorates the package it is given, so each binds its own.
	pkg, err := bind(schemaPath)
	if err != nil {
		return nil, err
	}
	files, err := generate(pkg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lang, err)
	}
	return files, nil
}

// Write replaces <out>/<lang> with the generated SDK of every language, so a file the generator no longer
// makes does not linger. The Go SDK's go.mod and go.sum belong to `go mod tidy`: they are kept, and a
// go.mod is written when there is none.
func Write(schemaPath, out string) error {
	for _, lang := range Languages {
		files, err := Generate(schemaPath, lang)
		if err != nil {
			return err
		}
		dir := filepath.Join(out, lang)
		if lang == "go" {
			if err := keepModule(dir, files); err != nil {
				return err
			}
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		for name, content := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, content, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

func bind(path string) (*pschema.Package, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec pschema.PackageSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pkg, diags, err := pschema.BindSpec(spec, pschema.NewNullLoader(), pschema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return pkg, nil
}
