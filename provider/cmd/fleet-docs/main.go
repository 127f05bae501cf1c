// Command fleet-docs refreshes the generated parts of the docs of the repository whose root is its argument:
// docs/addons.md's add-on table from the contract table (components/addons), the text between
// <!-- addons:begin (make docs) --> and <!-- addons:end -->; docs/security.md's table of guards from every
// component's list (admission.Guards), between <!-- guards:begin (make docs) --> and <!-- guards:end -->; and every program included from an example file
// (provider/docinclude) in README.md, CONTRIBUTING.md, docs/*.md and tests/README.md (the pinned tools' table). `make
// docs` runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	_ "github.com/gitops-fleet/pulumi-fleet/components/delivery"     // its guards
	_ "github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge" // its guards
	_ "github.com/gitops-fleet/pulumi-fleet/components/tenant"       // its guards
	"github.com/gitops-fleet/pulumi-fleet/provider/docinclude"
)

const begin, end = "<!-- addons:begin (make docs) -->\n", "<!-- addons:end -->"

// GuardsBegin and GuardsEnd mark docs/security.md's table of guards.
const guardsBegin, guardsEnd = "<!-- guards:begin (make docs) -->\n", "<!-- guards:end -->"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fleet-docs <repository root>")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "fleet-docs:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return err
	}
	pages = append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "CONTRIBUTING.md")}, pages...)
	pages = append(pages, filepath.Join(root, "tests", "README.md"))
	read := func(path string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(path))) }
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			return err
		}
		s := string(data)
		if filepath.Base(page) == "addons.md" {
			i, j := strings.Index(s, begin), strings.Index(s, end)
			if i < 0 || j < i {
				return fmt.Errorf("%s: no %q ... %q markers", page, begin, end)
			}
			s = s[:i+len(begin)] + addons.Table() + s[j:]
		}
		if filepath.Base(page) == "security.md" {
			i, j := strings.Index(s, guardsBegin), strings.Index(s, guardsEnd)
			if i < 0 || j < i {
				return fmt.Errorf("%s: no %q ... %q markers", page, guardsBegin, guardsEnd)
			}
			s = s[:i+len(guardsBegin)] + admission.Table() + s[j:]
		}
		if s, err = docinclude.Refresh(s, read); err != nil {
			return fmt.Errorf("%s: %w", page, err)
		}
		if s != string(data) {
			if err := os.WriteFile(page, []byte(s), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
