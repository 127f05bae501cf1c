package tenant

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// A tenant's namespaces carry two objects that decide more than the namespace itself: the Pod Security Admission
// labels of the Namespace (a "privileged" label lets the tenant's pods run as root on the node) and the SecretStore
// (without auth, external-secrets reads AWS Secrets Manager with its own role, the platform's whole prefix). With Git
// delivery a commit to the tenant's folder writes both through Argo CD, and the tenant's owners may edit
// SecretStores where external-secrets aggregates them into the admin and edit roles. So each selected cluster's API
// server pins them to what the stack computed, for every writer, and lets only the stack delete them:
// ValidatingAdmissionPolicies (and bindings) per tenant, written by the deployer through the cluster's Kubernetes
// provider before the objects they guard (these, the Services' and ExternalSecrets', and the fences of fences.go).

// NamespacePolicyName is the policy pinning the Pod Security labels of a tenant's namespaces:
// tenant-<tenant>-namespaces.
func NamespacePolicyName(tenant string) string { return ProjectName(tenant) + "-namespaces" }

// SecretStorePolicyName is the policy pinning the SecretStores of a tenant's namespaces:
// tenant-<tenant>-secret-stores.
func SecretStorePolicyName(tenant string) string { return ProjectName(tenant) + "-secret-stores" }

// NamespacePolicy refuses a Namespace of the tenant (CREATE or UPDATE, by anyone) unless its Pod Security Admission
// labels (prefix pod-security.kubernetes.io/) are exactly enforce, audit and warn, each at the namespace's
// podSecurity level: a commit can neither lower the level nor add a version pin (enforce-version: v1.0 would apply
// an older, looser "restricted"). It refuses the Namespace's DELETE but by the deployer (the stack's EKS username,
// gitopsbridge.DeployerUsername) and DeleteExemptions' others: Prune=false keeps Argo CD's prune from it, but not
// the deletion of an Application with its resources (Argo CD's resources finalizer), nor whoever RBAC lets delete
// namespaces; either would take the namespace's volumes. The binding selects the tenant's namespaces by name (for a
// Namespace the API server matches the object's own kubernetes.io/metadata.name label, which it sets to the name).
func NamespacePolicy(t TenantSpec, deployer string) admission.Policy {
	var levels, modes []string
	for _, n := range t.Namespaces {
		levels = append(levels, admission.String(n.Name)+": "+admission.String(n.PodSecurity))
	}
	for _, m := range podSecurityModes {
		modes = append(modes, admission.String(podSecurityLabelPrefix+m))
	}
	prefix := admission.String(podSecurityLabelPrefix)
	return admission.Policy{
		Name: NamespacePolicyName(t.Name), Group: "", Version: "v1", Resource: "namespaces",
		Namespaces: t.NamespaceNames(),
		Variables: append(DeleteExemptions(deployer).Variables(),
			admission.Variable{Name: "level", Expression: "{" + strings.Join(levels, ", ") + "}[object.metadata.name]"},
			admission.Variable{Name: "labels", Expression: "object.metadata.?labels.orValue({})"},
		),
		Validations: []admission.Validation{
			{
				Expression: admission.OnWrite(fmt.Sprintf("[%s].all(k, k in variables.labels && variables.labels[k] == variables.level)",
					strings.Join(modes, ", "))),
				Message: "a tenant namespace's Pod Security Admission labels enforce, audit and warn are its podSecurity level, as the stack computed",
				MessageExpression: "'tenant namespace ' + object.metadata.name + ' enforces, audits and warns Pod Security level ' + " +
					"variables.level + ' (pod-security.kubernetes.io/enforce, audit and warn), as the stack computed'",
			},
			{
				Expression: admission.OnWrite(fmt.Sprintf("variables.labels.all(k, !k.startsWith(%s) || k in [%s])", prefix, strings.Join(modes, ", "))),
				Message: "a tenant namespace has no other Pod Security Admission label (a version pin such as " +
					"pod-security.kubernetes.io/enforce-version would loosen its level)",
			},
			{
				Expression: admission.OnWrite(fmt.Sprintf("object.metadata.?annotations[?%s].orValue('').split(',').exists(o, o.trim() == %s)",
					admission.String(SyncOptionsAnnotation), admission.String(NoPrune))),
				Message: "a tenant namespace keeps " + SyncOptionsAnnotation + ": " + NoPrune + ", so that a commit " +
					"removing it from the tenant's file cannot make Argo CD prune it with its volumes (the stack deletes it)",
			},
			{
				Expression: admission.OnDelete("variables.exempt"),
				Message: "a tenant's namespaces are deleted by the stack only, when the tenant or the namespace leaves " +
					"its config: not by Argo CD deleting an Application with its resources, nor by anyone RBAC lets " +
					"delete namespaces (the namespace's volumes would go with it)",
			},
		},
	}
}

// DeleteExemptions are who may delete a tenant's namespace or its SecretStore (NamespacePolicy,
// SecretStorePolicy): the deployer, which deletes them when the tenant or the namespace leaves the stack's config
// (with Git, the tenant's policies go first and Argo CD's resources finalizer then deletes its objects),
// kube-controller-manager deleting a deleted namespace's objects, and system:masters. They hold at a deletion only.
func DeleteExemptions(deployer string) admission.Exemptions {
	e := FenceExemptions(deployer)
	e.DeletionsOnly = true
	return e
}

// ownObjects is why the Services' and ExternalSecrets' policies do not see DELETE (admission.Policy's
// DeleteUnguarded).
const ownObjects = "a tenant's own objects, whose deletion lifts no fence"

// ServicePolicyName is the policy on the Services of a tenant's namespaces: tenant-<tenant>-services.
func ServicePolicyName(tenant string) string { return ProjectName(tenant) + "-services" }

// ServicePolicy refuses, in the tenant's namespaces (CREATE or UPDATE, by anyone), a Service with externalIPs
// (CVE-2020-8554: a Service may claim any address, and the cluster's proxies then send other workloads' traffic
// for it to the tenant's pods) or of type ExternalName (a name inside the cluster for any host, which ingress
// controllers and meshes may follow across namespaces). Deleting a Service is the tenant's own business.
func ServicePolicy(t TenantSpec) admission.Policy {
	return admission.Policy{
		Name: ServicePolicyName(t.Name), Group: "", Version: "v1", Resource: "services",
		Namespaces:      t.NamespaceNames(),
		DeleteUnguarded: ownObjects,
		Validations: []admission.Validation{
			{
				Expression: "object.spec.?externalIPs.orValue([]).size() == 0",
				Message:    "a tenant's Service sets no externalIPs (CVE-2020-8554: it would take other workloads' traffic to those addresses)",
			},
			{
				Expression: "object.spec.?type.orValue('ClusterIP') != 'ExternalName'",
				Message:    "a tenant's Service is not of type ExternalName (a cluster name for any host)",
			},
		},
	}
}

// ExternalSecretPolicyName is the policy on the ExternalSecrets of a tenant's namespaces:
// tenant-<tenant>-external-secrets.
func ExternalSecretPolicyName(tenant string) string { return ProjectName(tenant) + "-external-secrets" }

// ExternalSecretPolicy refuses, in the tenant's namespaces (CREATE or UPDATE, by anyone, any version of
// external-secrets.io), an ExternalSecret that reads through anything but the namespace's own SecretStore
// (SecretStoreName, which SecretStorePolicy pins to the tenant's secrets): its secretStoreRef and every
// data[].sourceRef.storeRef and dataFrom[].sourceRef.storeRef are of kind SecretStore (no ClusterSecretStore,
// which may read with external-secrets' own role) named SecretStoreName, and no sourceRef names a generator (a
// generator without auth, such as an ECR token's, would act as external-secrets itself). Deleting one is the
// tenant's own business.
func ExternalSecretPolicy(t TenantSpec) admission.Policy {
	own := fmt.Sprintf("(r.?kind.orValue('SecretStore') == 'SecretStore' && r.?name.orValue('') == %s)", admission.String(SecretStoreName))
	refs := "object.spec.?data.orValue([]).map(d, d.?sourceRef).filter(s, s.hasValue()).map(s, s.value())" +
		" + object.spec.?dataFrom.orValue([]).map(d, d.?sourceRef).filter(s, s.hasValue()).map(s, s.value())"
	return admission.Policy{
		Name: ExternalSecretPolicyName(t.Name), Group: "external-secrets.io", Version: "*", Resource: "externalsecrets",
		Namespaces:      t.NamespaceNames(),
		DeleteUnguarded: ownObjects,
		Variables:       []admission.Variable{{Name: "sources", Expression: refs}},
		Validations: []admission.Validation{
			{
				Expression: "[object.spec.?secretStoreRef.orValue({'name': " + admission.String(SecretStoreName) + "})].all(r, " + own + ")" +
					" && variables.sources.all(s, !has(s.storeRef) || [s.storeRef].all(r, " + own + "))",
				Message: "a tenant's ExternalSecret reads through its namespace's own SecretStore " + SecretStoreName +
					" only (secretStoreRef and every sourceRef.storeRef: kind SecretStore, that name; no ClusterSecretStore)",
			},
			{
				Expression: "variables.sources.all(s, !has(s.generatorRef))",
				Message:    "a tenant's ExternalSecret names no generator (sourceRef.generatorRef): one without auth acts as external-secrets itself",
			},
		},
	}
}

// SecretStorePolicy refuses a SecretStore in the tenant's namespaces (CREATE or UPDATE, by anyone, any version of
// external-secrets.io) unless it is the one the stack computes (secretStore): on a cluster with external_secrets
// (secrets), spec sets only provider, refreshInterval and retrySettings; provider is aws only, with service
// SecretsManager, the cluster's region and no other field (no role, additionalRoles, externalID, prefix); auth is
// exactly a JWT of the namespace's tenant-secrets service account, whose role reads only the tenant's secrets. On a
// cluster without the add-on the tenant's namespaces hold no SecretStore. The computed store (SecretStoreName) is
// deleted only by the deployer and DeleteExemptions' others (a commit's prune would cut the namespace off its
// secrets); any other, which none should be, by anyone.
func SecretStorePolicy(t TenantSpec, secrets bool, region, deployer string) admission.Policy {
	p := admission.Policy{
		Name: SecretStorePolicyName(t.Name), Group: "external-secrets.io", Version: "*", Resource: "secretstores",
		Namespaces: t.NamespaceNames(),
		Variables:  DeleteExemptions(deployer).Variables(),
	}
	if !secrets {
		p.Validations = []admission.Validation{{Expression: "request.operation == 'DELETE'",
			Message: "the cluster runs no external_secrets add-on: a tenant's namespaces hold no SecretStore"}}
		return p
	}
	aws := "object.spec.?provider.?aws"
	p.Validations = []admission.Validation{
		{
			Expression: admission.OnDelete("variables.exempt || request.name != " + admission.String(SecretStoreName)),
			Message: "a tenant namespace's SecretStore " + SecretStoreName + " is deleted by the stack only: not by a " +
				"commit that removes it (Argo CD's prune) nor by the namespace's owners",
		},
		{
			Expression: admission.OnWrite("object.spec.all(k, k in ['provider', 'refreshInterval', 'retrySettings'])"),
			Message:    "a tenant's SecretStore sets only provider, refreshInterval and retrySettings in its spec",
		},
		{
			Expression: admission.OnWrite(fmt.Sprintf("object.spec.?provider.orValue({}).all(k, k == 'aws') && %s.orValue({}).all(k, k in ['service', 'region', 'auth']) && "+
				"%s.?service.orValue('') == 'SecretsManager' && %s.?region.orValue('') == %s", aws, aws, aws, admission.String(region))),
			Message: fmt.Sprintf("a tenant's SecretStore reads AWS Secrets Manager in %s only (provider.aws with service "+
				"SecretsManager, region and auth; no role, additionalRoles, externalID or prefix)", region),
		},
		{
			Expression: admission.OnWrite(fmt.Sprintf("%s.?auth.orValue({}) == {'jwt': {'serviceAccountRef': {'name': %s}}}", aws,
				admission.String(SecretsServiceAccount))),
			Message: "a tenant's SecretStore authenticates as its namespace's " + SecretsServiceAccount + " service " +
				"account (auth.jwt.serviceAccountRef), whose role reads only the tenant's secrets; without it " +
				"external-secrets would read with its own role",
		},
	}
	return p
}

// policies registers the tenant's policies on target c through its Kubernetes provider, after after (resources
// <tenant>-<cluster>-<part>-policy[-binding]: services, external-secrets, and namespaces, secret-stores, the
// fences (quotas, limit-ranges and network-policies) and what keeps the guards (role-bindings, roles, system-pods,
// system-tokens and system-token-requests, ReachPolicies), which exempt the deployer as c's AWS provider's caller).
func policies(ctx *pulumi.Context, comp pulumi.Resource, t TenantSpec, c Target, after []pulumi.Resource) ([]pulumi.Resource, error) {
	if c.Kubernetes == nil || c.AWS == nil {
		return nil, fmt.Errorf("tenant %q: cluster %q has no Kubernetes or AWS provider for its admission policies", t.Name, c.Name)
	}
	opts := []pulumi.ResourceOption{pulumi.Parent(comp), pulumi.Provider(c.Kubernetes), pulumi.DependsOn(after)}
	plain := []admission.Policy{ServicePolicy(t), ExternalSecretPolicy(t)}
	var outputs []pulumi.AnyOutput
	for _, p := range plain {
		outputs = append(outputs, pulumi.Any(p))
	}
	caller := aws.GetCallerIdentityOutput(ctx, aws.GetCallerIdentityOutputArgs{}, pulumi.Provider(c.AWS)).Arn()
	fenced, fences, err := admission.ForCaller(caller, func(arn string) ([]admission.Policy, error) {
		deployer := gitopsbridge.DeployerUsername(arn)
		ps, err := FencePolicies(t, deployer)
		ps = append(ps, ReachPolicies(t, deployer, Velero(c.Velero))...)
		return append([]admission.Policy{NamespacePolicy(t, deployer), SecretStorePolicy(t, c.ExternalSecrets, c.Region, deployer)}, ps...), err
	})
	if err != nil {
		return nil, err
	}
	plain, outputs = append(plain, fenced...), append(outputs, fences...)
	var out []pulumi.Resource
	for i, p := range plain {
		part := strings.TrimPrefix(p.Name, ProjectName(t.Name)+"-")
		rs, err := admission.Register(ctx, t.Name+"-"+c.Name+"-"+part, p.Name, p.Namespaces, outputs[i], opts...)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}
