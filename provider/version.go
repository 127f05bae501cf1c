package provider

import "runtime/debug"

// version is set at build time: -ldflags "-X github.com/gitops-fleet/pulumi-fleet/provider.version=1.2.3".
var version string

// DevVersion is the version of a plugin built from source without a version stamp.
const DevVersion = "0.0.1-dev"

// Version is the plugin version: the stamped one, else the module version Go recorded (a `go install
// ...@v1.2.3` build), else DevVersion.
func Version() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v := info.Main.Version
		if len(v) > 1 && v[0] == 'v' {
			v = v[1:]
		}
		return v
	}
	return DevVersion
}
