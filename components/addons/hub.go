package addons

import (
	"maps"
	"slices"
)

// HubChart is how a hub's stack installs an add-on on the hub itself (GitOpsBridge hub.stackAddons), so that the
// add-ons repository does not reach the hub: the chart (the row's Chart, also the release name, as the template's
// ApplicationSets name releases), the repository and version the template's ApplicationSet names at
// TemplateRepository's commit, the namespace it deploys to and the values it writes from the cluster secret's
// annotations. The add-ons repository's value files (environments/<environment>/addons/<chart>/values.yaml) are not
// read: on the hub only the stack decides what runs.
type HubChart struct {
	// Repository is the Helm chart repository (values.addonChartRepository).
	Repository string
	// Version is the chart version (values.addonChartVersion).
	Version string
	// Namespace is the release's namespace when the ApplicationSet names a fixed one (values.addonChartNamespace);
	// otherwise the add-on identity's <prefix>_namespace annotation gives it (NamespaceIn). Each hub chart's is
	// kube-system, which every cluster has: the stack creates no namespace for them.
	Namespace string
	// ClusterScoped is true for a chart that renders cluster-scoped objects only, whose ApplicationSet names no
	// destination namespace (aws-ebs-csi-classes' StorageClasses): the release has no namespace (NamespaceIn is ""),
	// and Helm renders it in the default one, as Argo CD's repo server does.
	ClusterScoped bool
	// Values are the chart values the ApplicationSet's template writes (helm.values), from the annotations; nil for
	// a template that writes none (TemplateValues).
	Values func(annotations map[string]string) map[string]any
	// ApplyValues are values the stack adds to Values for its own apply, which the template does not write: what the
	// Kubernetes provider needs to apply an object as Argo CD's sync does (StackValues).
	ApplyValues map[string]any
}

// patchForce is the Kubernetes provider's annotation that has its server-side apply of an object force a conflict
// (take the conflicting fields from their manager), as Argo CD's ServerSideApply sync always does (gitops-engine's
// apply sets ForceConflicts); the provider's own applies do not force by default.
const patchForce = "pulumi.com/patchForce"

// TemplateValues are the values the template's ApplicationSet writes for a cluster whose secret carries annotations
// (Values; none when nil).
func (c HubChart) TemplateValues(annotations map[string]string) map[string]any {
	if c.Values == nil {
		return map[string]any{}
	}
	return c.Values(annotations)
}

// StackValues are the values the stack installs the chart with on a cluster whose secret carries annotations:
// TemplateValues, with ApplyValues merged in (maps merged key by key, ApplyValues' leaves winning).
func (c HubChart) StackValues(annotations map[string]string) map[string]any {
	return merged(c.TemplateValues(annotations), c.ApplyValues)
}

// Static is true for a chart whose values and namespace read no annotation (no Values; a fixed namespace or none):
// the stack knows them before the cluster's annotations are, so a preview that changes the annotations still renders
// the chart (a Helm v4 Chart renders nothing while its values are unknown, and the preview then lists its objects as
// deleted, though the up keeps them).
func (c HubChart) Static() bool { return c.Values == nil && (c.Namespace != "" || c.ClusterScoped) }

// merged is dst with src merged in, map by map; src's other values win. dst's maps are copied, not changed.
func merged(dst, src map[string]any) map[string]any {
	out := maps.Clone(dst)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range src {
		if sv, ok := v.(map[string]any); ok {
			if dv, ok := out[k].(map[string]any); ok {
				out[k] = merged(dv, sv)
				continue
			}
			out[k] = merged(nil, sv)
			continue
		}
		out[k] = v
	}
	return out
}

// hubCharts are the add-ons a hub's stack can install itself, each as the template's ApplicationSet at
// TemplateRepository's commit installs it (tests/contract renders those ApplicationSets with Argo CD's own
// ApplicationSet code and compares).
var hubCharts = map[string]HubChart{
	// The EBS CSI driver is the EKS managed add-on FleetCluster creates with its role; what the template's
	// ApplicationSet (addons-aws-csi-ebs-resources-appset.yaml, under the implied enable_aws_ebs_csi_resources)
	// installs is its storage classes: gp3, the default class, and gp2, which EKS also makes on every cluster (from
	// Kubernetes 1.30 without the default-class annotation). The stack's server-side apply takes EKS's gp2 over as
	// Argo CD's does: the same provisioner, parameters, reclaim policy and binding mode, none of which a StorageClass
	// lets change. On a cluster created before 1.30, EKS's gp2 carries the default-class annotation "true", which
	// the chart sets "false": Argo CD's forced apply takes that field from EKS, and so does the stack's, through the
	// chart's own gp2.annotations (patchForce). Removing the add-on from stackAddons deletes both classes (volumes
	// already bound keep theirs).
	"aws_ebs_csi_driver": {Repository: "https://gitops-bridge-dev.github.io/gitops-bridge-helm-charts", Version: "1.0.0",
		ClusterScoped: true,
		ApplyValues:   map[string]any{"gp2": map[string]any{"annotations": map[string]any{patchForce: "true"}}}},
	"aws_load_balancer_controller": {Repository: "https://aws.github.io/eks-charts", Version: "1.7.1",
		Values: func(m map[string]string) map[string]any {
			p := "aws_load_balancer_controller"
			return map[string]any{
				"vpcId":       m[VpcIDKey],
				"clusterName": m[ClusterNameKey],
				"serviceAccount": map[string]any{
					"name":        m[p+"_service_account"],
					"annotations": map[string]any{"eks.amazonaws.com/role-arn": m[p+IAMRoleArnSuffix]},
				},
			}
		}},
	"aws_for_fluentbit": {Repository: "https://aws.github.io/eks-charts", Version: "0.1.32",
		Values: func(m map[string]string) map[string]any {
			p := "aws_for_fluentbit"
			group := m[p+LogGroupNameSuffix]
			return map[string]any{
				"cloudWatchLogs": map[string]any{
					"enabled":      true,
					"region":       m[RegionKey],
					"logGroupName": group,
					// Fluent Bit's record accessors, which the chart passes through: each namespace's workloads to a
					// group below the add-on's (the add-on's IAM policy allows those), a stream per container.
					"logGroupTemplate":  group + "/workload/$kubernetes['namespace_name']",
					"logStreamTemplate": "$kubernetes['pod_name'].$kubernetes['container_name']",
					"logRetentionDays":  90,
				},
				"serviceAccount": map[string]any{
					"name":        m[p+"_service_account"],
					"annotations": map[string]any{"eks.amazonaws.com/role-arn": m[p+IAMRoleArnSuffix]},
				},
			}
		}},
	"metrics_server": {Repository: "https://kubernetes-sigs.github.io/metrics-server", Version: "3.12.0",
		Namespace: "kube-system"},
}

// HubChartOf is the hub chart of an add-on; false for an add-on a hub's stack does not install (HubAddons).
func HubChartOf(name string) (HubChart, bool) {
	c, ok := hubCharts[name]
	return c, ok
}

// HubAddons are the add-ons a hub's stack can install itself, sorted.
func HubAddons() []string { return slices.Sorted(maps.Keys(hubCharts)) }

// NamespaceIn is the namespace add-on name's release goes to on a cluster whose secret carries annotations.
// It is "" for a ClusterScoped chart.
func (c HubChart) NamespaceIn(name string, annotations map[string]string) string {
	if c.ClusterScoped {
		return ""
	}
	if c.Namespace != "" {
		return c.Namespace
	}
	a, _ := Lookup(name)
	if a.Identity == nil {
		return a.Chart
	}
	return annotations[a.Identity.Prefix(name)+NamespaceSuffix]
}
