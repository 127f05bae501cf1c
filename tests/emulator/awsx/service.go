package awsx

import "github.com/gitops-fleet/pulumi-fleet/tests/emulator"

// Version is the pulumi-awsx version the plugin reports.
const Version = "2.22.0"

// Service is the emulated awsx: a component package, so no custom resources and no invokes.
func Service() emulator.Service {
	return emulator.Service{Package: "awsx", Version: Version, Construct: Construct}
}
