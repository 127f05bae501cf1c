// Command pulumi-resource-github is the offline github emulator (package emulator/github). Test runs put it first on
// PATH so that the Pulumi engine loads it in place of the real provider.
package main

import (
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	emu "github.com/gitops-fleet/pulumi-fleet/tests/emulator/github"
)

func main() { emulator.Serve(emu.Service()) }
