package tenant

import (
	"fmt"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// ProjectName is the Argo CD project of a tenant.
func ProjectName(tenant string) string { return "tenant-" + tenant }

// PlatformKinds are the namespaced kinds a tenant's Applications may not create or change: they are the
// platform's, set by the Tenant (the namespace's NetworkPolicies, ResourceQuota, LimitRange) or a way around
// them (RoleBinding and Role: Argo CD projects deny by kind, so a RoleBinding to a ClusterRole cannot be told
// from another). Every cluster-scoped kind is denied too (the project allows none).
var PlatformKinds = []gitopsbridge.GroupKind{
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"},
	{Group: "", Kind: "ResourceQuota"},
	{Group: "", Kind: "LimitRange"},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"},
	{Group: "rbac.authorization.k8s.io", Kind: "Role"},
	{Group: "external-secrets.io", Kind: "SecretStore"},
}

// WorkloadKinds are the namespaced kinds a tenant's Applications may create by default
// (gitopsbridge.WorkloadKinds). Everything else (an ACK AdoptedResource, a TargetGroupBinding, an AWSPCAIssuer, VPC
// Lattice and Gateway kinds, Endpoints and EndpointSlices written by hand, an Ingress) only when the tenant names it
// in extraKinds.
var WorkloadKinds = gitopsbridge.WorkloadKinds

// Kinds are the namespaced kinds the tenant's Applications may create: WorkloadKinds and its extraKinds.
func (t TenantSpec) Kinds() []gitopsbridge.GroupKind {
	out := slices.Clone(WorkloadKinds)
	for _, k := range t.ExtraKinds {
		out = append(out, gitopsbridge.GroupKind{Group: k.Group, Kind: k.Kind})
	}
	return out
}

// Project is the tenant's Argo CD AppProject in Argo CD's namespace on the hub: its source repositories, its
// destinations (each selected cluster, by name, times each of its namespaces), no cluster-scoped kind, of namespaced
// kinds its Kinds only (and never a platform kind), a role per owner access level for the owners' groups, and its
// sync windows.
func Project(t TenantSpec, clusters []string, argocdNamespace string) map[string]any {
	var dests []gitopsbridge.ProjectDestination
	for _, c := range clusters {
		for _, n := range t.Namespaces {
			dests = append(dests, gitopsbridge.ProjectDestination{Name: c, Namespace: n.Name})
		}
	}
	obj := gitopsbridge.AppProject{
		Name: ProjectName(t.Name), Namespace: argocdNamespace,
		Description:        fmt.Sprintf("Tenant %s: its workloads into its namespaces on the clusters it selects", t.Name),
		SourceRepos:        t.SourceRepos,
		Destinations:       dests,
		NamespaceResources: t.Kinds(),
	}.Object()
	spec := obj["spec"].(map[string]any)
	deny := make([]any, len(PlatformKinds))
	for i, gk := range PlatformKinds {
		deny[i] = map[string]any{"group": gk.Group, "kind": gk.Kind}
	}
	spec["namespaceResourceBlacklist"] = deny
	if roles := projectRoles(t); len(roles) > 0 {
		spec["roles"] = roles
	}
	if len(t.SyncWindows) > 0 {
		windows := make([]any, len(t.SyncWindows))
		for i, w := range t.SyncWindows {
			windows[i] = map[string]any{"kind": w.Kind, "schedule": w.Schedule, "duration": w.Duration,
				"manualSync": w.ManualSync, "applications": []any{"*"}}
		}
		spec["syncWindows"] = windows
	}
	return obj
}

// projectRoles are a role per access level the owners hold, with the owners' groups: admin and edit may do
// everything to the project's Applications; view may read them (Argo CD RBAC policy lines,
// "p, proj:<project>:<role>, applications, <action>, <project>/*, allow").
func projectRoles(t TenantSpec) []any {
	groups := map[string][]any{}
	for _, o := range t.Owners {
		for _, g := range o.Groups {
			groups[o.Access] = append(groups[o.Access], g)
		}
	}
	project := ProjectName(t.Name)
	var roles []any
	for _, access := range []string{"admin", "edit", "view"} {
		if len(groups[access]) == 0 {
			continue
		}
		action := "*"
		if access == "view" {
			action = "get"
		}
		roles = append(roles, map[string]any{
			"name":        access,
			"description": fmt.Sprintf("owners of tenant %s with %s access", t.Name, access),
			"policies":    []any{fmt.Sprintf("p, proj:%s:%s, applications, %s, %s/*, allow", project, access, action, project)},
			"groups":      groups[access],
		})
	}
	return roles
}
