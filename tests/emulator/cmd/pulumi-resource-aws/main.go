// Command pulumi-resource-aws is the offline aws emulator (package emulator/aws). Test runs put it first on
// PATH so that the Pulumi engine loads it in place of the real provider.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	emu "github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

func main() { emulator.Serve(emu.Service()) }
