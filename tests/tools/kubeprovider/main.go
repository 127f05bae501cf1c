// Command pulumi-resource-kubernetes is the real Pulumi Kubernetes provider (github.com/pulumi/pulumi-kubernetes,
// provider module at the one version the Go module proxy serves), built here because its release binaries cannot be
// downloaded. Upstream's main embeds schema-embed.json, which its generate.go writes from the module's schema.json;
// kubeprovider-schema writes the same files beside this one (`make kubeprovider`), so this main is upstream's.
package main

import (
	_ "embed"

	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/provider"
	"github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version"
)

//go:embed schema-embed.json
var schema []byte

//go:embed terraform-mapping-embed.json
var terraformMapping []byte

func main() {
	provider.Serve("kubernetes", version.Version, schema, terraformMapping)
}
