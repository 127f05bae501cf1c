package fleet_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	. "github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// withTenants is DevFleet with two tenants: payments on every spoke, search on spoke-a only.
func withTenants() FleetArgs {
	a := DevFleet()
	a.Tenants = []tenant.TenantSpec{
		{Name: "payments", Namespaces: []tenant.TenantNamespace{{Name: "payments", ServiceAccounts: []tenant.TenantServiceAccount{
			{Name: "ledger", ManagedPolicyArns: []string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}},
			{Name: "web"}}}, {Name: "payments-batch"}},
			Owners:    []tenant.TenantOwner{{Arn: "arn:aws:iam::111122223333:role/payments", Groups: []string{"payments"}}},
			Workloads: &tenant.TenantWorkloads{URL: "https://github.com/acme/payments-deploy", Path: "clusters"}},
		{Name: "search", Clusters: &tenant.TenantSelector{Clusters: []string{"spoke-a"}},
			Namespaces: []tenant.TenantNamespace{{Name: "search"}},
			Owners: []tenant.TenantOwner{{Arn: "arn:aws:iam::111122223333:role/payments", Access: "view"},
				{Arn: "arn:aws:iam::111122223333:role/search"}}},
	}
	return a
}

func TestTenantsOntoTheClustersTheySelect(t *testing.T) {
	cloud, f := build(t, withTenants())
	summary := mocks.Await[map[string]TenantSummary](t, f.Tenants)
	if got := summary["search"]; !reflect.DeepEqual(got, TenantSummary{Clusters: []string{"spoke-a"}, Namespaces: []string{"search"},
		Project: "tenant-search"}) || !reflect.DeepEqual(summary["payments"].Clusters, []string{"spoke-a", "spoke-b"}) {
		t.Errorf("tenants output %+v", summary)
	}
	for _, name := range []string{"payments", "search"} {
		cloud.MustGet(t, tenant.TypeToken, name)
	}
	project := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "payments-project")
	if !strings.Contains(project.Provider, "::hub-k8s::") {
		t.Errorf("the tenant's project goes through %s, want the hub's provider", project.Provider)
	}
	raw, _ := json.Marshal(project.Input("spec"))
	for _, want := range []string{`{"name":"spoke-a","namespace":"payments"}`, `{"name":"spoke-b","namespace":"payments-batch"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("payments' project has no destination %s: %s", want, raw)
		}
	}
	if strings.Contains(string(raw), `"name":"hub"`) {
		t.Errorf("payments' project names the hub, which it does not select: %s", raw)
	}
	cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:ApplicationSet", "payments-workloads")
	if _, ok := cloud.Named("kubernetes:argoproj.io/v1alpha1:ApplicationSet", "search-workloads"); ok {
		t.Error("search has no workloads repository, but got an ApplicationSet")
	}
	ns := cloud.MustGet(t, "kubernetes:core/v1:Namespace", "payments-spoke-b-payments")
	if !strings.Contains(ns.Provider, "::spoke-b-k8s::") {
		t.Errorf("payments' namespace on spoke-b goes through %s, want spoke-b's provider", ns.Provider)
	}
	for _, r := range []string{"kubernetes:core/v1:ResourceQuota", "kubernetes:core/v1:LimitRange",
		"kubernetes:networking.k8s.io/v1:NetworkPolicy"} {
		if len(cloud.OfType(r)) == 0 {
			t.Errorf("no %s", r)
		}
	}
	if _, ok := cloud.Named("kubernetes:core/v1:Namespace", "search-spoke-b-search"); ok {
		t.Error("search selects spoke-a only, but got a namespace on spoke-b")
	}
	if n := len(cloud.OfType("kubernetes:core/v1:Namespace")); n != 2*2+1+2 {
		// payments: 2 namespaces x 2 spokes; search: 1 on spoke-a; and the hub's argocd and argocd-addons namespaces.
		t.Errorf("%d namespaces", n)
	}
	guard := cloud.MustGet(t, tenant.GuardToken, "payments-spoke-b-guard")
	if !strings.Contains(guard.Provider, "::fleet-ledger::") || guard.Input("preventDeletion") != true ||
		!dependsOn(guard, "kubernetes:core/v1:Namespace", "payments-spoke-b-payments") ||
		!dependsOn(guard, "kubernetes:argoproj.io/v1alpha1:AppProject", "payments-project") {
		t.Errorf("payments' guard on spoke-b: provider %s, preventDeletion %v, dependencies %v", guard.Provider,
			guard.Input("preventDeletion"), guard.Dependencies)
	}
	// A destroy asks the guard before spoke-b's drain deletes its claims, the tenant's among them.
	if !dependsOn(guard, drain.TypeToken, "spoke-b-drain") {
		t.Errorf("payments' guard on spoke-b does not depend on spoke-b's drain: %v", guard.Dependencies)
	}
	eks := cloud.MustGet(t, "eks:index:Cluster", "spoke-a-cluster")
	entries, _ := json.Marshal(eks.Input("accessEntries"))
	for _, want := range []string{`"principalArn":"arn:aws:iam::111122223333:role/payments"`,
		`"policyArn":"arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminPolicy"`,
		`"namespaces":["payments","payments-batch"]`, `"namespaces":["search"]`,
		`"policyArn":"arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy"`} {
		if !strings.Contains(string(entries), want) {
			t.Errorf("spoke-a's access entries have no %s: %s", want, entries)
		}
	}
	hubEntries, _ := json.Marshal(cloud.MustGet(t, "eks:index:Cluster", "hub-cluster").Input("accessEntries"))
	if strings.Contains(string(hubEntries), "role/payments") {
		t.Errorf("the hub, which no tenant selects, gives a tenant owner access: %s", hubEntries)
	}
}

func TestTenantsAreCheckedAcrossTheFleet(t *testing.T) {
	a := withTenants()
	a.Tenants[1].Name = "payments"
	a.Tenants[1].Namespaces[0].Name = "payments-batch"
	a.Tenants[1].Clusters = &tenant.TenantSelector{Clusters: []string{"spoke-z"}, Environments: []string{"prod"}}
	err := Check(a, "test")
	for _, want := range []string{`tenants[1].name: "payments" is also the name of tenants[0]`,
		`tenants[1].clusters.clusters[0]: "spoke-z" is not a cluster of the fleet`,
		`tenants[1].clusters.environments[0]: "prod" is not an environment of the fleet`,
		`tenants[1].clusters: selects no cluster`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v\nwant %q", err, want)
		}
	}
}

// TestTenantClustersEnforceNetworkPolicies: a cluster some tenant selects turns on the VPC CNI's network policy
// agent, so the tenants' NetworkPolicies are enforced; the hub, which none selects, does not.
func TestTenantClustersEnforceNetworkPolicies(t *testing.T) {
	cloud, _ := build(t, withTenants())
	for cluster, want := range map[string]any{"spoke-a": `{"enableNetworkPolicy":"true"}`, "spoke-b": `{"enableNetworkPolicy":"true"}`, "hub": nil} {
		if got := cloud.MustGet(t, "aws:eks/addon:Addon", cluster+"-vpc-cni").Input("configurationValues"); got != want {
			t.Errorf("%s's vpc-cni configuration %v, want %v", cluster, got, want)
		}
	}
}

// TestTenantsOffAccountWideAddons: a tenant is not onboarded onto a cluster running an add-on with an account-wide
// role unless it says so; narrowing the add-on's policy (policyArns) lifts the refusal.
func TestTenantsOffAccountWideAddons(t *testing.T) {
	for name, tc := range map[string]struct {
		settings fleetcluster.AddonSettings
		allow    bool
		want     string
	}{
		"accepted account-wide": {settings: fleetcluster.AddonSettings{AcceptAccountWide: []string{"ack_s3"}},
			want: `selects spoke-a, which runs add-ons with an account-wide role (ack_s3)`},
		"accepted, and the tenant allows it": {settings: fleetcluster.AddonSettings{AcceptAccountWide: []string{"ack_s3"}}, allow: true},
		"narrowed by policyArns": {settings: fleetcluster.AddonSettings{
			PolicyArns: map[string][]string{"ack_s3": {"arn:aws:iam::111122223333:policy/ack-s3-payments"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			a := withTenants()
			for i := range a.Clusters {
				if a.Clusters[i].Name == "spoke-a" {
					a.Clusters[i].Addons = map[string]bool{"ack_s3": true}
					settings := tc.settings
					a.Clusters[i].AddonSettings = &settings
				}
			}
			for i := range a.Tenants {
				a.Tenants[i].AllowAccountWideAddons = tc.allow
			}
			err := Check(a, "test")
			switch {
			case tc.want == "" && err != nil && strings.Contains(err.Error(), "account-wide role"):
				t.Errorf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate: %v\nwant %q", err, tc.want)
			}
		})
	}
}

func TestTenantNamespacesAreTheirs(t *testing.T) {
	a := withTenants()
	a.Tenants[1].Namespaces = append(a.Tenants[1].Namespaces, tenant.TenantNamespace{Name: "payments-batch"})
	cloud := mocks.New()
	err := cloud.Run(func(ctx *pulumi.Context) error {
		_, err := NewFleet(ctx, "fleet", a)
		return err
	})
	if n := len(cloud.Resources()); n != 0 {
		t.Errorf("%d resources registered", n)
	}
	if want := `tenants[1].namespaces[1].name: "payments-batch" is a namespace of tenant "payments"`; err == nil ||
		!strings.Contains(err.Error(), want) {
		t.Errorf("NewFleet: %v\nwant %q", err, want)
	}
}

func TestTenantWorkloadIdentities(t *testing.T) {
	cloud, _ := build(t, withTenants())
	role := cloud.MustGet(t, "aws:iam/role:Role", "payments-spoke-b-payments-ledger")
	if role.Input("name") != tenant.RoleName("payments", "spoke-b", "payments", "ledger") || role.Region != "us-east-2" {
		t.Errorf("role %v in %s", role.Input("name"), role.Region)
	}
	trust, _ := role.Input("assumeRolePolicy").(string)
	for _, want := range []string{`"pods.eks.amazonaws.com"`, `"aws:RequestTag/kubernetes-namespace":["payments"]`,
		`"aws:RequestTag/kubernetes-service-account":["ledger"]`, `cluster/spoke-b`} {
		if !strings.Contains(trust, want) {
			t.Errorf("the role's trust has no %s: %s", want, trust)
		}
	}
	cloud.MustGet(t, "aws:iam/rolePolicyAttachment:RolePolicyAttachment", "payments-spoke-b-payments-ledger-AmazonS3ReadOnlyAccess")
	assoc := cloud.MustGet(t, "aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-b-payments-ledger")
	if got := assoc.InputsLike(map[string]any{"clusterName": nil, "namespace": nil, "serviceAccount": nil}); got["clusterName"] != "spoke-b" ||
		got["namespace"] != "payments" || got["serviceAccount"] != "ledger" {
		t.Errorf("association %v", got)
	}
	if _, ok := cloud.Named("aws:iam/role:Role", "payments-spoke-b-payments-web"); ok {
		t.Error("web has no policies, but got a role")
	}

	// On an irsa cluster the role trusts the cluster's OIDC provider for the service account, which is annotated.
	a := withTenants()
	a.Clusters[1].Identity = "irsa" // spoke-a
	cloud, _ = build(t, a)
	trust, _ = cloud.MustGet(t, "aws:iam/role:Role", "payments-spoke-a-payments-ledger").Input("assumeRolePolicy").(string)
	if !strings.Contains(trust, "system:serviceaccount:payments:ledger") || strings.Contains(trust, "pods.eks.amazonaws.com") {
		t.Errorf("the irsa cluster's role trusts %s, want the ledger service account's IRSA token only", trust)
	}
	if _, ok := cloud.Named("aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-a-payments-ledger"); ok {
		t.Error("the irsa cluster got a Pod Identity association")
	}
	cloud.MustGet(t, "aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-b-payments-ledger")
	raw, _ := json.Marshal(cloud.MustGet(t, "kubernetes:core/v1:ServiceAccount", "payments-spoke-a-payments-ServiceAccount-ledger").Input("metadata"))
	if !strings.Contains(string(raw), `"eks.amazonaws.com/role-arn":"arn:aws:iam::`) {
		t.Errorf("ledger's metadata on the irsa cluster %s: want its role's ARN annotated", raw)
	}
	raw, _ = json.Marshal(cloud.MustGet(t, "kubernetes:core/v1:ServiceAccount", "payments-spoke-b-payments-ServiceAccount-ledger").Input("metadata"))
	if strings.Contains(string(raw), "role-arn") {
		t.Errorf("ledger's metadata on the Pod Identity cluster %s: want no annotation", raw)
	}
}

func TestTenantSecretStores(t *testing.T) {
	a := withTenants()
	a.Clusters[1].Addons["external_secrets"] = true // spoke-a
	cloud, _ := build(t, a)
	store := cloud.MustGet(t, "kubernetes:external-secrets.io/v1beta1:SecretStore", "payments-spoke-a-payments-SecretStore-aws-secrets-manager")
	if !strings.Contains(store.Provider, "::spoke-a-k8s::") {
		t.Errorf("the SecretStore goes through %s", store.Provider)
	}
	if _, ok := cloud.Named("kubernetes:external-secrets.io/v1beta1:SecretStore", "payments-spoke-b-payments-SecretStore-aws-secrets-manager"); ok {
		t.Error("spoke-b runs no external-secrets, but got a SecretStore")
	}
	role := cloud.MustGet(t, "aws:iam/role:Role", "payments-spoke-a-payments-tenant-secrets")
	trust, _ := role.Input("assumeRolePolicy").(string)
	if !strings.Contains(trust, "system:serviceaccount:payments:tenant-secrets") || !strings.Contains(trust, "sts:AssumeRoleWithWebIdentity") {
		t.Errorf("the secrets role trusts %s, want the tenant-secrets service account's IRSA token only", trust)
	}
	policy, _ := cloud.MustGet(t, "aws:iam/rolePolicy:RolePolicy", "payments-spoke-a-payments-tenant-secrets").Input("policy").(string)
	if !strings.Contains(policy, `:secret:tenants/payments/*"`) || strings.Count(policy, "arn:aws:secretsmanager") != 1 {
		t.Errorf("the secrets role reads %s, want the tenant's prefix only", policy)
	}
	sa := cloud.MustGet(t, "kubernetes:core/v1:ServiceAccount", "payments-spoke-a-payments-ServiceAccount-tenant-secrets")
	raw, _ := json.Marshal(sa.Input("metadata"))
	if !strings.Contains(string(raw), `"eks.amazonaws.com/role-arn":"arn:aws:iam::`) {
		t.Errorf("the tenant-secrets service account's metadata %s: want its role's ARN annotated", raw)
	}
}

func TestTenantsThroughGit(t *testing.T) {
	a := withTenants()
	a.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry"}
	a.Clusters[1].Identity = "irsa" // spoke-a: ledger's annotation is in the file
	cloud, f := build(t, a)
	if got := mocks.Await[map[string]TenantSummary](t, f.Tenants)["payments"].Folder; got != "tenants/payments" {
		t.Errorf("payments' folder %q", got)
	}
	for _, typ := range []string{"kubernetes:core/v1:Namespace", "kubernetes:core/v1:ResourceQuota", "kubernetes:core/v1:ServiceAccount"} {
		for _, r := range cloud.OfType(typ) {
			if strings.HasPrefix(r.Name, "payments-") || strings.HasPrefix(r.Name, "search-") {
				t.Errorf("%s %s is written directly; with git it is committed", typ, r.Name)
			}
		}
	}
	// Through spoke-a's own provider go the tenants' admission policies only (payments' here), and the commit
	// waits for them.
	cloud.MustGet(t, "pulumi:providers:kubernetes", "spoke-a-k8s")
	var through []string
	for _, r := range cloud.Resources() {
		if strings.Contains(r.Provider, "::spoke-a-k8s::") && !strings.HasPrefix(r.Name, "search-") {
			through = append(through, r.Type+" "+r.Name)
		}
	}
	slices.Sort(through)
	vap, vapb := "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy", "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
	var want []string
	for _, kind := range []string{vap, vapb} {
		for _, part := range []string{"external-secrets", "limit-ranges", "namespaces", "network-policies", "quotas", "role-bindings", "roles", "secret-stores", "services", "system-pods", "system-token-requests", "system-tokens"} {
			name := "payments-spoke-a-" + part + "-policy"
			if kind == vapb {
				name += "-binding"
			}
			want = append(want, kind+" "+name)
		}
	}
	if !slices.Equal(through, want) {
		t.Errorf("through spoke-a-k8s: %v, want %v", through, want)
	}
	policy := cloud.MustGet(t, vap, "payments-spoke-a-namespaces-policy")
	if deps := cloud.MustGet(t, "github:index/repositoryFile:RepositoryFile", "payments-spoke-a-file").Dependencies; !slices.ContainsFunc(deps, func(u string) bool {
		return strings.HasSuffix(u, "::payments-spoke-a-namespaces-policy")
	}) {
		t.Errorf("payments' file on spoke-a is committed after %v, not after its namespaces' policy %s", deps, policy.Name)
	}
	file := cloud.MustGet(t, "github:index/repositoryFile:RepositoryFile", "payments-spoke-a-file")
	content, _ := file.Input("content").(string)
	if file.Input("file") != "tenants/payments/spoke-a.yaml" || file.Input("branch") != "main" ||
		!strings.Contains(file.Provider, "::github::") {
		t.Errorf("payments' file on spoke-a: %v on %v through %s", file.Input("file"), file.Input("branch"), file.Provider)
	}
	for _, want := range []string{"kind: Namespace", "name: payments-batch", "kind: ResourceQuota", "kind: NetworkPolicy",
		"eks.amazonaws.com/role-arn: arn:aws:iam::"} {
		if !strings.Contains(content, want) {
			t.Errorf("payments' file on spoke-a has no %q:\n%s", want, content)
		}
	}
	if n := len(cloud.OfType("github:index/repositoryFile:RepositoryFile")); n != 3+3 {
		// payments on two spokes, search on one; and the three cluster secrets.
		t.Errorf("%d files", n)
	}
	project := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "payments-platform-project")
	raw, _ := json.Marshal(project.Input("spec"))
	for _, want := range []string{`"sourceRepos":["https://github.com/acme/fleet-registry.git"]`,
		`{"group":"","kind":"Namespace","name":"payments-batch"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("payments' platform project has no %s: %s", want, raw)
		}
	}
	set := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:ApplicationSet", "payments-platform")
	raw, _ = json.Marshal(set.Input("spec"))
	if !strings.Contains(string(raw), `"path":"tenants/payments"`) || !strings.Contains(string(raw), `"values":["spoke-a","spoke-b"]`) {
		t.Errorf("payments' platform ApplicationSet: %s", raw)
	}
	// The policies come after the platform ApplicationSet, so that removing the tenant deletes them before it: its
	// Applications then delete the tenant's namespaces (Argo CD's resources finalizer) with no guard to refuse them.
	for _, part := range []string{"namespaces", "secret-stores", "quotas"} {
		if p := cloud.MustGet(t, vap, "payments-spoke-a-"+part+"-policy"); !dependsOn(p, "kubernetes:argoproj.io/v1alpha1:ApplicationSet", "payments-platform") {
			t.Errorf("payments' %s policy on spoke-a depends on %v, not on the platform ApplicationSet", part, p.Dependencies)
		}
	}
	guard := cloud.MustGet(t, tenant.GuardToken, "payments-spoke-a-guard")
	if !dependsOn(guard, "github:index/repositoryFile:RepositoryFile", "payments-spoke-a-file") ||
		!dependsOn(guard, "kubernetes:argoproj.io/v1alpha1:ApplicationSet", "payments-platform") {
		t.Errorf("payments' guard on spoke-a depends on %v, want its file and the platform ApplicationSet", guard.Dependencies)
	}
}

// TestHubControllerRole: Argo CD's application controller is narrowed to the fleet's paths on a hub that runs no
// add-on and that no tenant selects; a tenant naming the hub (its Namespaces and workloads sync there) or an
// add-on on the hub keeps the chart's cluster role (gitopsbridge's hub.controllerClusterAdmin, hub.addonsOnHub).
func TestHubControllerRole(t *testing.T) {
	bare := func() FleetArgs {
		a := withTenants()
		a.Clusters[0].Addons = map[string]bool{"aws_ebs_csi_driver": false} // the defaults turn it on
		return a
	}
	cases := map[string]struct {
		args     func() FleetArgs
		narrowed bool
	}{
		"a hub of its own": {args: bare, narrowed: true},
		"a tenant on the hub": {args: func() FleetArgs {
			a := bare()
			a.Tenants[1].Clusters.Clusters = append(a.Tenants[1].Clusters.Clusters, "hub")
			return a
		}},
		"an add-on on the hub": {args: withTenants},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, tc.args())
			releases := cloud.OfType("kubernetes:helm.sh/v3:Release")
			if len(releases) != 1 {
				t.Fatalf("%d Helm releases", len(releases))
			}
			controller := releases[0].Input("values").(map[string]any)["controller"].(map[string]any)
			if _, narrowed := controller["clusterRoleRules"]; narrowed != tc.narrowed {
				t.Errorf("the controller's cluster role narrowed: %v, want %v", narrowed, tc.narrowed)
			}
		})
	}
}

// TestTenantNamespacesReservedFromWorkloads: the hub's workloads project refuses every tenant's namespaces, as
// namespaces and as Namespace objects, besides the platform's own.
func TestTenantNamespacesReservedFromWorkloads(t *testing.T) {
	a := withTenants()
	a.Repositories.Workloads = &gitopsbridge.Repo{URL: "https://github.com/acme/workloads", Path: "apps"}
	cloud, _ := build(t, a)
	spec, _ := json.Marshal(cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "hub-project-"+
		gitopsbridge.WorkloadApplicationsProject).Input("spec"))
	for _, ns := range []string{"payments", "payments-batch", "search", "kube-*", "karpenter"} {
		if !strings.Contains(string(spec), `"namespace":"!`+ns+`"`) || !strings.Contains(string(spec), `"kind":"Namespace","name":"`+ns+`"`) {
			t.Errorf("the workloads project does not reserve %s: %s", ns, spec)
		}
	}
}

// TestReachPoliciesAdmitVeleroWhereItRuns: the policy that keeps a tenant's guards from bindings to cluster-admin
// admits Velero's own binding on the cluster that runs Velero (spoke-b here) and on no other.
func TestReachPoliciesAdmitVeleroWhereItRuns(t *testing.T) {
	args := withTenants()
	args.Clusters[2].Addons = map[string]bool{"velero": true}
	cloud, _ := build(t, args)
	for cluster, want := range map[string]bool{"spoke-a": false, "spoke-b": true} {
		policy := cloud.MustGet(t, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy",
			"payments-"+cluster+"-role-bindings-policy")
		raw, _ := json.Marshal(policy.Input("spec"))
		if got := strings.Contains(string(raw), `object.metadata.name == \"velero-server\"`); got != want {
			t.Errorf("%s's role-bindings policy admits Velero's binding: %v, want %v: %s", cluster, got, want, raw)
		}
	}
}
