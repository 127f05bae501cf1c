package tenant

import "github.com/gitops-fleet/pulumi-fleet/components/admission"

// sampleTenant is the tenant of the guards' examples.
func sampleTenant() TenantSpec {
	return WithDefaults(TenantSpec{Name: "payments", Namespaces: []TenantNamespace{{Name: "payments"}}})
}

// The tenants' guards in the fleet's table of guards (admission.List): twelve per tenant on each cluster it selects,
// the last five keeping the others from every writer but the stack (ReachPolicies).
var _ = admission.List(
	admission.Guard{Name: NamespacePolicyName("<tenant>"), Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins: "the tenant's Namespaces: Pod Security labels at its podSecurity, no version pin, Prune=false kept; deleted by the stack only",
		Example: func() (admission.Policy, admission.Exemptions) {
			return NamespacePolicy(sampleTenant(), sampleDeployer), DeleteExemptions(sampleDeployer)
		}},
	admission.Guard{Name: SecretStorePolicyName("<tenant>"), Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins: "SecretStores in the tenant's namespaces: exactly the computed one (its service account, Secrets Manager in the cluster's region); deleted by the stack only",
		Example: func() (admission.Policy, admission.Exemptions) {
			return SecretStorePolicy(sampleTenant(), true, "us-east-2", sampleDeployer), DeleteExemptions(sampleDeployer)
		}},
	admission.Guard{Name: ServicePolicyName("<tenant>"), Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins: "Services in the tenant's namespaces: no externalIPs (CVE-2020-8554), no ExternalName",
		Example: func() (admission.Policy, admission.Exemptions) {
			return ServicePolicy(sampleTenant()), admission.Exemptions{}
		}},
	admission.Guard{Name: ExternalSecretPolicyName("<tenant>"), Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins: "ExternalSecrets in the tenant's namespaces: through the namespace's own SecretStore only, no generator",
		Example: func() (admission.Policy, admission.Exemptions) {
			return ExternalSecretPolicy(sampleTenant()), admission.Exemptions{}
		}},
	admission.Guard{Name: FencePolicyNames("<tenant>")[0], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "ResourceQuotas in the tenant's namespaces: exactly the computed ones; deleted by the stack only",
		Example: func() (admission.Policy, admission.Exemptions) { return fenceExample(0) }},
	admission.Guard{Name: FencePolicyNames("<tenant>")[1], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "LimitRanges in the tenant's namespaces: exactly the computed ones; deleted by the stack only",
		Example: func() (admission.Policy, admission.Exemptions) { return fenceExample(1) }},
	admission.Guard{Name: FencePolicyNames("<tenant>")[2], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "NetworkPolicies in the tenant's namespaces: exactly the computed ones (deny all, then its own pods, DNS, AWS, its ingressCidrs); deleted by the stack only",
		Example: func() (admission.Policy, admission.Exemptions) { return fenceExample(2) }},
	admission.Guard{Name: ReachPolicyNames("<tenant>")[0], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "role bindings anywhere: none to a role that reaches the admission guards (cluster-admin, admin, edit, Kubernetes' controllers', EKS's) but Velero's own where it runs",
		Example: func() (admission.Policy, admission.Exemptions) { return reachExample(0) }},
	admission.Guard{Name: ReachPolicyNames("<tenant>")[1], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "roles anywhere: no write of admission policies, bind, escalate, impersonate or approval of any user's client certificate; no aggregation but by the aggregation controller",
		Example: func() (admission.Policy, admission.Exemptions) { return reachExample(1) }},
	admission.Guard{Name: ReachPolicyNames("<tenant>")[2], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "pods in kube-system: none as a kube-controller-manager controller's service account",
		Example: func() (admission.Policy, admission.Exemptions) { return reachExample(2) }},
	admission.Guard{Name: ReachPolicyNames("<tenant>")[3], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "Secrets in kube-system: no service-account token for a kube-controller-manager controller",
		Example: func() (admission.Policy, admission.Exemptions) { return reachExample(3) }},
	admission.Guard{Name: ReachPolicyNames("<tenant>")[4], Where: "each cluster the tenant selects", Writer: "Tenant",
		Pins:    "token requests in kube-system: a kube-controller-manager controller's by the controller manager only",
		Example: func() (admission.Policy, admission.Exemptions) { return reachExample(4) }},
)

// reachExample is the sample tenant's i-th reach policy, on a cluster that runs Velero, and its exemptions (the
// system-pods and system-tokens policies exempt no one, the token requests' the controller manager).
func reachExample(i int) (admission.Policy, admission.Exemptions) {
	p := ReachPolicies(sampleTenant(), sampleDeployer, Velero(true))[i]
	switch i {
	case 2, 3:
		return p, admission.Exemptions{}
	case 4:
		return p, admission.Exemptions{Writers: []string{TokenRequester}}
	}
	return p, ReachExemptions(sampleDeployer)
}

// sampleDeployer is the deployer of the guards' examples: an assumed role, any session.
const sampleDeployer = "arn:aws:sts::111122223333:assumed-role/deployer/" + admission.SessionNameTemplate

// fenceExample is the sample tenant's i-th fence policy and its exemptions.
func fenceExample(i int) (admission.Policy, admission.Exemptions) {
	ps, err := FencePolicies(sampleTenant(), sampleDeployer)
	if err != nil {
		panic(err) // the sample tenant's manifests: TestFencePolicies fails first
	}
	return ps[i], FenceExemptions(sampleDeployer)
}
