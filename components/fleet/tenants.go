package fleet

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// tenants registers each tenant (tenant.Deploy) onto the clusters it selects, in the fleet's order: the hub's
// objects through the hub's provider after Argo CD; each cluster's in-cluster objects with git committed to the
// registry repository (tenant.FilePath; a pull request per tenant from gitops-fleet/tenant-<name> with
// git.pullRequest), else through a Kubernetes provider of the cluster's own (<cluster>-k8s, from its kubeconfig;
// the hub's is the hub's), which every cluster some tenant selects gets: the tenant's admission policies (which pin
// its namespaces' Pod Security labels and SecretStores) are written through it in both modes. A cluster in
// handover (moving to Git in this run) gets both. Each tenant's guard on a cluster waits for the cluster's drain
// (drains, by cluster name), so a destroy asks the guard first. It returns the tenants' summaries, by name.
func (b *builder) tenants(hub *built, spokes []built, drains map[string]pulumi.Resource) (map[string]TenantSummary, error) {
	out := map[string]TenantSummary{}
	if len(b.p.Tenants) == 0 || hub == nil {
		return out, nil
	}
	clusters := append([]built{*hub}, spokes...)
	kube := map[string]pulumi.ProviderResource{hub.spec.Name: b.providers.hub}
	for _, t := range b.p.Tenants {
		d := tenant.Deployment{Tenant: t, Hub: b.providers.hub, Guard: b.drainProvider,
			ArgocdNamespace: gitopsbridge.DefaultNamespace, After: []pulumi.Resource{hub.bridge}}
		if g := b.p.Git; g != nil {
			target := tenant.GitTarget(*g, t.Name)
			gh, err := b.providers.github()
			if err != nil {
				return nil, err
			}
			d.Git, d.GitHub = &target, gh
		}
		for _, c := range clusters {
			if !c.spec.selects(t.Name) {
				continue
			}
			for _, w := range ingressWarnings(t, c.spec.Name, b.cidrs[c.spec.Name]) {
				_ = b.ctx.Log.Warn(w, &pulumi.LogArgs{Resource: b.comp})
			}
			handover := slices.Contains(b.handover, c.spec.Name)
			prov, ok := kube[c.spec.Name]
			if !ok {
				p, err := clusterinfo.NewKubernetesProvider(b.ctx, c.spec.Name+"-k8s", c.cl.Kubeconfig, pulumi.Parent(b.comp))
				if err != nil {
					return nil, err
				}
				prov, kube[c.spec.Name] = p, p
			}
			awsProv, err := b.providers.aws(c.spec.Region, c.spec.AssumeRoleArn)
			if err != nil {
				return nil, err
			}
			d.Targets = append(d.Targets, tenant.Target{Name: c.spec.Name, Region: c.spec.Region, ClusterArn: c.cl.ClusterArn,
				Endpoint: c.cl.Endpoint, CertificateAuthorityData: c.cl.CertificateAuthorityData,
				AssumeRoleArn: c.spec.AssumeRoleArn, AccountId: c.cl.AccountId, OidcProviderArn: c.cl.OidcProviderArn, OidcProviderUrl: c.cl.OidcProviderUrl,
				Kubernetes: prov, AWS: awsProv, ExternalSecrets: c.spec.Addons["external_secrets"], Velero: c.spec.Addons["velero"],
				PodIdentity: c.spec.Identity != fleetcluster.IdentityIRSA, Handover: handover, Drain: drains[c.spec.Name]})
		}
		if _, err := tenant.Deploy(b.ctx, d, pulumi.Parent(b.comp)); err != nil {
			return nil, err
		}
		summary := TenantSummary{Project: tenant.ProjectName(t.Name)}
		for _, c := range d.Targets {
			summary.Clusters = append(summary.Clusters, c.Name)
		}
		summary.Namespaces = t.NamespaceNames()
		if d.Git != nil {
			summary.Folder = tenant.Folder(t.Name)
		}
		out[t.Name] = summary
	}
	return out, nil
}

// ingressWarnings are the warnings for a tenant's ingressCidrs on a cluster whose VPC is vpcCidr: a network that
// overlaps the VPC lets in pods of every namespace too (the VPC CNI gives pods addresses of the VPC's subnets, so a
// NetworkPolicy ipBlock of the node subnets admits their pods), not only the load balancers it is meant for.
func ingressWarnings(t tenant.TenantSpec, cluster, vpcCidr string) []string {
	vpc, err := netip.ParsePrefix(vpcCidr)
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range t.Namespaces {
		for _, c := range n.IngressCidrs {
			if p, err := netip.ParsePrefix(c); err == nil && p.Overlaps(vpc) {
				out = append(out, fmt.Sprintf("tenant %s, namespace %s: ingressCidrs %s overlaps cluster %s's VPC %s, "+
					"where the pods of every namespace live too (the VPC CNI): allow-ingress-cidrs admits them; name the "+
					"load balancers' subnets only", t.Name, n.Name, c, cluster, vpcCidr))
			}
		}
	}
	return out
}
