// Command pulumi-resource-kubernetes is the offline kubernetes emulator (package emulator/kubernetes). Test runs put it first on
// PATH so that the Pulumi engine loads it in place of the real provider.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	emu "github.com/gitops-fleet/pulumi-fleet/tests/emulator/kubernetes"
)

func main() { emulator.Serve(emu.Service()) }
