package gitopsbridge

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ComparisonGuide is the EKS User Guide page that lists what the managed Argo CD does not support ("Unsupported
// features"), and SettingsGuide the page on the one argocd-cm field it reads.
const (
	ComparisonGuide = "https://docs.aws.amazon.com/eks/latest/userguide/argocd-comparison.html"
	SettingsGuide   = "https://docs.aws.amazon.com/eks/latest/userguide/argocd-configure-settings.html"
	// PermissionsGuide is the EKS User Guide page that says the managed Argo CD reads Applications and
	// ApplicationSets in its own namespace only ("Source namespaces").
	PermissionsGuide = "https://docs.aws.amazon.com/eks/latest/userguide/argocd-permissions.html"
)

// ManagedRepositoryWarnings are the warnings a preview shows for each repository a managed hub bootstraps (a's
// addonsRepo and workloadsRepo): the repository's ApplicationSets live in its ApplicationsNamespace, the fence
// that keeps a commit to it inside its projects, and the EKS User Guide says the managed Argo CD reconciles
// Applications and ApplicationSets in its own namespace only. Nil for a self-managed hub.
func ManagedRepositoryWarnings(a GitOpsBridgeArgs) []string {
	if a.Hub == nil || !a.Hub.Managed() {
		return nil
	}
	var out []string
	for _, p := range givenPaths(a) {
		out = append(out, fmt.Sprintf("%sRepo: the managed Argo CD reconciles Applications and ApplicationSets in "+
			"its own namespace (%s) only (EKS User Guide, %s, \"Source namespaces\"), and this repository's "+
			"ApplicationSets live in %s: on AWS its %s would not deploy; see docs/managed-argocd.md", p.part,
			a.Namespace, PermissionsGuide, ApplicationsNamespace(a.Namespace, p.part), strings.ToLower(p.what)))
	}
	return out
}

// ManagedWarnings are the warnings a preview shows for a managed hub's settings that the managed Argo CD does not
// honour, as the EKS User Guide lists them: config management plugins (the chart's configs.cmp and repo server
// sidecars, a bootstrap object's plugin source), the notifications controller, argocd-cm options other than
// resource.customizations.health.* (configs.cm), the parameters ConfigMap (configs.params), and the chart's own
// settings, which have no chart to go to. Nil for a self-managed hub.
func ManagedWarnings(h Hub) []string {
	if !h.Managed() {
		return nil
	}
	var out []string
	ignored := func(field string) {
		out = append(out, fmt.Sprintf("hub.%s applies to mode selfManaged only: the managed Argo CD has no Helm "+
			"release, no management role and no pods of yours; ignored", field))
	}
	for _, f := range []struct {
		field string
		set   bool
	}{
		{"releaseName", h.ReleaseName != "" && h.ReleaseName != DefaultReleaseName},
		{"chartVersion", h.ChartVersion != "" && h.ChartVersion != DefaultChartVersion},
		{"chartRepository", h.ChartRepository != "" && h.ChartRepository != DefaultChartRepository},
		{"highAvailability", h.HighAvailability},
		{"serverClusterAccess", h.ServerClusterAccess},
		{"spokeAccountIds", len(h.SpokeAccountIds) > 0},
	} {
		if f.set {
			ignored(f.field)
		}
	}
	unsupported := func(field, what string) {
		out = append(out, fmt.Sprintf("hub.%s: %s is not supported by the managed Argo CD (EKS User Guide, %s); "+
			"ignored", field, what, ComparisonGuide))
	}
	configs, _ := h.Values["configs"].(map[string]any)
	repoServer, _ := h.Values["repoServer"].(map[string]any)
	notifications, _ := h.Values["notifications"].(map[string]any)
	if configs["cmp"] != nil {
		unsupported("values.configs.cmp", "a config management plugin")
	}
	if repoServer["extraContainers"] != nil {
		unsupported("values.repoServer.extraContainers", "a config management plugin (a repo server sidecar)")
	}
	if len(notifications) > 0 {
		unsupported("values.notifications", "the notifications controller")
	}
	if cm, _ := configs["cm"].(map[string]any); len(cm) > 0 {
		for _, k := range slices.Sorted(maps.Keys(cm)) {
			if !strings.HasPrefix(k, "resource.customizations.health.") {
				out = append(out, fmt.Sprintf("hub.values.configs.cm[%q]: the managed Argo CD reads only "+
					"resource.customizations.health.* from argocd-cm (EKS User Guide, %s); ignored", k, SettingsGuide))
			}
		}
	}
	if configs["params"] != nil {
		unsupported("values.configs.params", "argocd-cmd-params-cm")
	}
	for _, k := range slices.Sorted(maps.Keys(h.Values)) {
		if !slices.Contains([]string{"configs", "repoServer", "notifications"}, k) {
			ignored("values." + k)
		}
	}
	for i, obj := range h.Bootstrap {
		if usesPlugin(obj) {
			unsupported(fmt.Sprintf("bootstrap[%d]", i), "a config management plugin source (spec.source.plugin)")
		}
	}
	return out
}

// usesPlugin tells whether an Application, or an ApplicationSet's template, has a source of a config management
// plugin.
func usesPlugin(obj map[string]any) bool {
	spec, _ := obj["spec"].(map[string]any)
	if tmpl, ok := spec["template"].(map[string]any); ok {
		spec, _ = tmpl["spec"].(map[string]any)
	}
	sources, _ := spec["sources"].([]any)
	if src, ok := spec["source"]; ok {
		sources = append(sources, src)
	}
	for _, s := range sources {
		if m, _ := s.(map[string]any); m["plugin"] != nil {
			return true
		}
	}
	return false
}
