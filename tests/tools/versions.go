package tools

import (
	_ "embed"
	"fmt"
	"strings"
)

//go:embed versions.mk
var versionsMK string

// Tool is one entry of versions.mk: the make variable, the version, the folder of its module under tests/tools, and
// what it is, from the comment above it.
type Tool struct {
	Variable, Version, Folder, What string
}

// Tools are the entries of versions.mk in their order. A malformed table panics: it is embedded, so a test of this
// package fails first.
var Tools = parse(versionsMK)

// Version is the version of the make variable name (PULUMI_VERSION, KUBE_VERSION, ...); it panics on an unknown name,
// a programming error that every run of the caller's tests shows.
func Version(name string) string {
	for _, t := range Tools {
		if t.Variable == name {
			return t.Version
		}
	}
	panic(fmt.Sprintf("tests/tools: no %s in versions.mk", name))
}

// parse reads the table: a comment `# <folder>: <what>` then `NAME := version`; other comments are the header.
func parse(text string) []Tool {
	var tools []Tool
	var folder, what string
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			folder, what = "", ""
		case strings.HasPrefix(line, "#"):
			f, w, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), ": ")
			if ok && !strings.Contains(f, " ") {
				folder, what = f, w
			}
		default:
			name, version, ok := strings.Cut(line, ":=")
			if !ok || folder == "" {
				panic(fmt.Sprintf("tests/tools/versions.mk:%d: want `# <folder>: <what>` then `NAME := version`, got %q", n+1, line))
			}
			tools = append(tools, Tool{Variable: strings.TrimSpace(name), Version: strings.TrimSpace(version), Folder: folder, What: what})
			folder, what = "", ""
		}
	}
	return tools
}
