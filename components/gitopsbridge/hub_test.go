package gitopsbridge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

const (
	releaseType     = "kubernetes:helm.sh/v3:Release"
	associationType = "aws:eks/podIdentityAssociation:PodIdentityAssociation"
)

// progressiveSyncs are the chart values that start the ApplicationSet controller with progressive syncs (the waves'
// RollingSync steps, docs/waves.md).
var progressiveSyncs = map[string]any{"params": map[string]any{"applicationsetcontroller.enable.progressive.syncs": "true"}}

func TestHelmRelease(t *testing.T) {
	cases := map[string]struct {
		reason string
		hub    Hub
		want   map[string]any
	}{
		"defaults": {
			reason: "the pinned argo-cd chart from Argo Helm, service accounts named for Pod Identity",
			want: map[string]any{
				"name": "argo-cd", "chart": "argo-cd", "version": DefaultChartVersion, "namespace": "argocd",
				"repositoryOpts": map[string]any{"repo": DefaultChartRepository},
				"values": map[string]any{
					"controller":     map[string]any{"serviceAccount": map[string]any{"name": "argocd-application-controller"}},
					"applicationSet": map[string]any{"serviceAccount": map[string]any{"name": "argocd-applicationset-controller"}},
					"server":         map[string]any{"serviceAccount": map[string]any{"name": "argocd-server"}},
					"configs":        progressiveSyncs,
				},
			},
		},
		"overrides and HA": {
			reason: "version, release name and repository are overridable; user values win key by key over the HA values",
			hub: Hub{ReleaseName: "gitops", ChartVersion: "9.0.0", ChartRepository: "oci://registry.example.com/charts",
				HighAvailability: true,
				Values:           map[string]any{"server": map[string]any{"replicas": 3}, "global": map[string]any{"domain": "argo.example.com"}}},
			want: map[string]any{
				"name": "gitops", "chart": "argo-cd", "version": "9.0.0", "namespace": "argocd",
				"repositoryOpts": map[string]any{"repo": "oci://registry.example.com/charts"},
				"values": map[string]any{
					"controller": map[string]any{"replicas": 1.0,
						"serviceAccount": map[string]any{"name": "argocd-application-controller"}},
					"applicationSet": map[string]any{"replicas": 2.0,
						"serviceAccount": map[string]any{"name": "argocd-applicationset-controller"}},
					"server":     map[string]any{"replicas": 3.0, "serviceAccount": map[string]any{"name": "argocd-server"}},
					"repoServer": map[string]any{"replicas": 2.0},
					"redis-ha":   map[string]any{"enabled": true},
					"global":     map[string]any{"domain": "argo.example.com"},
					"configs":    progressiveSyncs,
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := hubArgs()
			args.Hub = &tc.hub
			cloud, gb := build(t, "hub", args)
			r := cloud.MustGet(t, releaseType, "hub-argocd")
			got := r.InputsLike(tc.want)
			for _, component := range []string{"controller", "server"} { // TestHubClusterRoles
				delete(got["values"].(map[string]any)[component].(map[string]any), "clusterRoleRules")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
			if s := mocks.Await[string](t, gb.ArgoCdReleaseStatus); s != "deployed" {
				t.Errorf("argocdReleaseStatus = %q", s)
			}
			if ns := mocks.Await[string](t, gb.ArgoCdNamespace); ns != "argocd" {
				t.Errorf("argocdNamespace = %q", ns)
			}
		})
	}
}

// TestAnyNamespaceValues: with Applications and ApplicationSets in the repositories' namespaces, the chart values
// name those namespaces and turn the SCM provider generators off, without which Argo CD v3's ApplicationSet
// controller exits at start ("When enabling applicationset in any namespace using applicationset-namespaces, you
// must either set --enable-scm-providers=false or specify --allowed-scm-providers", seen on the offline hub).
func TestAnyNamespaceValues(t *testing.T) {
	got := ChartValues(Hub{}, []string{"argocd-addons", "argocd-workloads"})
	want := map[string]any{
		"application.namespaces":                        "argocd-addons,argocd-workloads",
		"applicationsetcontroller.namespaces":           "argocd-addons,argocd-workloads",
		"applicationsetcontroller.enable.scm.providers": "false",
		// The ApplicationSet controller steps RollingSync sets through the waves.
		"applicationsetcontroller.enable.progressive.syncs": "true",
	}
	if diff := cmp.Diff(want, got["configs"].(map[string]any)["params"]); diff != "" {
		t.Errorf("argocd-cmd-params-cm (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"allowAnyNamespace": true, "serviceAccount": map[string]any{"name": ApplicationSetServiceAccount}},
		got["applicationSet"]); diff != "" {
		t.Errorf("applicationSet values (-want +got):\n%s", diff)
	}
}

func TestHubOrder(t *testing.T) {
	cloud, _ := build(t, "hub", hubArgs())
	release := cloud.MustGet(t, releaseType, "hub-argocd")
	for _, a := range cloud.OfType(associationType) {
		if !slices.Contains(release.Dependencies, mocks.URN(TypeToken, associationType, a.Name)) {
			t.Errorf("Argo CD is installed before Pod Identity association %s: its pods would start without AWS credentials", a.Name)
		}
	}
	ns := cloud.MustGet(t, "kubernetes:core/v1:Namespace", "hub-namespace")
	if ns.Input("metadata").(map[string]any)["name"] != "argocd" {
		t.Errorf("namespace = %v", ns.Input("metadata"))
	}
	secret := cloud.MustGet(t, secretType, "hub-cluster-secret")
	if !slices.Contains(secret.Dependencies, mocks.URN(TypeToken, "kubernetes:core/v1:Namespace", "hub-namespace")) {
		t.Error("the in-cluster secret is not created after its namespace")
	}
	for _, r := range []mocks.Resource{release, ns, secret} {
		if !strings.Contains(r.Provider, "pulumi:providers:kubernetes::hub-k8s::") {
			t.Errorf("%s does not go through the hub's provider built from its kubeconfig: %q", r.Name, r.Provider)
		}
	}
	k8s := cloud.MustGet(t, "pulumi:providers:kubernetes", "hub-k8s")
	if !k8s.Inputs["kubeconfig"].ContainsSecrets() {
		t.Error("the hub kubeconfig is not secret")
	}
	// The provider replaces a Secret whose data changes unless told otherwise, deleting it first: a cluster secret
	// gone for a moment unregisters its cluster from Argo CD (clusterinfo.NewKubernetesProvider).
	for _, mutable := range []string{"enableSecretMutable", "enableConfigMapMutable"} {
		if got := k8s.Input(mutable); got != true {
			t.Errorf("the hub's provider has %s %v, want true: cluster secrets are updated in place", mutable, got)
		}
	}
}

func TestManagementRole(t *testing.T) {
	cloud, gb := build(t, "hub", hubArgs())
	role := cloud.MustGet(t, "aws:iam/role:Role", "hub-argocd-management")
	if role.Region != "us-east-1" || role.Input("path") != HubRolePath {
		t.Errorf("role in region %q with path %v; want us-east-1 and %s", role.Region, role.Input("path"), HubRolePath)
	}
	// The EKS User Guide's Pod Identity trust policy, conditioned on the session tags of this cluster, Argo CD's
	// namespace and the two Argo CD controllers that call AWS (not the server: no serverClusterAccess).
	wantTrust := `{"Version":"2012-10-17","Statement":[{"Sid":"AllowEksAuthToAssumeRoleForPodIdentity","Effect":"Allow",` +
		`"Principal":{"Service":"pods.eks.amazonaws.com"},"Action":["sts:AssumeRole","sts:TagSession"],` +
		`"Condition":{"StringEquals":{"aws:RequestTag/eks-cluster-arn":["arn:aws:eks:us-east-1:123456789012:cluster/hub"],` +
		`"aws:RequestTag/kubernetes-namespace":["argocd"],"aws:RequestTag/kubernetes-service-account":` +
		`["argocd-application-controller","argocd-applicationset-controller"]}}}]}`
	if got := role.Input("assumeRolePolicy"); got != wantTrust {
		t.Errorf("only Argo CD's service accounts on the hub cluster may assume the role:\n got %s\nwant %s", got, wantTrust)
	}
	cases := map[string]struct {
		reason   string
		accounts []string
		want     string
	}{
		"hub account by default": {reason: "a single-account fleet reaches spoke roles of its own account only",
			want: `["123456789012"]`},
		"listed accounts": {reason: "a cross-account fleet lists its accounts", accounts: []string{"111111111111", "222222222222"},
			want: `["111111111111","222222222222"]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := hubArgs()
			args.Hub.SpokeAccountIds = tc.accounts
			cloud, _ := build(t, "hub", args)
			got := cloud.MustGet(t, "aws:iam/rolePolicy:RolePolicy", "hub-argocd-management").Input("policy")
			want := `{"Version":"2012-10-17","Statement":[{"Sid":"AssumeSpokeRoles","Effect":"Allow","Action":["sts:AssumeRole","sts:TagSession"],` +
				`"Resource":["arn:aws:iam::*:role/gitops-fleet/spoke/*"],"Condition":{"StringEquals":{"aws:ResourceAccount":` + tc.want + `}}}]}`
			if got != want {
				t.Errorf("%s:\n got %s\nwant %s", tc.reason, got, want)
			}
		})
	}
	var got []string
	for _, a := range cloud.OfType(associationType) {
		got = append(got, a.Input("namespace").(string)+"/"+a.Input("serviceAccount").(string)+"@"+a.Input("clusterName").(string))
		if a.Input("roleArn") != mocks.Await[string](t, gb.ManagementRoleArn) {
			t.Errorf("%s binds %v, not the management role", a.Name, a.Input("roleArn"))
		}
	}
	slices.Sort(got)
	want := []string{"argocd/argocd-application-controller@hub", "argocd/argocd-applicationset-controller@hub"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pod Identity associations (-want +got):\n%s", diff)
	}
	// With serverClusterAccess, Argo CD's server holds the role too, and may assume it.
	args := hubArgs()
	args.Hub.ServerClusterAccess = true
	cloud, _ = build(t, "hub", args)
	cloud.MustGet(t, associationType, "hub-argocd-server")
	if trust := cloud.MustGet(t, "aws:iam/role:Role", "hub-argocd-management").Input("assumeRolePolicy").(string); !strings.Contains(trust, `"argocd-server"`) {
		t.Errorf("with serverClusterAccess the server may not assume the role: %s", trust)
	}
}

func TestRenamedServiceAccountIsBound(t *testing.T) {
	args := hubArgs()
	args.Hub.ServerClusterAccess = true
	args.Hub.Values = map[string]any{"server": map[string]any{"serviceAccount": map[string]any{"name": "argo-web"}}}
	cloud, _ := build(t, "hub", args)
	a := cloud.MustGet(t, associationType, "hub-argocd-server")
	if a.Input("serviceAccount") != "argo-web" {
		t.Errorf("the association binds %v, not the service account the values name", a.Input("serviceAccount"))
	}
}

func TestMergeValues(t *testing.T) {
	cases := map[string]struct {
		reason     string
		base, over map[string]any
		want       map[string]any
	}{
		"nested maps merge": {
			reason: "maps merge key by key as Helm merges values files",
			base:   map[string]any{"a": map[string]any{"x": 1, "y": 2}},
			over:   map[string]any{"a": map[string]any{"y": 3}},
			want:   map[string]any{"a": map[string]any{"x": 1, "y": 3}},
		},
		"scalars and lists replace": {
			reason: "anything that is not a map on both sides is replaced",
			base:   map[string]any{"a": []any{1}, "b": map[string]any{"x": 1}},
			over:   map[string]any{"a": []any{2}, "b": "off"},
			want:   map[string]any{"a": []any{2}, "b": "off"},
		},
		"nil": {reason: "no values merge to an empty map", want: map[string]any{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, MergeValues(tc.base, tc.over)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
	base := map[string]any{"a": map[string]any{"x": 1}}
	MergeValues(base, map[string]any{"a": map[string]any{"x": 2}})
	if base["a"].(map[string]any)["x"] != 1 {
		t.Error("MergeValues changed its base")
	}
}

func decode(t *testing.T, v any) iampolicy.Document {
	t.Helper()
	var doc iampolicy.Document
	if err := json.Unmarshal([]byte(v.(string)), &doc); err != nil {
		t.Fatalf("not a policy document: %v", err)
	}
	return doc
}

// TestOneAWSProvider: a hub given no aws provider makes one for its region, shared by the management role and the
// guard's caller identity (two would be one URN twice, which the engine refuses).
func TestOneAWSProvider(t *testing.T) {
	cloud, _ := build(t, "hub", hubArgs())
	n := 0
	for _, r := range cloud.Resources() {
		if r.Type == "pulumi:providers:aws" && r.Name == "hub-aws" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d aws providers named hub-aws, want 1", n)
	}
}
