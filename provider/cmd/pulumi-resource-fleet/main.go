// Command pulumi-resource-fleet is the fleet provider plugin: it serves Fleet, FleetCluster, GitOpsBridge and
// the ClusterLedger to the Pulumi engine over gRPC.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/provider"
	p "github.com/pulumi/pulumi-go-provider"
)

func main() {
	stopProfile, err := startProfile()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-fleet: %v\n", err)
		os.Exit(1)
	}
	defer stopProfile()
	prov, err := provider.Provider()
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-resource-fleet: %v\n", err)
		os.Exit(1)
	}
	if err := p.RunProvider(context.Background(), provider.Name, provider.Version(), prov); err != nil {
		stopProfile()
		fmt.Fprintf(os.Stderr, "pulumi-resource-fleet: %v\n", err)
		os.Exit(1)
	}
}
