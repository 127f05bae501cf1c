package provider

import (
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
)

// Name is the Pulumi package name.
const Name = "fleet"

// GoImportPath is the import path of the generated Go SDK.
const GoImportPath = "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"

// Provider is the fleet provider: FleetCluster and GitOpsBridge components with the package metadata.
func Provider() (p.Provider, error) {
	return build(infer.ComponentF(fleetcluster.NewFleetCluster), infer.ComponentF(gitopsbridge.NewGitOpsBridge))
}

// build is the provider serving components.
func build(components ...infer.InferredComponent) (p.Provider, error) {
	prov, err := infer.NewProviderBuilder().
		WithDisplayName("Pulumi Fleet").
		WithDescription("EKS cluster fleets with Argo CD in the GitOps Bridge pattern: FleetCluster builds a cluster "+
			"and the AWS identities of its add-ons; GitOpsBridge registers clusters into Argo CD through cluster secrets.").
		WithKeywords("pulumi", "kubernetes", "eks", "aws", "argocd", "gitops", "category/infrastructure", "kind/component").
		WithRepository("https://github.com/gitops-fleet/pulumi-fleet").
		WithHomepage("https://github.com/gitops-fleet/pulumi-fleet").
		WithPublisher("gitops-fleet").
		WithLicense("Apache-2.0").
		WithGoImportPath(GoImportPath).
		WithLanguageMap(languages()).
		WithModuleMap(map[tokens.ModuleName]tokens.ModuleName{
			"fleetcluster": "index",
			"gitopsbridge": "index",
			"clusterinfo":  "index",
		}).
		WithComponents(components...).
		Build()
	return withWholeUnknowns(prov, map[tokens.Type][]string{
		fleetcluster.TypeToken: objectInputsOf(fleetcluster.FleetClusterArgs{}),
		gitopsbridge.TypeToken: objectInputsOf(gitopsbridge.GitOpsBridgeArgs{}),
	}), err
}
