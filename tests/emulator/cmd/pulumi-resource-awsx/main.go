// Command pulumi-resource-awsx is the offline awsx emulator (package emulator/awsx). Test runs put it first on
// PATH so that the Pulumi engine loads it in place of the real provider.
package main

import (
	"context"
	"fmt"
	"os"

	p "github.com/pulumi/pulumi-go-provider"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	emu "github.com/gitops-fleet/pulumi-fleet/tests/emulator/awsx"
)

func main() {
	svc := emu.Service()
	if err := p.RunProvider(context.Background(), svc.Package, svc.Version, emulator.New(svc)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
