// Command fleet-schema writes the provider's schema (version removed) to the file named by its argument,
// or to standard output: `make schema` runs it to refresh schema.json.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/provider"
)

func main() {
	schema, err := provider.Schema(context.Background())
	if err == nil {
		if len(os.Args) > 1 {
			err = os.WriteFile(os.Args[1], schema, 0o644)
		} else {
			_, err = os.Stdout.Write(schema)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fleet-schema: %v\n", err)
		os.Exit(1)
	}
}
