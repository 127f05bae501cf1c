package upstream

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed manifest.tsv
var manifestTSV string

// File is a file of the upstream copy: its path in the copy and its SHA-256 (hex).
type File struct {
	Path, SHA256 string
}

// Files are the files of manifest.tsv, in its order. A malformed manifest panics: it is embedded, and this
// package's tests read it first.
var Files = parseManifest(manifestTSV)

// parseManifest reads `<sha256>\t<path>` lines; lines starting with # are comments.
func parseManifest(text string) []File {
	var files []File
	for n, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, path, ok := strings.Cut(line, "\t")
		if !ok || len(sum) != 64 || path == "" {
			panic(fmt.Sprintf("tests/upstream/manifest.tsv:%d: want `<sha256>\\t<path>`, got %q", n+1, line))
		}
		files = append(files, File{Path: path, SHA256: sum})
	}
	return files
}

// Manifest is manifest.tsv's text for files.
func Manifest(files []File) string {
	var b strings.Builder
	b.WriteString("# The pinned upstream files (tests/upstream): SHA-256, then the path in the upstream copy. Made by\n")
	b.WriteString("# `go run ./tests/upstream/cmd/upstream-manifest <copy>`; each file's source is in sources.go.\n")
	for _, f := range files {
		fmt.Fprintf(&b, "%s\t%s\n", f.SHA256, f.Path)
	}
	return b.String()
}
