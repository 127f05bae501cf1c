package sdkgen

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSDKsAreCurrent regenerates every SDK from schema.json and compares it with sdk/: a change of the
// schema without `make sdks`, or a hand edit of a generated file, fails here.
func TestSDKsAreCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	for _, lang := range Languages {
		t.Run(lang, func(t *testing.T) {
			files, err := Generate(filepath.Join(root, "schema.json"), lang)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, "sdk", lang)
			for name, want := range files {
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("%s: missing; run `make sdks`", name)
				} else if string(got) != string(want) {
					t.Errorf("%s: differs from the generator's output; run `make sdks`", name)
				}
			}
			err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				rel, _ := filepath.Rel(dir, path)
				if _, ok := files[filepath.ToSlash(rel)]; !ok && !untracked(lang, rel) {
					t.Errorf("%s: not generated; run `make sdks`", rel)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// untracked are files in an SDK folder that the generator does not write: the Go SDK's module files (kept
// by go mod tidy) and what the SDK checks leave behind (ignored by git).
func untracked(lang, rel string) bool {
	switch lang {
	case "go":
		return slices.Contains(ModuleFiles, rel)
	case "nodejs":
		return strings.HasPrefix(rel, "node_modules") || strings.HasPrefix(rel, "bin")
	}
	return false
}
