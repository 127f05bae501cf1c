package tenant

import (
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

func TestDefaults(t *testing.T) {
	a := payments()
	q, l := a.Namespaces[0].Quota, a.Namespaces[1].Limits
	if q.RequestsCpu != "8" || q.LimitsMemory != "32Gi" || q.RequestsMemory != "8Gi" || q.Pods != "50" || q.LoadBalancers != "2" {
		t.Errorf("quota %+v: want the given fields over DefaultQuota", *q)
	}
	if l.Memory != "1Gi" || l.Cpu != "500m" || l.RequestMemory != "128Mi" {
		t.Errorf("limits %+v: want the given fields over DefaultLimits", *l)
	}
	if a.Namespaces[0].PodSecurity != "restricted" || a.Namespaces[1].PodSecurity != "baseline" {
		t.Error("podSecurity: want restricted by default, the given level otherwise")
	}
	if a.Owners[0].Access != "admin" || a.SecretsPrefix != "tenants/" || !*a.PreventDeletion {
		t.Errorf("owner access %q, secretsPrefix %q, preventDeletion %v", a.Owners[0].Access, a.SecretsPrefix, *a.PreventDeletion)
	}
}

func TestCheck(t *testing.T) {
	cases := map[string]struct {
		edit func(*TenantSpec)
		want []string // "" none; else each a problem's start "field: message"
	}{
		"valid":    {func(*TenantSpec) {}, nil},
		"bad name": {func(a *TenantSpec) { a.Name = "Payments" }, []string{`t.name: "Payments" is not a DNS-1123 label`}},
		"owner not a principal": {func(a *TenantSpec) { a.Owners[0].Arn = "arn:aws:s3:::bucket" },
			[]string{`t.owners[0].arn: "arn:aws:s3:::bucket" is not an IAM role or user ARN`}},
		"owner access": {func(a *TenantSpec) { a.Owners[1].Access = "owner" }, []string{`t.owners[1].access: "owner": want admin, edit or view`}},
		"no namespace": {func(a *TenantSpec) { a.Namespaces = nil }, []string{"t.namespaces: list at least one namespace"}},
		"an add-on's namespace": {func(a *TenantSpec) { a.Namespaces[1].Name = "karpenter" },
			[]string{`t.namespaces[1].name: "karpenter" is a namespace of Kubernetes, Argo CD, StackDelivery or an add-on`}},
		"an add-on's namespace without identity": {func(a *TenantSpec) { a.Namespaces[1].Name = "argo-rollouts" },
			[]string{`t.namespaces[1].name: "argo-rollouts" is a namespace of`}},
		"the add-ons' Applications namespace": {func(a *TenantSpec) { a.Namespaces[1].Name = "argocd-addons" },
			[]string{`t.namespaces[1].name: "argocd-addons" is a namespace of`}},
		"a stage's namespace": {func(a *TenantSpec) { a.Namespaces[1].Name = "fleet-stacks-prod" },
			[]string{`t.namespaces[1].name: "fleet-stacks-prod" is a namespace of`}},
		"a wildcard secrets prefix": {func(a *TenantSpec) { a.SecretsPrefix = "*" },
			[]string{`t.secretsPrefix: "*": a Secrets Manager name prefix`}},
		"a secrets prefix from the root": {func(a *TenantSpec) { a.SecretsPrefix = "/teams/" },
			[]string{`t.secretsPrefix: "/teams/"`}},
		"kube-system":   {func(a *TenantSpec) { a.Namespaces[1].Name = "kube-system" }, []string{`t.namespaces[1].name: "kube-system"`}},
		"kube-anything": {func(a *TenantSpec) { a.Namespaces[1].Name = "kube-green" }, []string{`t.namespaces[1].name: "kube-green"`}},
		"the SecretStore's service account": {func(a *TenantSpec) {
			a.Namespaces[0].ServiceAccounts = append(a.Namespaces[0].ServiceAccounts, TenantServiceAccount{Name: SecretsServiceAccount})
		}, []string{`t.namespaces[0].serviceAccounts[1].name: "tenant-secrets" is the service account of the namespace's SecretStore`}},
		"twice": {func(a *TenantSpec) { a.Namespaces[1].Name = "payments" }, []string{`t.namespaces[1].name: "payments" is also namespaces[0]`}},
		"bad quantities": {func(a *TenantSpec) {
			a.Namespaces[0].Quota.RequestsCpu = "four"
			a.Namespaces[1].Limits.Memory = "1 GB"
		}, []string{`t.namespaces[0].quota.requestsCpu: "four" is not a Kubernetes quantity`,
			`t.namespaces[1].limits.memory: "1 GB" is not a Kubernetes quantity`}},
		"pod security": {func(a *TenantSpec) { a.Namespaces[0].PodSecurity = "strict" }, []string{`t.namespaces[0].podSecurity: "strict"`}},
		"label":        {func(a *TenantSpec) { a.Namespaces[0].Labels["cost center"] = "x" }, []string{`t.namespaces[0].labels["cost center"]: is not a label key`}},
		"service accounts": {func(a *TenantSpec) {
			a.Namespaces[0].ServiceAccounts = append(a.Namespaces[0].ServiceAccounts,
				TenantServiceAccount{Name: "ledger", Policy: "{", ManagedPolicyArns: []string{"AmazonS3ReadOnlyAccess"}})
		}, []string{`t.namespaces[0].serviceAccounts[1].name: "ledger" appears twice`, "t.namespaces[0].serviceAccounts[1].policy: is not a JSON",
			`t.namespaces[0].serviceAccounts[1].managedPolicyArns[0]: "AmazonS3ReadOnlyAccess" is not an IAM policy ARN`}},
		"repositories with credentials or any host": {func(a *TenantSpec) {
			a.Workloads = &TenantWorkloads{URL: "https://x-access-token:ghp_x@github.com/acme/payments-deploy", Path: "clusters"}
			a.SourceRepos = []string{"*", "https://user:ghp_x@github.com/acme/charts", "https://*/acme/x",
				"https://github.com/acme/*", "public.ecr.aws/acme", "*.ecr.aws/acme"}
		}, []string{"t.workloads.url: carries credentials", `t.sourceRepos[0]: "*" reaches repositories of any host`,
			"t.sourceRepos[1]: carries credentials", `t.sourceRepos[2]: "https://*/acme/x" reaches`,
			`t.sourceRepos[5]: "*.ecr.aws/acme" reaches`}},
		"not a repository": {func(a *TenantSpec) { a.Workloads = &TenantWorkloads{URL: "payments-deploy", Path: "clusters"} },
			[]string{`t.workloads.url: "payments-deploy" is not a repository URL`}},
		"ingress CIDRs": {func(a *TenantSpec) { a.Namespaces[0].IngressCidrs = []string{"10.20.0.0/24", "10.20.0.1/24", "lb"} },
			[]string{`t.namespaces[0].ingressCidrs[1]: "10.20.0.1/24" is not a network`, `t.namespaces[0].ingressCidrs[2]: "lb" is not a network`}},
		"extra kinds": {func(a *TenantSpec) {
			a.ExtraKinds = []TenantKind{{Group: "networking.k8s.io", Kind: "Ingress"}, {Group: "", Kind: "ResourceQuota"},
				{Group: "services.k8s.aws", Kind: "*"}, {Group: "apps"}}
		}, []string{`t.extraKinds[1]: /ResourceQuota is the platform's`, `t.extraKinds[2]: "services.k8s.aws"/"*" is not a kind`,
			`t.extraKinds[3]: "apps"/"" is not a kind`}},
		"sync window": {func(a *TenantSpec) {
			a.SyncWindows[0] = TenantSyncWindow{Kind: "block", Schedule: "nightly", Duration: "8"}
		},
			[]string{`t.syncWindows[0].kind: "block"`, `t.syncWindows[0].schedule: "nightly"`, `t.syncWindows[0].duration: "8"`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := payments()
			tc.edit(&a)
			var ps problems.List
			Check(&ps, "t", a)
			if len(ps) != len(tc.want) {
				t.Fatalf("problems %v, want %d", ps, len(tc.want))
			}
			for _, w := range tc.want {
				found := false
				for _, p := range ps {
					found = found || strings.HasPrefix(p.Field+": "+p.Message, w)
				}
				if !found {
					t.Errorf("no problem %q in %v", w, ps)
				}
			}
		})
	}
}
