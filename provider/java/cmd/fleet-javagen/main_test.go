package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJavaSDKIsCurrent regenerates the Java SDK from schema.json and compares it with sdk/java: a schema
// change without `make sdks`, or a hand edit of a generated file, fails here.
func TestJavaSDKIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	files, err := generate(filepath.Join(root, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "sdk", "java")
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
		if _, ok := files[filepath.ToSlash(rel)]; !ok && !strings.HasPrefix(rel, "target") {
			t.Errorf("%s: not generated; run `make sdks`", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pom.xml", "src/main/java/com/gitopsfleet/fleet/FleetCluster.java",
		"src/main/java/com/gitopsfleet/fleet/GitOpsBridge.java", "src/main/java/com/gitopsfleet/fleet/inputs/AddonSettingsArgs.java"} {
		if _, ok := files[want]; !ok {
			t.Errorf("the SDK lacks %s", want)
		}
	}
}
