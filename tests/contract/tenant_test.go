package contract

import (
	"testing"

	"github.com/argoproj/argo-cd/v3/applicationset/controllers/template"
	"github.com/argoproj/argo-cd/v3/applicationset/generators"
	"github.com/argoproj/argo-cd/v3/applicationset/utils"
	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/networking"
	k8snetworkingv1 "k8s.io/kubernetes/pkg/apis/networking/v1"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	psaapi "k8s.io/pod-security-admission/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"
)

const tenantRepo = "https://github.com/acme/payments-deploy"

// payments is a tenant with two namespaces on spoke-a.
func payments() tenant.TenantSpec {
	return tenant.WithDefaults(tenant.TenantSpec{Name: "payments", SourceRepos: []string{tenantRepo},
		Namespaces: []tenant.TenantNamespace{{Name: "payments"}, {Name: "payments-batch", PodSecurity: "baseline"}},
		Owners:     []tenant.TenantOwner{{Arn: "arn:aws:iam::111122223333:role/payments", Groups: []string{"payments"}}}})
}

// TestTenantProject: Argo CD v3.5.7's project checks over the tenant's project: its Applications may deploy its
// workloads into its namespaces on the clusters it selects, and nothing else: not another tenant's namespace, not
// a cluster-scoped kind, not a platform kind, no kind outside the workload kinds and its extraKinds (issue 36's
// ACK, load balancer, CA, Gateway and hand-written endpoint objects), not the hub, not another repository.
func TestTenantProject(t *testing.T) {
	hub, spoke := fleetSecrets(t)
	project := tenant.Project(payments(), []string{"spoke-a"}, argocdNamespace)
	src := argov1alpha1.ApplicationSource{RepoURL: tenantRepo, Path: "apps/api", TargetRevision: "main"}
	dest := argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "payments"}
	deployment := func(ns string) []syncedObject {
		return []syncedObject{{Group: "apps", Kind: "Deployment", Name: "api", Namespace: ns, Namespaced: true},
			{Kind: "Service", Name: "api", Namespace: ns, Namespaced: true}}
	}
	runProjectCases(t, project, secretObjects(t, hub, spoke), map[string]projectCase{
		"its workload":                   {source: src, dest: dest, objects: deployment("")},
		"its other namespace":            {source: src, dest: argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "payments-batch"}, objects: deployment("")},
		"another tenant's namespace":     {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Name: "spoke-a", Namespace: "orders"}},
		"an object into another's":       {refused: true, source: src, dest: dest, objects: deployment("orders")},
		"kube-system":                    {refused: true, source: src, dest: dest, objects: deployment("kube-system")},
		"a cluster-scoped kind":          {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding", Name: "pwn"}}},
		"a Namespace":                    {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "Namespace", Name: "payments-2"}}},
		"a NetworkPolicy":                {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "networking.k8s.io", Kind: "NetworkPolicy", Name: "allow-all", Namespaced: true}}},
		"a ResourceQuota":                {refused: true, source: src, dest: dest, objects: []syncedObject{{Kind: "ResourceQuota", Name: "tenant-quota", Namespaced: true}}},
		"a RoleBinding":                  {refused: true, source: src, dest: dest, objects: []syncedObject{{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding", Name: "admin", Namespaced: true}}},
		"the hub":                        {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Server: gitopsbridge.InClusterServer, Namespace: "payments"}},
		"another repository":             {refused: true, source: argov1alpha1.ApplicationSource{RepoURL: "https://github.com/evil/apps", Path: ".", TargetRevision: "main"}, dest: dest},
		"its namespace on another spoke": {refused: true, source: src, dest: argov1alpha1.ApplicationDestination{Name: "hub", Namespace: "payments"}},
		"an ACK AdoptedResource":         {refused: true, source: src, dest: dest, objects: namespaced("services.k8s.aws", "AdoptedResource", "prod-db")},
		"a TargetGroupBinding":           {refused: true, source: src, dest: dest, objects: namespaced("elbv2.k8s.aws", "TargetGroupBinding", "other-lb")},
		"an AWSPCAIssuer":                {refused: true, source: src, dest: dest, objects: namespaced("awspca.cert-manager.io", "AWSPCAIssuer", "platform-ca")},
		"a Gateway":                      {refused: true, source: src, dest: dest, objects: namespaced("gateway.networking.k8s.io", "Gateway", "lattice")},
		"an EndpointSlice by hand":       {refused: true, source: src, dest: dest, objects: namespaced("discovery.k8s.io", "EndpointSlice", "metadata")},
		"an Ingress, not named":          {refused: true, source: src, dest: dest, objects: namespaced("networking.k8s.io", "Ingress", "api")},
		"a SecretStore of its own":       {refused: true, source: src, dest: dest, objects: namespaced("external-secrets.io", "SecretStore", "any")},
		"an ExternalSecret":              {source: src, dest: dest, objects: namespaced("external-secrets.io", "ExternalSecret", "db")},
	})
	withIngress := payments()
	withIngress.ExtraKinds = []tenant.TenantKind{{Group: "networking.k8s.io", Kind: "Ingress"}}
	runProjectCases(t, tenant.Project(withIngress, []string{"spoke-a"}, argocdNamespace), secretObjects(t, hub, spoke), map[string]projectCase{
		"an Ingress, named in extraKinds": {source: src, dest: dest, objects: namespaced("networking.k8s.io", "Ingress", "api")},
		"still no TargetGroupBinding":     {refused: true, source: src, dest: dest, objects: namespaced("elbv2.k8s.aws", "TargetGroupBinding", "other-lb")},
	})
}

// namespaced is one namespaced object of group and kind, in the destination's namespace.
func namespaced(group, kind, name string) []syncedObject {
	return []syncedObject{{Group: group, Kind: kind, Name: name, Namespaced: true}}
}

// TestTenantManifests: every object of a tenant namespace passes Kubernetes v1.36's own validation (after its
// defaults), the way the API server would admit it, and Pod Security Admission reads the namespace's labels as
// the level the tenant asked for.
func TestTenantManifests(t *testing.T) {
	a := payments()
	for _, n := range a.Namespaces {
		ms, err := tenant.Manifests(a, n, tenant.Identities{tenant.SecretsServiceAccount: "arn:aws:iam::111122223333:role/s"}, true, "us-east-2")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			kind := m["kind"].(string)
			var errs k8sfield.ErrorList
			switch kind {
			case "Namespace":
				v1 := typed[corev1.Namespace](t, m)
				k8scorev1.SetObjectDefaults_Namespace(&v1)
				var in core.Namespace
				convert(t, k8scorev1.Convert_v1_Namespace_To_core_Namespace(&v1, &in, nil))
				errs = corevalidation.ValidateNamespace(&in)
				policy, perrs := psaapi.PolicyToEvaluate(v1.Labels, psaapi.Policy{})
				if len(perrs) > 0 || string(policy.Enforce.Level) != n.PodSecurity || string(policy.Warn.Level) != n.PodSecurity {
					t.Errorf("namespace %s: Pod Security Admission reads %+v (%v), want %s", n.Name, policy, perrs, n.PodSecurity)
				}
			case "ResourceQuota":
				v1 := typed[corev1.ResourceQuota](t, m)
				var in core.ResourceQuota
				convert(t, k8scorev1.Convert_v1_ResourceQuota_To_core_ResourceQuota(&v1, &in, nil))
				errs = corevalidation.ValidateResourceQuota(&in)
			case "LimitRange":
				v1 := typed[corev1.LimitRange](t, m)
				var in core.LimitRange
				convert(t, k8scorev1.Convert_v1_LimitRange_To_core_LimitRange(&v1, &in, nil))
				errs = corevalidation.ValidateLimitRange(&in)
			case "NetworkPolicy":
				v1 := typed[networkingv1.NetworkPolicy](t, m)
				k8snetworkingv1.SetObjectDefaults_NetworkPolicy(&v1)
				var in networking.NetworkPolicy
				convert(t, k8snetworkingv1.Convert_v1_NetworkPolicy_To_networking_NetworkPolicy(&v1, &in, nil))
				errs = networkingvalidation.ValidateNetworkPolicy(&in, networkingvalidation.NetworkPolicyValidationOptions{})
			case "ServiceAccount":
				v1 := typed[corev1.ServiceAccount](t, m)
				var in core.ServiceAccount
				convert(t, k8scorev1.Convert_v1_ServiceAccount_To_core_ServiceAccount(&v1, &in, nil))
				errs = corevalidation.ValidateServiceAccount(&in)
			case "SecretStore":
				continue // external-secrets' CRD is not among the upstream copies here; the unit test checks its shape
			default:
				t.Errorf("namespace %s: unexpected %s", n.Name, kind)
			}
			if len(errs) > 0 {
				t.Errorf("namespace %s: %s %v: %v", n.Name, kind, m["metadata"], errs.ToAggregate())
			}
		}
	}
}

// typed reads a manifest into its v1 type, strictly.
func typed[T any](t *testing.T, m map[string]any) T {
	t.Helper()
	var out T
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(m, &out, true); err != nil {
		t.Fatalf("%v: %v", m["kind"], err)
	}
	return out
}

func convert(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTenantApplicationSet: Argo CD's own ApplicationSet generators and renderer over the tenant's ApplicationSet
// and the fleet's cluster secrets make one Application per selected cluster (not the hub, not a decommissioned
// spoke), and the tenant's project permits each.
func TestTenantApplicationSet(t *testing.T) {
	secrets := withRetiredSpoke(t)
	a := payments()
	selected := []string{"spoke-a", "spoke-old"}
	spec := tenant.ApplicationSet(a, selected, tenant.TenantWorkloads{URL: tenantRepo, Path: "clusters", Revision: "main"})
	apps := generateSet(t, spec, secrets)
	if len(apps) != 1 || apps[0].Spec.Destination.Name != "spoke-a" || apps[0].Name != "payments-spoke-a" {
		t.Fatalf("Applications %v: want payments-spoke-a only (the hub is not selected, spoke-old is decommissioned)", apps)
	}
	app := apps[0]
	if app.Spec.Source.Path != "clusters/spoke-a" || app.Spec.Project != tenant.ProjectName("payments") {
		t.Errorf("Application %+v", app.Spec)
	}
	adb := argoDB(t, argocdNamespace, secrets...)
	deploy := []syncedObject{{Group: "apps", Kind: "Deployment", Name: "api", Namespaced: true}}
	if err := permitted(t, tenant.Project(a, selected, argocdNamespace), *app.Spec.Source, app.Spec.Destination, adb, deploy); err != nil {
		t.Errorf("the tenant's project refuses its own Application: %v", err)
	}
}

// generateSet is what Argo CD's own ApplicationSet generators and renderer make of an ApplicationSet spec over the
// cluster secrets in Argo CD's namespace (the set read strictly as Argo CD's type).
func generateSet(t *testing.T, spec map[string]any, secrets []corev1.Secret) []argov1alpha1.Application {
	t.Helper()
	raw, err := yaml.Marshal(map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "ApplicationSet",
		"metadata": map[string]any{"name": "set", "namespace": argocdNamespace}, "spec": spec})
	if err != nil {
		t.Fatal(err)
	}
	var set argov1alpha1.ApplicationSet
	if err := yaml.UnmarshalStrict(raw, &set); err != nil {
		t.Fatalf("ApplicationSet: %v", err)
	}
	objs := make([]client.Object, len(secrets))
	for i := range secrets {
		objs[i] = stored(secrets[i])
	}
	log.SetLevel(log.WarnLevel)
	c := fake.NewClientBuilder().WithObjects(objs...).Build()
	gens := generators.GetGenerators(t.Context(), c, nil, argocdNamespace, nil, nil, generators.SCMConfig{}, nil)
	apps, _, err := template.GenerateApplications(log.NewEntry(log.StandardLogger()), set, gens, &utils.Render{}, c)
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

// withRetiredSpoke are the fleet's cluster secrets (the hub, spoke-a) and a decommissioned spoke-old.
func withRetiredSpoke(t *testing.T) []corev1.Secret {
	t.Helper()
	hub, spoke := fleetSecrets(t)
	retired := edited(t, spoke, func(o map[string]any) {
		field(o, "metadata")["name"] = "spoke-old"
		field(o, "metadata")["labels"].(map[string]any)["cluster_name"] = "spoke-old"
		field(o, "metadata")["labels"].(map[string]any)[gitopsbridge.DecommissionLabel] = "true"
		field(o, "stringData")["name"] = "spoke-old"
	})
	return secretObjects(t, hub, spoke, retired)
}
