package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	helmv3 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v3"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// charts are what the objects of each product wait for: its Helm release (which installs its CRDs), or
// nothing when it is already installed.
type charts struct {
	operator, kargo []pulumi.Resource
}

// install installs PKO, and Kargo after cert-manager (installed or present), unless already installed.
func (b *builder) install() (charts, error) {
	a, c := b.args, b.comp
	var out charts
	c.OperatorReleaseStatus = pulumi.String("").ToStringOutput()
	c.KargoReleaseStatus = pulumi.String("").ToStringOutput()
	if op := *a.Operator; !op.Existing {
		r, err := b.release("pulumi-kubernetes-operator", op.Namespace, OperatorChart, op.ChartVersion, "", op.Values, nil)
		if err != nil {
			return out, err
		}
		out.operator, c.OperatorReleaseStatus = []pulumi.Resource{r}, r.Status.Status()
	}
	k := *a.Kargo
	if k.Existing {
		return out, nil
	}
	var certManager []pulumi.Resource
	if k.CertManager == CertManagerInstall {
		r, err := b.release("cert-manager", defaultCertManagerNS, CertManagerChart, DefaultCertManagerChartVersion,
			CertManagerChartRepository, map[string]any{"crds": map[string]any{"enabled": true}}, nil)
		if err != nil {
			return out, err
		}
		certManager = []pulumi.Resource{r}
	}
	values := gitopsbridge.MergeValues(map[string]any{
		"api": map[string]any{"adminAccount": map[string]any{
			"passwordHash":    pulumi.ToSecret(k.AdminPasswordHash),
			"tokenSigningKey": pulumi.ToSecret(k.TokenSigningKey),
		}},
		"controller": map[string]any{"argocd": map[string]any{"namespace": a.ArgocdNamespace}},
	}, oidcValues(k.Oidc))
	values = gitopsbridge.MergeValues(values, k.Values)
	r, err := b.release("kargo", k.Namespace, KargoChart, k.ChartVersion, "", values, certManager)
	if err != nil {
		return out, err
	}
	out.kargo, c.KargoReleaseStatus = []pulumi.Resource{r}, r.Status.Status()
	return out, nil
}

// release installs chart at version into namespace (created first) as release name part, after the given
// resources. repo is "" for an OCI chart.
func (b *builder) release(part, namespace, chart, version, repo string, values map[string]any,
	after []pulumi.Resource,
) (*helmv3.Release, error) {
	ns, err := corev1.NewNamespace(b.ctx, childName(b.name, part+"-namespace"), &corev1.NamespaceArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(namespace)},
	}, b.child(b.k8s)...)
	if err != nil {
		return nil, err
	}
	args := &helmv3.ReleaseArgs{
		Name:      pulumi.String(part),
		Chart:     pulumi.String(chart),
		Version:   pulumi.String(version),
		Namespace: ns.Metadata.Name().Elem(),
		Values:    pulumi.ToMap(values),
	}
	if repo != "" {
		args.RepositoryOpts = &helmv3.RepositoryOptsArgs{Repo: pulumi.String(repo)}
	}
	return helmv3.NewRelease(b.ctx, childName(b.name, part), args, b.child(b.k8s, after...)...)
}

// oidcValues are the chart's api.oidc values of kargo.oidc (Kargo v1.11.2 charts/kargo/values.yaml): enabled,
// issuerURL, clientID, cliClientID and admins.claims. None without oidc.
func oidcValues(o *KargoOidc) map[string]any {
	if o == nil {
		return nil
	}
	oidc := map[string]any{"enabled": true, "issuerURL": o.IssuerUrl, "clientID": o.ClientId}
	if o.CliClientId != "" {
		oidc["cliClientID"] = o.CliClientId
	}
	if o.Admins != nil {
		oidc["admins"] = map[string]any{"claims": claimsOf(*o.Admins)}
	}
	return map[string]any{"api": map[string]any{"oidc": oidc}}
}
