package fleet

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// tenants registers each tenant (tenant.NewTenant) onto the clusters it selects, in the fleet's order: the hub's
// objects through the hub's provider after Argo CD, each cluster's through a Kubernetes provider of its own
// (<cluster>-k8s, from its kubeconfig; the hub's is the hub's), made for the clusters some tenant selects only.
func (b *builder) tenants(hub *built, spokes []built) error {
	if len(b.args.Tenants) == 0 || hub == nil {
		return nil
	}
	clusters := append([]built{*hub}, spokes...)
	kube := map[string]pulumi.ProviderResource{hub.spec.Name: b.providers.hub}
	for _, t := range b.args.Tenants {
		var targets []tenant.Target
		for _, c := range clusters {
			if !t.Selects(tenantCluster(c.spec)) {
				continue
			}
			prov, ok := kube[c.spec.Name]
			if !ok {
				p, err := kubernetes.NewProvider(b.ctx, c.spec.Name+"-k8s", &kubernetes.ProviderArgs{
					Kubeconfig: pulumi.ToSecret(c.cl.Kubeconfig).(pulumi.StringOutput),
				}, pulumi.Parent(b.comp))
				if err != nil {
					return err
				}
				prov, kube[c.spec.Name] = p, p
			}
			awsProv, err := b.providers.aws(c.spec.Region, c.spec.AssumeRoleArn)
			if err != nil {
				return err
			}
			targets = append(targets, tenant.Target{Name: c.spec.Name, Region: c.spec.Region, ClusterArn: c.cl.ClusterArn,
				Endpoint: c.cl.Endpoint, CertificateAuthorityData: c.cl.CertificateAuthorityData,
				AssumeRoleArn: c.spec.AssumeRoleArn, AccountId: c.cl.AccountId, OidcProviderArn: c.cl.OidcProviderArn, OidcProviderUrl: c.cl.OidcProviderUrl,
				Kubernetes: prov, AWS: awsProv, ExternalSecrets: c.spec.Addons["external_secrets"]})
		}
		_, err := tenant.NewTenant(b.ctx, tenant.Deployment{Tenant: t, Targets: targets, Hub: b.providers.hub, Guard: b.drainProvider,
			ArgocdNamespace: gitopsbridge.DefaultNamespace, After: []pulumi.Resource{hub.bridge}}, pulumi.Parent(b.comp))
		if err != nil {
			return err
		}
	}
	return nil
}
