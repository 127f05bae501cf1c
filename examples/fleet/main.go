// Command fleet is a multi-region Argo CD fleet from stack config: a hub cluster running Argo CD and spoke
// clusters it manages, in any AWS regions (see fleetstack and Pulumi.dev.yaml). Run it with `pulumi up` (Go
// language host), or offline through the Automation API with `make demo`.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
)

func main() { pulumi.Run(fleetstack.Run) }
