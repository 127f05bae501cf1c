// Command upstream-manifest writes tests/upstream/manifest.tsv from a local upstream copy (the folder given, laid out
// as ../shared/upstream): every file of it but SOURCES.md, with its SHA-256, in path order. Every file must have a
// source in tests/upstream/sources.go.
package main

import (
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/tests/upstream"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: upstream-manifest <upstream copy> <manifest.tsv>")
		os.Exit(2)
	}
	files, err := upstream.Scan(os.Args[1])
	if err == nil {
		err = os.WriteFile(os.Args[2], []byte(upstream.Manifest(files)), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "upstream-manifest:", err)
		os.Exit(1)
	}
}
