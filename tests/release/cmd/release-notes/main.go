// Command release-notes prints the section of a version in CHANGELOG.md (the text under "## <version>" up to the
// next "## "), which the release workflow publishes as the GitHub release's notes. It fails when the changelog has
// no such section or it is empty, so a tag without notes is not released.
//
//	release-notes [-changelog CHANGELOG.md] <version>
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/tests/release/notes"
)

func main() {
	changelog := flag.String("changelog", "CHANGELOG.md", "the changelog to read")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: release-notes [-changelog CHANGELOG.md] <version>")
		os.Exit(2)
	}
	data, err := os.ReadFile(*changelog)
	if err == nil {
		var section string
		if section, err = notes.Section(string(data), flag.Arg(0)); err == nil {
			fmt.Print(section)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "release-notes:", err)
	os.Exit(1)
}
