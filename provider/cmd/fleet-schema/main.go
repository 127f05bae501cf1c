// Command fleet-schema writes the provider's schema to the file named by its argument, or to standard output:
// `make schema` runs it to refresh schema.json (no version), and `make release-sdks` with -version, the
// release's version, which the SDK generators stamp into every SDK's package metadata.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/provider"
)

func main() {
	version := flag.String("version", "", "the package version to put into the schema (1.2.3); none when empty")
	flag.Parse()
	schema, err := provider.VersionedSchema(context.Background(), *version)
	if err == nil {
		if flag.NArg() > 0 {
			err = os.WriteFile(flag.Arg(0), schema, 0o644)
		} else {
			_, err = os.Stdout.Write(schema)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fleet-schema: %v\n", err)
		os.Exit(1)
	}
}
