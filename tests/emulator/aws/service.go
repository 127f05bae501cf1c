package aws

import (
	"encoding/base64"
	"os"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// CAEnv names the PEM file of the CA the offline network signs its certificates with.
const CAEnv = "FLEET_EMULATOR_CA"

// Version is the pulumi-aws version the plugin reports (the one the fleet's Go module uses).
const Version = "6.83.4"

// Service is the emulated AWS: resources live in the region of the configured provider (aws:region, else
// $AWS_REGION).
func Service() emulator.Service {
	if pem, err := os.ReadFile(os.Getenv(CAEnv)); err == nil {
		CAData = base64.StdEncoding.EncodeToString(pem)
	}
	return emulator.Service{
		Package: "aws",
		Version: Version,
		Scope: func(config property.Map) string {
			if r := emulator.Str(config, "region"); r != "" {
				return r
			}
			return os.Getenv("AWS_REGION")
		},
		Invokes: invokes,
		Kinds:   kinds,
		Default: defaultKind,
	}
}
