// Command fleet-annotate writes zz_annotate.go, the schema descriptions taken from the Go doc comments, in
// each package directory it is given: `make schema` runs it over the component packages.
package main

import (
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/provider/internal/annotate"
)

func main() {
	for _, dir := range os.Args[1:] {
		if err := annotate.Write(dir); err != nil {
			fmt.Fprintf(os.Stderr, "fleet-annotate: %v\n", err)
			os.Exit(1)
		}
	}
}
