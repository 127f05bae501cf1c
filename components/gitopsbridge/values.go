package gitopsbridge

import (
	"maps"
	"strings"
)

// Service accounts of the Argo CD components that call AWS: the chart's names, set explicitly so the
// EKS Pod Identity associations always match.
const (
	ApplicationControllerServiceAccount = "argocd-application-controller"
	ApplicationSetServiceAccount        = "argocd-applicationset-controller"
	ServerServiceAccount                = "argocd-server"
)

// awsCaller is a chart component whose pods assume spoke roles: its key in the values and the name part of its Pod
// Identity association.
type awsCaller struct{ values, part string }

// awsCallers are the chart components whose pods assume spoke roles through the management role: the application
// controller (syncs) and the ApplicationSet controller (cluster generators), and Argo CD's server only with
// hub.serverClusterAccess (its API and UI reaching the spokes: live manifests, logs, resource actions). A server
// without it holds no AWS credential: whoever takes over its pod or its API gains no spoke.
func awsCallers(h Hub) []awsCaller {
	out := []awsCaller{{"controller", "application-controller"}, {"applicationSet", "applicationset-controller"}}
	if h.ServerClusterAccess {
		out = append(out, awsCaller{"server", "server"})
	}
	return out
}

// ChartValues are the argo-cd chart values: the component's (service account names; Applications and
// ApplicationSets in the namespaces appNamespaces, the repositories' ApplicationsNamespace, which the chart turns
// into argocd-cmd-params-cm's application.namespaces and applicationsetcontroller.namespaces and the ApplicationSet
// controller's cluster role, with the SCM provider generators off; the ApplicationSet controller's progressive
// syncs, for RollingSync by wave; the server's and, unless it is the hub's admin, the application controller's
// cluster role rules (serverClusterRoleRules, controllerClusterRoleRules); with high availability redis-ha and two
// replicas of the server, repo server and ApplicationSet controller, the chart's documented HA setup without
// autoscaling; with hub.controllerSharding the sharded controller's, ControllerValues), with the user's values
// merged over them.
func ChartValues(h Hub, appNamespaces []string) map[string]any {
	ours := map[string]any{
		"controller":     map[string]any{"serviceAccount": map[string]any{"name": ApplicationControllerServiceAccount}},
		"applicationSet": map[string]any{"serviceAccount": map[string]any{"name": ApplicationSetServiceAccount}},
		"server":         map[string]any{"serviceAccount": map[string]any{"name": ServerServiceAccount}},
	}
	if len(appNamespaces) > 0 {
		list := strings.Join(appNamespaces, ",")
		ours = MergeValues(ours, map[string]any{
			"configs": map[string]any{"params": map[string]any{
				"application.namespaces": list, "applicationsetcontroller.namespaces": list,
				// Argo CD's ApplicationSet controller refuses to start with ApplicationSets in any namespace unless the
				// SCM provider generators are off or limited to named providers (Argo CD's "ApplicationSet in any
				// namespace" docs: a generator could send an SCM token to a host of its author's choice). The
				// fleet's ApplicationSets use cluster generators only.
				"applicationsetcontroller.enable.scm.providers": "false",
			}},
			"applicationSet": map[string]any{"allowAnyNamespace": true},
		})
	}
	// The ApplicationSet controller steps an ApplicationSet with a RollingSync strategy through its steps, the
	// fleet's waves (WaveLabel, docs/waves.md), only when started with progressive syncs (argocd-cmd-params-cm's
	// applicationsetcontroller.enable.progressive.syncs, the flag --enable-progressive-syncs, off by default in Argo CD
	// 3.5); a set without a strategy syncs as before.
	ours = MergeValues(ours, map[string]any{"configs": map[string]any{"params": map[string]any{
		"applicationsetcontroller.enable.progressive.syncs": "true"}}})
	// Argo CD's server never writes the hub's objects but its Applications; the controller writes only the
	// fleet's paths unless it must be the hub's admin (serverClusterRoleRules, controllerClusterRoleRules).
	ours = MergeValues(ours, map[string]any{"server": map[string]any{
		"clusterRoleRules": map[string]any{"enabled": true, "rules": serverClusterRoleRules(appNamespaces)}}})
	if !hubControllerAdmin(h) {
		ours = MergeValues(ours, map[string]any{"controller": map[string]any{
			"clusterRoleRules": map[string]any{"enabled": true, "rules": controllerClusterRoleRules()}}})
	}
	if h.HighAvailability {
		ours = MergeValues(ours, map[string]any{
			"redis-ha":       map[string]any{"enabled": true},
			"controller":     map[string]any{"replicas": 1},
			"server":         map[string]any{"replicas": 2},
			"repoServer":     map[string]any{"replicas": 2},
			"applicationSet": map[string]any{"replicas": 2},
		})
	}
	ours = MergeValues(ours, ControllerValues(h.ControllerSharding))
	return MergeValues(ours, h.Values)
}

// MergeValues merges over into base as Helm merges values files: maps key by key, anything else replaced.
// Neither argument is changed.
func MergeValues(base, over map[string]any) map[string]any {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range over {
		bm, bok := out[k].(map[string]any)
		om, ook := v.(map[string]any)
		if bok && ook {
			out[k] = MergeValues(bm, om)
		} else {
			out[k] = v
		}
	}
	return out
}

// serviceAccountOf is the service account name of a chart component in the final values (a user may rename it).
func serviceAccountOf(values map[string]any, component string) string {
	c, _ := values[component].(map[string]any)
	sa, _ := c["serviceAccount"].(map[string]any)
	name, _ := sa["name"].(string)
	return name
}

// redisSecretInitServiceAccount is the service account of the chart's redis-secret-init Job (it creates the
// argocd-redis Secret), as argo-cd chart 10.1.1 names it: redisSecretInit.serviceAccount.name, else
// "<fullname>-<redisSecretInit.name>" (argo-cd.redisSecretInit.fullname in _helpers.tpl), where fullname is
// fullnameOverride, else the release name when it contains nameOverride (default "argocd"), else
// "<release>-<nameOverride>" (argo-cd.fullname in _common.tpl); "" when the chart makes no account for it.
func redisSecretInitServiceAccount(release string, values map[string]any) string {
	init, _ := values["redisSecretInit"].(map[string]any)
	sa, _ := init["serviceAccount"].(map[string]any)
	if name, _ := sa["name"].(string); name != "" {
		return name
	}
	if create, ok := sa["create"].(bool); ok && !create {
		return ""
	}
	trunc := func(s string) string { return strings.TrimSuffix(s[:min(len(s), 63)], "-") }
	fullname, _ := values["fullnameOverride"].(string)
	if fullname == "" {
		name, _ := values["nameOverride"].(string)
		if name == "" {
			name = "argocd"
		}
		fullname = release
		if !strings.Contains(release, name) {
			fullname = release + "-" + name
		}
	}
	part, _ := init["name"].(string)
	if part == "" {
		part = "redis-secret-init"
	}
	return trunc(trunc(fullname) + "-" + part)
}
