package gitopsbridge

import (
	"strings"

	helmv4 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/helm/v4"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

// hubAddons installs hub.stackAddons on the hub through k8s, each as the add-ons repository's ApplicationSet makes
// Argo CD install it (addons.HubChart: its chart, repository, version, release name and namespace, with the values it
// would write from the hub's cluster secret's annotations, and what the stack's apply needs to apply as Argo CD's
// does, StackValues): the chart rendered (a Helm v4 Chart, as Argo CD's repo server runs `helm template`) and each
// object applied server-side, no Helm release. So an object that already exists is taken over, as Argo CD's
// ServerSideApply would: one Argo CD installed before the add-on moved to the stack (the template's ApplicationSets
// keep what they installed, preserveResourcesOnDeletion), with the same values and so no conflicting field. A chart
// whose values read no annotation (HubChart.Static) gets them as they are, so a preview renders it while the
// annotations are unknown. After argocd (Argo CD's release, none on a managed hub): an add-on's admission webhook
// (the load balancer controller's for Services) then meets Argo CD's objects once they exist, not while its
// controller starts. The hub's secret labels them false (StackAddonsOff), so no ApplicationSet installs them there
// too.
func (b *builder) hubAddons(k8s pulumi.ProviderResource, annotations pulumi.StringMapOutput, argocd []pulumi.Resource) error {
	for _, name := range b.args.Hub.StackAddons {
		hc, _ := addons.HubChartOf(name) // Validate refused any other
		a, _ := addons.Lookup(name)
		var namespace pulumi.StringInput = pulumi.String(hc.NamespaceIn(name, nil))
		var values pulumi.MapInput = pulumi.ToMap(hc.StackValues(nil))
		if !hc.Static() {
			namespace = annotations.ApplyT(func(m map[string]string) string { return hc.NamespaceIn(name, m) }).(pulumi.StringOutput)
			values = annotations.ApplyT(func(m map[string]string) map[string]any { return hc.StackValues(m) }).(pulumi.MapOutput)
		}
		if _, err := helmv4.NewChart(b.ctx, childName(b.name, "addon-"+a.Chart), &helmv4.ChartArgs{
			Name:           pulumi.String(a.Chart),
			Chart:          pulumi.String(a.Chart),
			Version:        pulumi.String(hc.Version),
			RepositoryOpts: &helmv4.RepositoryOptsArgs{Repo: pulumi.String(hc.Repository)},
			Namespace:      namespace,
			Values:         values,
		}, b.child(k8s, pulumi.DependsOn(argocd))...); err != nil {
			return err
		}
	}
	return nil
}

// StackAddonsOff labels the add-ons a hub's stack installs itself (hub.stackAddons) false in enabled, the add-ons of
// the hub's cluster secret, and the add-ons each implies (addons.WithImplied: the EBS CSI driver's
// aws_ebs_csi_resources, whose label is the one its ApplicationSet selects), so that the add-ons repository's
// ApplicationSets select no hub for them. A nil enabled enables nothing and stays nil.
func StackAddonsOff(h *Hub, enabled map[string]bool) {
	if enabled == nil {
		return
	}
	for _, name := range ThroughStack(h) {
		enabled[name] = false
	}
}

// ThroughStack are the add-ons a hub's stack installs itself (hub.stackAddons) with those each implies
// (addons.WithImplied: the EBS CSI driver's aws_ebs_csi_resources, its storage classes): none for a nil hub.
func ThroughStack(h *Hub) []string {
	if h == nil {
		return nil
	}
	var out []string
	for _, name := range h.StackAddons {
		a, _ := addons.Lookup(name)
		out = append(append(out, name), a.Implies...)
	}
	return out
}

// checkStackAddons reports hub.stackAddons entries that are not add-ons a hub's stack installs (addons.HubAddons),
// or listed twice.
func checkStackAddons(ps *problems.List, h Hub) {
	seen := map[string]bool{}
	for i, name := range h.StackAddons {
		field := problems.Index("hub.stackAddons", i)
		switch _, ok := addons.HubChartOf(name); {
		case !ok:
			ps.Add(field, "%q is not an add-on the hub's stack installs; want one of %s (the others reach the hub only "+
				"through the add-ons repository, with hub.addonsOnHub)", name, strings.Join(addons.HubAddons(), ", "))
		case seen[name]:
			ps.Add(field, "%q is listed twice", name)
		}
		seen[name] = true
	}
}

// CheckStackAddonsEnabled reports each of stackAddons (at field[i]) that enabled, the hub cluster's add-ons, does not
// enable: the add-on's IAM role and the annotations its values are written from come from there. cluster names the
// hub's cluster and source where its add-ons are set, as the caller's input says them.
func CheckStackAddonsEnabled(ps *problems.List, field string, stackAddons []string, enabled map[string]bool,
	cluster, source string,
) {
	for i, name := range stackAddons {
		if !enabled[name] {
			ps.Add(problems.Index(field, i), "%s does not enable %q (%s): the add-on's IAM role and the annotations its "+
				"values are written from come from there", cluster, name, source)
		}
	}
}
