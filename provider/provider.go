package provider

import (
	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
)

// Name is the Pulumi package name.
const Name = "fleet"

// PluginDownloadURL is where the Pulumi CLI downloads a released plugin: the project's GitHub releases, each with
// the archives pulumi-resource-fleet-v<version>-<os>-<arch>.tar.gz that .goreleaser.yaml builds (Pulumi's
// github:// plugin source: https://github.com/gitops-fleet/pulumi-fleet/releases/download/v<version>/<archive>).
const PluginDownloadURL = "github://api.github.com/gitops-fleet/pulumi-fleet"

// GoImportPath is the import path of the generated Go SDK.
const GoImportPath = "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"

// Provider is the fleet provider: the Fleet, FleetCluster, GitOpsBridge, StackDelivery and Tenant components, Fleet's
// ClusterLedger, ClusterDrain and TenantGuard resources, the ArgoCDCapability resource and the provider's
// configuration, with the package metadata.
func Provider() (p.Provider, error) {
	return build([]infer.InferredComponent{
		infer.ComponentF(fleet.NewFleet),
		infer.ComponentF(fleetcluster.NewFleetCluster),
		infer.ComponentF(gitopsbridge.NewGitOpsBridge),
		infer.ComponentF(delivery.NewStackDelivery),
		infer.ComponentF(tenant.NewTenant),
	}, infer.Resource(ledger.ClusterLedger{}), infer.Resource(drain.ClusterDrain{}),
		infer.Resource(tenant.TenantGuard{}), infer.Resource(capability.ArgoCDCapability{}))
}

// build is the provider serving components and resources.
func build(components []infer.InferredComponent, resources ...infer.InferredResource) (p.Provider, error) {
	prov, err := infer.NewProviderBuilder().
		WithDisplayName("Pulumi Fleet").
		WithDescription("EKS cluster fleets with Argo CD in the GitOps Bridge pattern: Fleet builds a whole "+
			"multi-region fleet from typed data; FleetCluster builds a cluster and the AWS identities of its add-ons; "+
			"GitOpsBridge registers clusters into Argo CD through cluster secrets; StackDelivery delivers the fleet's own "+
			"stacks by GitOps (Pulumi Kubernetes Operator, Argo CD, Kargo); Tenant onboards a team onto the clusters it selects.").
		WithKeywords("pulumi", "kubernetes", "eks", "aws", "argocd", "gitops", "category/infrastructure", "kind/component").
		WithRepository("https://github.com/gitops-fleet/pulumi-fleet").
		WithHomepage("https://github.com/gitops-fleet/pulumi-fleet").
		WithPublisher("gitops-fleet").
		WithLicense("Apache-2.0").
		WithPluginDownloadURL(PluginDownloadURL).
		WithGoImportPath(GoImportPath).
		WithLanguageMap(languages()).
		WithModuleMap(map[tokens.ModuleName]tokens.ModuleName{
			"fleet":        "index",
			"fleetcluster": "index",
			"ledger":       "index",
			"gitopsbridge": "index",
			"clusterinfo":  "index",
			"delivery":     "index",
			"drain":        "index",
			"tenant":       "index",
			"capability":   "index",
		}).
		WithConfig(infer.Config(drain.Config{})).
		WithComponents(components...).
		WithResources(resources...).
		WithFunctions(infer.Function(drain.GetStillTagged{})).
		Build()
	return withExamples(withConfigUpdatedInPlace(withWholeUnknowns(prov, map[tokens.Type][]string{
		fleetcluster.TypeToken: objectInputsOf(fleetcluster.FleetClusterArgs{}),
		gitopsbridge.TypeToken: objectInputsOf(gitopsbridge.GitOpsBridgeArgs{}),
	}))), err
}
