package gitopsbridge

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// TestControllerRoles: a hub whose Argo CD application controller is not its admin has the chart's cluster role
// replaced by read-only rules and grants the controller, namespace by namespace, what the fleet's paths write (the
// registry's Secrets in argocd, each repository's ApplicationSets in its namespace), before the registry and
// bootstrap Applications; with add-ons on the hub, or controllerClusterAdmin, the chart's role stays and no Role
// is written. Argo CD's server's cluster role never deletes or patches the hub's objects. What the rules allow is
// checked against Kubernetes' RBAC authorizer in the contract tests (TestHubClusterRoles) and on the real hub in
// TestRegistrationPullRequests.
func TestControllerRoles(t *testing.T) {
	git := &GitDelivery{Owner: "acme", Repository: "registry"}
	addons := &Repo{URL: "https://github.com/acme/addons", Path: "bootstrap"}
	workloads := &Repo{URL: "https://github.com/acme/workloads", Path: "apps"}
	cases := map[string]struct {
		reason string
		hub    Hub
		want   map[string][]string // namespace -> API group/resources the controller may write
	}{
		"the fleet's paths only": {reason: "the controller writes what the registry and the repositories sync, nothing else",
			want: map[string][]string{"argocd": {"/secrets"}, "argocd-addons": {"argoproj.io/applicationsets"},
				"argocd-workloads": {"argoproj.io/applicationsets"}}},
		"add-ons on the hub": {reason: "add-on charts carry CRDs, cluster roles and webhooks: the chart's role stays",
			hub: Hub{AddonsOnHub: true}, want: map[string][]string{}},
		"controllerClusterAdmin": {reason: "asked for: the chart's role stays", hub: Hub{ControllerClusterAdmin: true}, want: map[string][]string{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("PULUMI_CONFIG", `{"github:token":"ghp_canary"}`)
			args := hubArgs()
			args.Hub, args.Git, args.AddonsRepo, args.WorkloadsRepo = &tc.hub, git, addons, workloads
			cloud, _ := build(t, "hub", args)
			got := map[string][]string{}
			var bindings []string
			for _, r := range cloud.OfType("kubernetes:rbac.authorization.k8s.io/v1:Role") {
				md := r.Input("metadata").(map[string]any)
				if md["name"] != ControllerWriteRole {
					t.Errorf("a Role %v", md["name"])
				}
				rule := r.Input("rules").([]any)[0].(map[string]any)
				if verbs := rule["verbs"].([]any); !cmp.Equal(verbs, []any{"create", "update", "patch", "delete"}) {
					t.Errorf("Role in %v: verbs %v", md["namespace"], verbs)
				}
				for _, res := range rule["resources"].([]any) {
					ns := md["namespace"].(string)
					got[ns] = append(got[ns], rule["apiGroups"].([]any)[0].(string)+"/"+res.(string))
				}
			}
			for _, r := range cloud.OfType("kubernetes:rbac.authorization.k8s.io/v1:RoleBinding") {
				subjects := r.Input("subjects").([]any)
				if !cmp.Equal(subjects, []any{map[string]any{"kind": "ServiceAccount", "name": ApplicationControllerServiceAccount, "namespace": "argocd"}}) {
					t.Errorf("RoleBinding %s binds %v", r.Name, subjects)
				}
				bindings = append(bindings, mocks.URN(TypeToken, r.Type, r.Name))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: the controller's writes (-want +got):\n%s", tc.reason, diff)
			}
			if len(bindings) != len(tc.want) {
				t.Errorf("%d RoleBindings for %d Roles", len(bindings), len(tc.want))
			}
			// Argo CD syncs as soon as the registry and bootstrap Applications exist: the grants come first.
			for _, typ := range []string{applicationKind, "kubernetes:argoproj.io/v1alpha1:ApplicationSet"} {
				for _, a := range cloud.OfType(typ) {
					for _, b := range bindings {
						if !slices.Contains(a.Dependencies, b) {
							t.Errorf("%s %s is created before the controller's grant %s", typ, a.Name, b)
						}
					}
				}
			}
			values := cloud.MustGet(t, releaseType, "hub-argocd").Input("values").(map[string]any)
			rules, narrowed := values["controller"].(map[string]any)["clusterRoleRules"].(map[string]any)
			if narrowed != (len(tc.want) > 0) || narrowed && rules["enabled"] != true {
				t.Errorf("%s: the controller's clusterRoleRules %v", tc.reason, rules)
			}
			server := values["server"].(map[string]any)["clusterRoleRules"].(map[string]any)
			for _, r := range server["rules"].([]any) {
				r := r.(map[string]any)
				if slices.Contains(r["resources"].([]any), "*") && (slices.Contains(r["verbs"].([]any), "delete") || slices.Contains(r["verbs"].([]any), "patch")) {
					t.Errorf("Argo CD's server may %v every kind of the hub", r["verbs"])
				}
			}
		})
	}
}
