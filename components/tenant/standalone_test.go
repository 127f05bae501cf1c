package tenant_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	. "github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// standalone is a tenant onto a hub and two spokes built outside a Fleet: spoke-a binds roles through EKS Pod
// Identity, spoke-b through IRSA and runs external-secrets.
func standalone() TenantArgs {
	info := func(name, region string) clusterinfo.ClusterInfoArgs {
		return clusterinfo.ClusterInfoArgs{ClusterName: pulumi.String(name), Environment: pulumi.String("dev"),
			Server: pulumi.String("https://" + name + ".example.com"), CertificateAuthorityData: pulumi.String("Q0E="),
			Region: pulumi.String(region), AccountId: pulumi.String("111122223333"), KubernetesVersion: pulumi.String("1.33"),
			Kubeconfig: pulumi.String(`{"clusters":[]}`)}
	}
	oidc := pulumi.String("arn:aws:iam::111122223333:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/B")
	return TenantArgs{
		Tenant: TenantSpec{Name: "payments",
			Owners: []TenantOwner{{Arn: "arn:aws:iam::111122223333:role/payments", Groups: []string{"payments"}}},
			Namespaces: []TenantNamespace{{Name: "payments", ServiceAccounts: []TenantServiceAccount{
				{Name: "ledger", ManagedPolicyArns: []string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}}}}}},
		HubKubeconfig: pulumi.String(`{"clusters":[]}`),
		Clusters: []TenantCluster{
			{Name: "hub", Hub: true, Environment: "dev", Region: "us-east-1", Cluster: info("hub", "us-east-1")},
			{Name: "spoke-a", Environment: "dev", Region: "us-east-2", Cluster: info("spoke-a", "us-east-2")},
			{Name: "spoke-b", Environment: "dev", Region: "us-west-2", Cluster: info("spoke-b", "us-west-2"),
				Identity: "irsa", ExternalSecrets: true, OidcProviderArn: oidc,
				OidcProviderUrl: pulumi.String("https://oidc.eks.us-west-2.amazonaws.com/id/B")},
		},
	}
}

func run(t *testing.T, args TenantArgs) (*mocks.Cloud, *Tenant, error) {
	t.Helper()
	cloud := mocks.New()
	var tn *Tenant
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		tn, err = NewTenant(ctx, "payments", args)
		return err
	})
	return cloud, tn, err
}

func TestStandaloneTenant(t *testing.T) {
	cloud, tn, err := run(t, standalone())
	if err != nil {
		t.Fatal(err)
	}
	if got := mocks.Await[[]string](t, tn.Clusters); strings.Join(got, ",") != "spoke-a,spoke-b" {
		t.Errorf("clusters %v, want the spokes (the hub is not selected)", got)
	}
	project := cloud.MustGet(t, "kubernetes:argoproj.io/v1alpha1:AppProject", "payments-project")
	if !strings.Contains(project.Provider, "::payments-hub::") {
		t.Errorf("the project goes through %s, want the hub's provider", project.Provider)
	}
	ns := cloud.MustGet(t, "kubernetes:core/v1:Namespace", "payments-spoke-b-payments")
	if !strings.Contains(ns.Provider, "::payments-spoke-b-k8s::") {
		t.Errorf("spoke-b's namespace goes through %s", ns.Provider)
	}
	if _, ok := cloud.Named("kubernetes:core/v1:Namespace", "payments-hub-payments"); ok {
		t.Error("the tenant got a namespace on the hub, which it does not select")
	}
	entries := cloud.OfType("aws:eks/accessEntry:AccessEntry")
	if len(entries) != 2 {
		t.Fatalf("%d access entries, want the owner's on each spoke", len(entries))
	}
	for _, e := range entries {
		if want := map[string]string{"spoke-a": "us-east-2", "spoke-b": "us-west-2"}[e.Input("clusterName").(string)]; e.Region != want ||
			e.Input("principalArn") != "arn:aws:iam::111122223333:role/payments" {
			t.Errorf("access entry for %v in %s", e.Input("clusterName"), e.Region)
		}
	}
	var scoped bool
	for _, r := range cloud.OfType("aws:eks/accessPolicyAssociation:AccessPolicyAssociation") {
		raw, _ := json.Marshal(r.Input("accessScope"))
		scoped = scoped || string(raw) == `{"namespaces":["payments"],"type":"namespace"}`
		if !strings.HasSuffix(r.Input("policyArn").(string), "/AmazonEKSAdminPolicy") {
			t.Errorf("policy %v", r.Input("policyArn"))
		}
	}
	if !scoped {
		t.Error("no access policy scoped to the tenant's namespace")
	}
	cloud.MustGet(t, "aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-a-payments-ledger")
	if _, ok := cloud.Named("aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-b-payments-ledger"); ok {
		t.Error("the irsa cluster got a Pod Identity association")
	}
	trust, _ := cloud.MustGet(t, "aws:iam/role:Role", "payments-spoke-b-payments-ledger").Input("assumeRolePolicy").(string)
	if !strings.Contains(trust, "oidc.eks.us-west-2.amazonaws.com/id/B:sub") {
		t.Errorf("spoke-b's ledger role trusts %s", trust)
	}
	cloud.MustGet(t, "kubernetes:external-secrets.io/v1beta1:SecretStore", "payments-spoke-b-payments-SecretStore-aws-secrets-manager")
	assoc := cloud.MustGet(t, "aws:eks/podIdentityAssociation:PodIdentityAssociation", "payments-spoke-a-payments-ledger")
	role := cloud.MustGet(t, "aws:iam/role:Role", "payments-spoke-a-payments-ledger")
	trust, _ = role.Input("assumeRolePolicy").(string)
	if !strings.Contains(trust, "arn:aws:eks:us-east-2:111122223333:cluster/spoke-a") || assoc.Region != "us-east-2" {
		t.Errorf("spoke-a's ledger role trusts %s (association in %s)", trust, assoc.Region)
	}
	guard := cloud.MustGet(t, GuardToken, "payments-spoke-a-guard")
	if guard.Input("endpoint") != "https://spoke-a.example.com" || guard.Input("region") != "us-east-2" {
		t.Errorf("guard %v", guard.Inputs)
	}
}

func TestStandaloneTenantThroughGit(t *testing.T) {
	a := standalone()
	a.Git = &gitopsbridge.GitDelivery{Owner: "acme", Repository: "fleet-registry", PullRequest: true}
	cloud, tn, err := run(t, a)
	if err != nil {
		t.Fatal(err)
	}
	if got := mocks.Await[string](t, tn.Folder); got != "tenants/payments" {
		t.Errorf("folder %q", got)
	}
	// Each cluster's provider writes the tenant's admission policies only: its objects are committed.
	if n := len(cloud.OfType("pulumi:providers:kubernetes")); n != 3 {
		t.Errorf("%d Kubernetes providers, want the hub's and each cluster's", n)
	}
	for _, r := range cloud.Resources() {
		if strings.Contains(r.Provider, "-spoke-") && strings.HasPrefix(r.Type, "kubernetes:") &&
			!strings.HasPrefix(r.Type, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy") {
			t.Errorf("with git, %s %s is written through %s", r.Type, r.Name, r.Provider)
		}
	}
	cloud.MustGet(t, "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding", "payments-spoke-b-secret-stores-policy-binding")
	file := cloud.MustGet(t, "github:index/repositoryFile:RepositoryFile", "payments-spoke-b-file")
	if content, _ := file.Input("content").(string); !strings.Contains(content, "kind: SecretStore") ||
		!strings.Contains(content, "eks.amazonaws.com/role-arn:") {
		t.Errorf("spoke-b's file:\n%s", content)
	}
	branch := cloud.MustGet(t, "github:index/branch:Branch", "payments-git-branch")
	if branch.Input("branch") != "gitops-fleet/tenant-payments" {
		t.Errorf("pull request branch %v", branch.Input("branch"))
	}
	cloud.MustGet(t, "github:index/repositoryPullRequest:RepositoryPullRequest", "payments-git-pull-request")
}

func TestStandaloneTenantValidation(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(*TenantArgs)
		want []string
	}{
		"no clusters": {func(a *TenantArgs) { a.Clusters = nil }, []string{"clusters: list at least one cluster",
			"tenant.clusters: selects no cluster"}},
		"names": {func(a *TenantArgs) {
			a.Clusters[1].Name = "spoke b"
			a.Clusters[2].Name = "hub"
		}, []string{`clusters[1].name: "spoke b" must be`, `clusters[2].name: "hub" is also the name of clusters[0]`}},
		"region and identity": {func(a *TenantArgs) {
			a.Clusters[1].Region = ""
			a.Clusters[1].Identity = "kiam"
		}, []string{"clusters[1].region: required", `clusters[1].identity: "kiam": want podIdentity or irsa`}},
		"no OIDC provider for IRSA": {func(a *TenantArgs) { a.Clusters[2].OidcProviderArn = nil },
			[]string{"clusters[2]: oidcProviderArn and oidcProviderUrl are required"}},
		"selector": {func(a *TenantArgs) { a.Tenant.Clusters = &TenantSelector{Clusters: []string{"spoke-z"}} },
			[]string{`tenant.clusters.clusters[0]: "spoke-z" is not a cluster`, "tenant.clusters: selects no cluster"}},
		"tenant and hub": {func(a *TenantArgs) {
			a.Tenant.Namespaces[0].Name = "kube-system"
			a.HubKubeconfig = nil
		}, []string{`tenant.namespaces[0].name: "kube-system" is a namespace of Kubernetes`, "hubKubeconfig: required"}},
		"git": {func(a *TenantArgs) { a.Git = &gitopsbridge.GitDelivery{Owner: "-acme", Repository: "r"} },
			[]string{`git.owner: "-acme" is not a GitHub user`}},
	} {
		t.Run(name, func(t *testing.T) {
			a := standalone()
			tc.edit(&a)
			cloud, _, err := run(t, a)
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("NewTenant: %v\nwant %q", err, w)
				}
			}
			if n := len(cloud.Resources()); n != 0 {
				t.Errorf("%d resources registered", n)
			}
		})
	}
}
