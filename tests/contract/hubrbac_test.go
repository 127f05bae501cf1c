package contract

import (
	"encoding/json"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// rbacRequest is a request to the hub's API server as Kubernetes' RBAC authorizer reads it.
type rbacRequest struct {
	verb, group, resource, subresource, namespace, name, path string
}

func (r rbacRequest) attributes() authorizer.Attributes {
	if r.path != "" {
		return authorizer.AttributesRecord{Verb: r.verb, Path: r.path}
	}
	return authorizer.AttributesRecord{Verb: r.verb, APIGroup: r.group, APIVersion: "v1", Resource: r.resource,
		Subresource: r.subresource, Namespace: r.namespace, Name: r.name, ResourceRequest: true}
}

// clusterRoleRules are a chart component's clusterRoleRules in the final chart values, as RBAC rules; ok is false
// when the chart's own cluster role stays.
func clusterRoleRules(t *testing.T, values map[string]any, component string) (rules []rbacv1.PolicyRule, ok bool) {
	t.Helper()
	c, _ := values[component].(map[string]any)
	custom, _ := c["clusterRoleRules"].(map[string]any)
	if custom == nil || custom["enabled"] != true {
		return nil, false
	}
	raw, err := json.Marshal(custom["rules"])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rules); err != nil {
		t.Fatal(err)
	}
	return rules, true
}

// TestHubClusterRoles: what Argo CD's application controller and server may do on the hub, decided by Kubernetes'
// own RBAC authorizer from the cluster roles the chart values give them and the Roles the hub grants the
// controller (gitopsbridge.ControllerWrites). The controller of a hub that runs no add-on reads everything and
// writes only what the fleet's paths sync: never an admission policy, RBAC, a pod, a service-account token or
// Argo CD's own configuration, so no sync can lift the fleet's guards; with add-ons on the hub it keeps the chart's
// role. The server never deletes or patches the hub's objects.
func TestHubClusterRoles(t *testing.T) {
	args := hubArgs()
	values := gitopsbridge.ChartValues(*args.Hub, []string{addonsApps, workloadsApps})
	controller, narrowed := clusterRoleRules(t, values, "controller")
	if !narrowed {
		t.Fatal("a hub without add-ons keeps the chart's cluster role for the controller")
	}
	roles := map[string][]rbacv1.PolicyRule{}
	for _, w := range gitopsbridge.ControllerWrites(args) {
		roles[w.Namespace] = append(roles[w.Namespace], rbacv1.PolicyRule{APIGroups: []string{w.Group},
			Resources: w.Resources, Verbs: gitopsbridge.ControllerWriteVerbs})
	}
	controllerAllows := func(r rbacRequest) bool {
		return rbac.RulesAllow(r.attributes(), controller...) ||
			r.namespace != "" && rbac.RulesAllow(r.attributes(), roles[r.namespace]...)
	}
	server, ok := clusterRoleRules(t, values, "server")
	if !ok {
		t.Fatal("the server keeps the chart's cluster role")
	}
	serverAllows := func(r rbacRequest) bool { return rbac.RulesAllow(r.attributes(), server...) }
	const ar, vap = "admissionregistration.k8s.io", "validatingadmissionpolicies"
	cases := map[string]struct {
		allows func(rbacRequest) bool
		req    rbacRequest
		want   bool
	}{
		"controller: its cache lists Secrets": {controllerAllows, rbacRequest{verb: "list", resource: "secrets"}, true},
		"controller: discovery":               {controllerAllows, rbacRequest{verb: "get", path: "/version"}, true},
		"controller: a registry sync writes a cluster secret": {controllerAllows,
			rbacRequest{verb: "create", resource: "secrets", namespace: argocdNamespace}, true},
		"controller: the add-ons' bootstrap writes an ApplicationSet": {controllerAllows,
			rbacRequest{verb: "patch", group: "argoproj.io", resource: "applicationsets", namespace: addonsApps}, true},
		"controller: an Application's status": {controllerAllows,
			rbacRequest{verb: "update", group: "argoproj.io", resource: "applications", namespace: workloadsApps}, true},
		"controller: an event": {controllerAllows, rbacRequest{verb: "create", resource: "events", namespace: addonsApps}, true},
		"controller: deleting the cluster-secret guard": {controllerAllows,
			rbacRequest{verb: "delete", group: ar, resource: vap, name: gitopsbridge.ClusterSecretPolicyName}, false},
		"controller: rebinding a guard": {controllerAllows,
			rbacRequest{verb: "update", group: ar, resource: "validatingadmissionpolicybindings"}, false},
		"controller: a mutating policy": {controllerAllows,
			rbacRequest{verb: "create", group: ar, resource: "mutatingadmissionpolicies"}, false},
		"controller: a cluster role binding": {controllerAllows,
			rbacRequest{verb: "create", group: "rbac.authorization.k8s.io", resource: "clusterrolebindings"}, false},
		"controller: a role binding in Argo CD's namespace": {controllerAllows,
			rbacRequest{verb: "create", group: "rbac.authorization.k8s.io", resource: "rolebindings", namespace: argocdNamespace}, false},
		"controller: a pod in Argo CD's namespace": {controllerAllows,
			rbacRequest{verb: "create", resource: "pods", namespace: argocdNamespace}, false},
		"controller: a token of Argo CD's server": {controllerAllows, rbacRequest{verb: "create", resource: "serviceaccounts",
			subresource: "token", namespace: argocdNamespace, name: gitopsbridge.ServerServiceAccount}, false},
		"controller: argocd-cm": {controllerAllows,
			rbacRequest{verb: "update", resource: "configmaps", namespace: argocdNamespace, name: "argocd-cm"}, false},
		"controller: a Secret outside Argo CD's namespace": {controllerAllows,
			rbacRequest{verb: "create", resource: "secrets", namespace: "kube-system"}, false},
		"controller: an ApplicationSet in Argo CD's namespace": {controllerAllows,
			rbacRequest{verb: "create", group: "argoproj.io", resource: "applicationsets", namespace: argocdNamespace}, false},
		"controller: a Deployment in the add-ons' namespace": {controllerAllows,
			rbacRequest{verb: "create", group: "apps", resource: "deployments", namespace: addonsApps}, false},
		"controller: impersonation":       {controllerAllows, rbacRequest{verb: "impersonate", resource: "users"}, false},
		"server: a live manifest":         {serverAllows, rbacRequest{verb: "get", group: "apps", resource: "deployments", namespace: "kube-system"}, true},
		"server: pod logs":                {serverAllows, rbacRequest{verb: "get", resource: "pods", subresource: "log", namespace: "kube-system"}, true},
		"server: a Stack's live manifest": {serverAllows, rbacRequest{verb: "get", group: "pulumi.com", resource: "stacks", namespace: "fleet-prod"}, true},
		"server: a stage's Pulumi access token": {serverAllows,
			rbacRequest{verb: "get", resource: "secrets", namespace: "fleet-prod", name: "fleet-prod-pulumi-access-token"}, false},
		"server: a tenant's secrets":         {serverAllows, rbacRequest{verb: "get", resource: "secrets", namespace: "team-a"}, false},
		"server: Secrets of every namespace": {serverAllows, rbacRequest{verb: "list", resource: "secrets"}, false},
		"server: an Application created through its API": {serverAllows,
			rbacRequest{verb: "create", group: "argoproj.io", resource: "applications", namespace: addonsApps}, true},
		"server: deleting the cluster-secret guard": {serverAllows,
			rbacRequest{verb: "delete", group: ar, resource: vap, name: gitopsbridge.ClusterSecretPolicyName}, false},
		"server: patching any object": {serverAllows, rbacRequest{verb: "patch", group: "apps", resource: "deployments", namespace: argocdNamespace}, false},
		"server: a Job":               {serverAllows, rbacRequest{verb: "create", group: "batch", resource: "jobs", namespace: argocdNamespace}, false},
		"server: exec into a pod": {serverAllows,
			rbacRequest{verb: "create", resource: "pods", subresource: "exec", namespace: argocdNamespace}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.allows(tc.req); got != tc.want {
				t.Errorf("Kubernetes' RBAC authorizer allows %+v: %v, want %v", tc.req, got, tc.want)
			}
		})
	}
	args.Hub.AddonsOnHub = true
	if _, narrowed := clusterRoleRules(t, gitopsbridge.ChartValues(*args.Hub, nil), "controller"); narrowed {
		t.Error("with add-ons on the hub the controller's cluster role is narrowed: their charts' CRDs, cluster roles and webhooks would be refused")
	}
}
