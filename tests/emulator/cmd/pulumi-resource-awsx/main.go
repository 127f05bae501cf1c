// Command pulumi-resource-awsx is the offline awsx emulator (package emulator/awsx). Test runs put it first on
// PATH so that the Pulumi engine loads it in place of the real provider.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	emu "github.com/gitops-fleet/pulumi-fleet/tests/emulator/awsx"
)

func main() { emulator.Serve(emu.Service()) }
