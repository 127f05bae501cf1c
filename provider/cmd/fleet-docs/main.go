// Command fleet-docs rewrites the add-on table of docs/addons.md from the contract table (components/addons): the text
// between <!-- addons:begin (make docs) --> and <!-- addons:end -->.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

const begin, end = "<!-- addons:begin (make docs) -->\n", "<!-- addons:end -->"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fleet-docs docs/addons.md")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		fmt.Fprintf(os.Stderr, "%s: no %q ... %q markers\n", os.Args[1], begin, end)
		os.Exit(1)
	}
	out := s[:i+len(begin)] + addons.Table() + s[j:]
	if err := os.WriteFile(os.Args[1], []byte(out), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
