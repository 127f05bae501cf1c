package sdkgen

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
)

// ModuleFiles are the Go SDK's module files, relative to its folder, kept by `go mod tidy` not the generator.
var ModuleFiles = []string{filepath.Join("fleet", "go.mod"), filepath.Join("fleet", "go.sum")}

// keepModule adds the Go SDK's current module files in dir to files, or a new go.mod when there is none.
func keepModule(dir string, files map[string][]byte) error {
	for _, name := range ModuleFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case err == nil:
			files[filepath.ToSlash(name)] = b
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	if _, ok := files["fleet/go.mod"]; !ok {
		files["fleet/go.mod"] = goMod()
	}
	return nil
}

// goMod is a new go.mod of the Go SDK: it requires the Pulumi Go SDK this generator was built with.
func goMod() []byte {
	version := "v3.259.0"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/pulumi/pulumi/sdk/v3" {
				version = d.Version
			}
		}
	}
	return fmt.Appendf(nil, "module %s\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n", GoModule, version)
}
