// Command fleet-sdkgen generates the SDKs under an sdk folder from schema.json: `make sdks` runs
// fleet-sdkgen schema.json sdk.
package main

import (
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/provider/internal/sdkgen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fleet-sdkgen <schema.json> <sdk dir>")
		os.Exit(2)
	}
	if err := sdkgen.Write(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "fleet-sdkgen: %v\n", err)
		os.Exit(1)
	}
}
