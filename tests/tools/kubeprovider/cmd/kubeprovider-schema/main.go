// Command kubeprovider-schema writes schema-embed.json (the provider module's schema.json with its version set) and
// terraform-mapping-embed.json into the directory given, as pulumi-kubernetes' own cmd/pulumi-resource-kubernetes
// generate.go does: kubeprovider-schema <module dir> <version> <out dir>.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: kubeprovider-schema <pulumi-kubernetes provider module dir> <version> <out dir>")
		os.Exit(2)
	}
	if err := run(filepath.Join(os.Args[1], "cmd/pulumi-resource-kubernetes"), os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "kubeprovider-schema:", err)
		os.Exit(1)
	}
}

func run(src, version, out string) error {
	var schema map[string]any
	if err := readJSON(filepath.Join(src, "schema.json"), &schema); err != nil {
		return err
	}
	schema["version"] = version
	var mapping any
	if err := readJSON(filepath.Join(src, "terraform-mapping.json"), &mapping); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(out, "schema-embed.json"), schema); err != nil {
		return err
	}
	return writeJSON(filepath.Join(out, "terraform-mapping-embed.json"), mapping)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
