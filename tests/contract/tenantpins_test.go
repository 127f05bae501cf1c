package contract

import (
	"cmp"
	"fmt"
	"strings"
	"testing"

	synccommon "github.com/argoproj/argo-cd/gitops-engine/pkg/sync/common"
	resourceutil "github.com/argoproj/argo-cd/gitops-engine/pkg/sync/resource"
	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

var (
	namespaceKind       = schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}
	namespaceResource   = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	secretStoreKind     = schema.GroupVersionKind{Group: "external-secrets.io", Version: "v1beta1", Kind: "SecretStore"}
	secretStoreResource = schema.GroupVersionResource{Group: "external-secrets.io", Version: "v1beta1", Resource: "secretstores"}
	serviceKind         = schema.GroupVersionKind{Version: "v1", Kind: "Service"}
	serviceResource     = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	externalSecretKind  = schema.GroupVersionKind{Group: "external-secrets.io", Version: "v1beta1", Kind: "ExternalSecret"}
	externalSecretRes   = schema.GroupVersionResource{Group: "external-secrets.io", Version: "v1beta1", Resource: "externalsecrets"}
)

// folderObjects are the objects of a tenant's file for one cluster, as a commit to its folder carries them
// (tenant.File), by kind and name. A Namespace gets the kubernetes.io/metadata.name label, which the API server
// sets on every namespace before admission (and which the binding selects by).
func folderObjects(t *testing.T, a tenant.TenantSpec, secrets bool, region string) map[string]map[string]any {
	t.Helper()
	content, err := tenant.File(a, nil, secrets, region)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, doc := range strings.Split(content, "---\n")[1:] {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		md := field(obj, "metadata")
		if obj["kind"] == "Namespace" {
			field(obj, "metadata", "labels")[admission.NamespaceNameLabel] = md["name"]
			md["namespace"] = ""
		}
		out[fmt.Sprintf("%s/%s/%s", obj["kind"], md["namespace"], md["name"])] = obj
	}
	return out
}

// TestTenantFolderPins: Kubernetes' own admission code (the API server's ValidatingAdmissionPolicy plugin) runs the
// tenant's two policies over what a commit to tenants/<tenant>/ (or a tenant owner with edit rights on SecretStores)
// can write. The stack's own file is admitted, namespace by namespace at its own level; a lowered or pinned Pod
// Security level, a SecretStore without the tenant's auth, with a role of its own, in another region, on another
// provider or with a controller class, are refused with the policy's message; another namespace is not the
// tenant's to pin. A namespace and its computed SecretStore are deleted by the deployer (any session of its role)
// and kube-controller-manager's namespace controller only: Argo CD deleting an Application with its resources, a
// commit's prune, or an owner is refused; another store, or any on a cluster without external_secrets, anyone deletes.
func TestTenantFolderPins(t *testing.T) {
	a := payments()
	const region = "us-east-2"
	objs := folderObjects(t, a, true, region)
	ns, batch := objs["Namespace//payments"], objs["Namespace//payments-batch"]
	store := objs["SecretStore/payments/aws-secrets-manager"]
	if ns == nil || batch == nil || store == nil {
		t.Fatalf("the tenant's file has no Namespace payments, payments-batch or SecretStore: %v", objs)
	}
	// Argo CD's sync (gitops-engine's isPruningDisabled) reads the live object's Prune sync option: with false it
	// never prunes the Namespace, whatever a commit removes.
	for _, n := range []map[string]any{ns, batch} {
		prune := resourceutil.GetAnnotationOptionValue(&unstructured.Unstructured{Object: n}, synccommon.AnnotationSyncOptions, synccommon.SyncOptionPrune)
		if prune == nil || *prune != synccommon.SyncValueFalse {
			t.Errorf("Argo CD reads the Prune sync option of the file's namespace as %v, want false", prune)
		}
	}
	labels := func(edit func(l map[string]any)) func(o map[string]any) {
		return func(o map[string]any) { edit(field(o, "metadata", "labels")) }
	}
	aws := func(edit func(p map[string]any)) func(o map[string]any) {
		return func(o map[string]any) { edit(field(o, "spec", "provider", "aws")) }
	}
	const committer = "system:serviceaccount:argocd:argocd-application-controller"
	const deployerRole = "arn:aws:sts::111122223333:assumed-role/deployer/"
	const deployer, owner = deployerRole + "pulumi-1700000000", "arn:aws:sts::111122223333:assumed-role/payments/alice"
	namespaces := tenant.NamespacePolicy(a, deployerRole+admission.SessionNameTemplate)
	stores := tenant.SecretStorePolicy(a, true, region, deployerRole+admission.SessionNameTemplate)
	services, externalSecrets := tenant.ServicePolicy(a), tenant.ExternalSecretPolicy(a)
	service := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "web", "namespace": "payments"},
		"spec": map[string]any{"selector": map[string]any{"app": "web"}, "ports": []any{map[string]any{"port": 80}}}}
	serviceSpec := func(edit func(s map[string]any)) map[string]any {
		return edited(t, service, func(o map[string]any) { edit(field(o, "spec")) })
	}
	externalSecret := map[string]any{"apiVersion": "external-secrets.io/v1beta1", "kind": "ExternalSecret",
		"metadata": map[string]any{"name": "db", "namespace": "payments"},
		"spec": map[string]any{"secretStoreRef": map[string]any{"name": tenant.SecretStoreName, "kind": "SecretStore"},
			"target": map[string]any{"name": "db"},
			"data":   []any{map[string]any{"secretKey": "password", "remoteRef": map[string]any{"key": "payments/db"}}}}}
	esSpec := func(edit func(s map[string]any)) map[string]any {
		return edited(t, externalSecret, func(o map[string]any) { edit(field(o, "spec")) })
	}
	for name, tc := range map[string]struct {
		policy    admission.Policy
		obj, old  map[string]any
		namespace string
		user      string // committer when ""
		want      string // "" admitted, else part of the refusal
	}{
		"the file's namespace":                   {policy: namespaces, obj: ns},
		"the file's baseline namespace":          {policy: namespaces, obj: batch},
		"the file's namespace, relabelled again": {policy: namespaces, obj: ns, old: ns},
		"enforce privileged": {policy: namespaces, obj: edited(t, ns, labels(func(l map[string]any) {
			l["pod-security.kubernetes.io/enforce"] = "privileged"
		})), old: ns, want: "tenant namespace payments enforces, audits and warns Pod Security level restricted"},
		"baseline's level on a restricted namespace": {policy: namespaces, obj: edited(t, ns, labels(func(l map[string]any) {
			for _, m := range []string{"enforce", "audit", "warn"} {
				l["pod-security.kubernetes.io/"+m] = "baseline"
			}
		})), want: "Pod Security level restricted"},
		"no enforce label": {policy: namespaces, obj: edited(t, batch, labels(func(l map[string]any) {
			delete(l, "pod-security.kubernetes.io/enforce")
		})), want: "tenant namespace payments-batch enforces, audits and warns Pod Security level baseline"},
		"a version pin": {policy: namespaces, obj: edited(t, ns, labels(func(l map[string]any) {
			l["pod-security.kubernetes.io/enforce-version"] = "v1.0"
		})), want: "no other Pod Security Admission label"},
		"another team's label": {policy: namespaces, obj: edited(t, ns, labels(func(l map[string]any) {
			l["team"] = "payments"
		}))},
		"a namespace not the tenant's": {policy: namespaces, obj: edited(t, ns, func(o map[string]any) {
			field(o, "metadata")["name"] = "kube-system"
			field(o, "metadata", "labels")[admission.NamespaceNameLabel] = "kube-system"
			field(o, "metadata", "labels")["pod-security.kubernetes.io/enforce"] = "privileged"
		})},

		"the file's namespace, its Prune=false dropped by a commit": {policy: namespaces, old: ns,
			obj:  edited(t, ns, func(o map[string]any) { delete(field(o, "metadata", "annotations"), tenant.SyncOptionsAnnotation) }),
			want: "keeps argocd.argoproj.io/sync-options: Prune=false"},
		"the file's namespace, pruning allowed again": {policy: namespaces, old: ns,
			obj: edited(t, ns, func(o map[string]any) {
				field(o, "metadata", "annotations")[tenant.SyncOptionsAnnotation] = "Prune=true"
			}),
			want: "keeps argocd.argoproj.io/sync-options: Prune=false"},
		"the file's namespace with another sync option too": {policy: namespaces, old: ns,
			obj: edited(t, ns, func(o map[string]any) {
				field(o, "metadata", "annotations")[tenant.SyncOptionsAnnotation] = "ServerSideApply=true, Prune=false"
			})},

		"a tenant's Service":     {policy: services, obj: service, namespace: "payments"},
		"a LoadBalancer Service": {policy: services, obj: serviceSpec(func(s map[string]any) { s["type"] = "LoadBalancer" }), namespace: "payments"},
		"a Service with externalIPs": {policy: services, namespace: "payments", want: "sets no externalIPs (CVE-2020-8554",
			obj: serviceSpec(func(s map[string]any) { s["externalIPs"] = []any{"10.96.0.10"} })},
		"an ExternalName Service": {policy: services, namespace: "payments", want: "not of type ExternalName",
			obj: serviceSpec(func(s map[string]any) {
				s["type"], s["externalName"] = "ExternalName", "kubernetes.default.svc.cluster.local"
				delete(s, "selector")
			})},
		"externalIPs outside the tenant's namespaces": {policy: services, namespace: "search",
			obj: serviceSpec(func(s map[string]any) { s["externalIPs"] = []any{"10.96.0.10"} })},

		"a tenant's ExternalSecret": {policy: externalSecrets, obj: externalSecret, namespace: "payments"},
		"an ExternalSecret through a ClusterSecretStore": {policy: externalSecrets, namespace: "payments", want: "its namespace's own SecretStore",
			obj: esSpec(func(s map[string]any) { field(s, "secretStoreRef")["kind"] = "ClusterSecretStore" })},
		"an ExternalSecret through another store": {policy: externalSecrets, namespace: "payments", want: "its namespace's own SecretStore",
			obj: esSpec(func(s map[string]any) { field(s, "secretStoreRef")["name"] = "platform" })},
		"an ExternalSecret whose data reads another store": {policy: externalSecrets, namespace: "payments", want: "its namespace's own SecretStore",
			obj: esSpec(func(s map[string]any) {
				s["data"] = []any{map[string]any{"secretKey": "k", "remoteRef": map[string]any{"key": "platform/admin"},
					"sourceRef": map[string]any{"storeRef": map[string]any{"name": "all", "kind": "ClusterSecretStore"}}}}
			})},
		"an ExternalSecret from a generator": {policy: externalSecrets, namespace: "payments", want: "names no generator",
			obj: esSpec(func(s map[string]any) {
				delete(s, "data")
				s["dataFrom"] = []any{map[string]any{"sourceRef": map[string]any{"generatorRef": map[string]any{
					"apiVersion": "generators.external-secrets.io/v1alpha1", "kind": "ECRAuthorizationToken", "name": "ecr"}}}}
			})},

		"the file's SecretStore": {policy: stores, obj: store, namespace: "payments"},
		"the file's SecretStore, refreshed hourly": {policy: stores, obj: edited(t, store, func(o map[string]any) {
			field(o, "spec")["refreshInterval"] = 3600
		}), old: store, namespace: "payments"},
		"no auth": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) { delete(p, "auth") })),
			namespace: "payments", want: "authenticates as its namespace's tenant-secrets service account"},
		"another service account": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) {
			p["auth"] = map[string]any{"jwt": map[string]any{"serviceAccountRef": map[string]any{"name": "ledger"}}}
		})), namespace: "payments-batch", want: "authenticates as"},
		"another namespace's service account": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) {
			field(p, "auth", "jwt", "serviceAccountRef")["namespace"] = "external-secrets"
		})), namespace: "payments", want: "authenticates as"},
		"static credentials": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) {
			p["auth"] = map[string]any{"secretRef": map[string]any{"accessKeyIDSecretRef": map[string]any{"name": "keys", "key": "id"}}}
		})), namespace: "payments", want: "authenticates as"},
		"a role to assume": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) {
			p["role"] = "arn:aws:iam::111122223333:role/platform-secrets"
		})), namespace: "payments", want: "reads AWS Secrets Manager in us-east-2 only"},
		"another region": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) { p["region"] = "eu-west-1" })),
			namespace: "payments", want: "reads AWS Secrets Manager in us-east-2 only"},
		"Parameter Store": {policy: stores, obj: edited(t, store, aws(func(p map[string]any) { p["service"] = "ParameterStore" })),
			namespace: "payments", want: "reads AWS Secrets Manager"},
		"another provider": {policy: stores, obj: edited(t, store, func(o map[string]any) {
			field(o, "spec")["provider"] = map[string]any{"vault": map[string]any{"server": "https://vault.example.com"}}
		}), namespace: "payments", want: "reads AWS Secrets Manager"},
		"a controller class": {policy: stores, obj: edited(t, store, func(o map[string]any) { field(o, "spec")["controller"] = "other" }),
			namespace: "payments", want: "sets only provider, refreshInterval and retrySettings"},
		"a SecretStore in a namespace not the tenant's": {policy: stores, obj: edited(t, store, func(o map[string]any) {
			field(o, "metadata")["namespace"] = "search"
			delete(field(o, "spec", "provider", "aws"), "auth")
		}), namespace: "search"},
		"the file's SecretStore where no external_secrets runs": {policy: tenant.SecretStorePolicy(a, false, region, deployerRole+admission.SessionNameTemplate),
			obj: store, namespace: "payments", want: "the cluster runs no external_secrets add-on"},

		// A Namespace's DELETE names the namespace itself as the request's namespace (the API server's RequestInfo),
		// whose labels the binding's selector then reads from the namespace lister.
		"the namespace deleted with its Application (Argo CD's resources finalizer)": {policy: namespaces, old: ns,
			namespace: "payments", want: "a tenant's namespaces are deleted by the stack only"},
		"the namespace deleted by an owner": {policy: namespaces, old: batch, namespace: "payments-batch", user: owner,
			want: "deleted by the stack only"},
		"the namespace deleted by the deployer": {policy: namespaces, old: ns, namespace: "payments", user: deployer},
		"a namespace not the tenant's, deleted": {policy: namespaces, namespace: "search", old: edited(t, ns, func(o map[string]any) {
			field(o, "metadata")["name"] = "search"
			field(o, "metadata", "labels")[admission.NamespaceNameLabel] = "search"
		})},
		"the file's SecretStore pruned by a commit": {policy: stores, old: store, namespace: "payments",
			want: "SecretStore aws-secrets-manager is deleted by the stack only"},
		"the file's SecretStore deleted by an owner": {policy: stores, old: store, namespace: "payments", user: owner,
			want: "deleted by the stack only"},
		"the file's SecretStore deleted by the deployer": {policy: stores, old: store, namespace: "payments", user: deployer},
		"the file's SecretStore deleted with its namespace": {policy: stores, old: store, namespace: "payments",
			user: "system:serviceaccount:kube-system:namespace-controller"},
		"another SecretStore, deleted by a commit": {policy: stores, namespace: "payments",
			old: edited(t, store, func(o map[string]any) { field(o, "metadata")["name"] = "platform" })},
		"a SecretStore deleted where no external_secrets runs": {policy: tenant.SecretStorePolicy(a, false, region, deployerRole+admission.SessionNameTemplate),
			old: store, namespace: "payments"},
	} {
		t.Run(name, func(t *testing.T) {
			kind, res := namespaceKind, namespaceResource
			switch tc.policy.Resource {
			case "secretstores":
				kind, res = secretStoreKind, secretStoreResource
			case "services":
				kind, res = serviceKind, serviceResource
			case "externalsecrets":
				kind, res = externalSecretKind, externalSecretRes
			}
			user := cmp.Or(tc.user, committer)
			ok, msg := admit(t, tc.policy, tc.obj, tc.old, tc.namespace, user, kind, res)
			switch {
			case tc.want == "" && !ok:
				t.Errorf("refused: %s", msg)
			case tc.want != "" && ok:
				t.Errorf("admitted (%s), want refused with %q", msg, tc.want)
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Errorf("refused with %q, want %q", msg, tc.want)
			}
		})
	}
}
