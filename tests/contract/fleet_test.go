package contract

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/argo"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/examples/fleet/fleetstack"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// everyAddon is the spoke that enables every add-on of the catalogue; its environment is prod so that the
// template's environment overlays (merge generator) take part.
const everyAddon = "spoke-all"

// catalogueSettings are the settings the catalogue's add-ons require, in the stack config's camelCase.
var catalogueSettings = map[string]any{
	"externalDns": map[string]any{"hostedZoneIds": []string{"Z0CONTRACT0000000000"}, "domainFilters": []string{"apps.example.com"}},
	"certManager": map[string]any{"hostedZoneIds": []string{"Z0CONTRACT0000000000"}},
	"awsPrivatecaIssuer": map[string]any{"certificateAuthorityArns": []string{
		"arn:aws:acm-pca:us-east-2:111122223333:certificate-authority/0f1e2d3c-aaaa-bbbb-cccc-000000000000"}},
	// The upstream policies are what the contract checks: accepted as they are.
	"acceptAccountWide": fleetcluster.AccountWideAddons(),
}

// fleetConfig is the stack config of the contract fleet: a hub with a few add-ons and a spoke with all of them.
func fleetConfig() map[string]any {
	all := map[string]bool{}
	for _, n := range addons.Names() {
		all[n] = true
	}
	repo := map[string]any{"url": "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
		"revision": "main", "path": "bootstrap/control-plane/addons"}
	return map[string]any{"config": map[string]any{
		"aws:region":                "us-east-1",
		"gitops-fleet:repositories": map[string]any{"addons": repo},
		"gitops-fleet:clusters": []any{
			map[string]any{"name": "hub", "region": "us-east-1", "role": "hub", "vpcCidr": "10.10.0.0/16",
				"addons": map[string]bool{"aws_load_balancer_controller": true, "metrics_server": true, "argocd": false}},
			map[string]any{"name": everyAddon, "region": "us-east-2", "role": "spoke", "environment": "prod",
				"vpcCidr": "10.20.0.0/16", "addons": all, "addonSettings": catalogueSettings},
		},
	}}
}

// upContractFleet runs `up` of the contract fleet on a fresh offline cloud and returns it.
func upContractFleet(t *testing.T) *offline.Env {
	t.Helper()
	env := offline.ForTest(t)
	project := filepath.Join(t.TempDir(), "fleet")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	pulumiYAML, err := os.ReadFile(filepath.Join(env.Root, "examples", "fleet", "Pulumi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	stackYAML, err := yaml.Marshal(fleetConfig())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"Pulumi.yaml": pulumiYAML, "Pulumi.contract.yaml": stackYAML} {
		if err := os.WriteFile(filepath.Join(project, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	s, err := env.Stack(ctx, project, "contract", fleetstack.Run)
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.Create(filepath.Join(env.Dir, "up.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if _, err := s.Up(ctx, optup.ProgressStreams(log)); err != nil {
		data, _ := os.ReadFile(log.Name())
		t.Fatalf("up: %v\n%s", err, offline.Tail(string(data), 80))
	}
	return env
}

// clusterSecrets are the Argo CD cluster secrets the emulated hub holds, as the API server would return them
// (stringData folded into data).
func clusterSecrets(t *testing.T, env *offline.Env) []corev1.Secret {
	t.Helper()
	all, err := env.Store.List()
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Secret
	for _, r := range all {
		if r.Type != "kubernetes:core/v1:Secret" {
			continue
		}
		s := secretOf(t, r)
		if s.Labels["argocd.argoproj.io/secret-type"] == "cluster" {
			out = append(out, s)
		}
	}
	return out
}

func secretOf(t *testing.T, r emulator.Record) corev1.Secret {
	t.Helper()
	state, err := r.Plain()
	if err != nil {
		t.Fatal(err)
	}
	md, _ := state["metadata"].(map[string]any)
	strings := func(v any) map[string]string {
		out := map[string]string{}
		m, _ := v.(map[string]any)
		for k, x := range m {
			out[k], _ = x.(string)
		}
		return out
	}
	s := corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: md["name"].(string), Namespace: md["namespace"].(string),
			Labels: strings(md["labels"]), Annotations: strings(md["annotations"])},
		Data: map[string][]byte{},
	}
	for k, v := range strings(state["stringData"]) {
		s.Data[k] = []byte(v)
	}
	return s
}

// storedObject is the emulated hub's object of a Kubernetes type by its metadata.name, as the API server holds it.
func storedObject(t *testing.T, env *offline.Env, typ, apiVersion, kind, name string) map[string]any {
	t.Helper()
	all, err := env.Store.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		if r.Type != typ {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			t.Fatal(err)
		}
		if md, _ := state["metadata"].(map[string]any); md["name"] == name {
			return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md, "spec": state["spec"]}
		}
	}
	t.Fatalf("no %s %s in the emulated hub", kind, name)
	return nil
}

// storedPolicy is the hub's ValidatingAdmissionPolicy name and its binding as the offline cloud stores them.
func storedPolicy(t *testing.T, env *offline.Env, name string) (policy, binding map[string]any) {
	t.Helper()
	const api = "admissionregistration.k8s.io/v1"
	return storedObject(t, env, "kubernetes:"+api+":ValidatingAdmissionPolicy", api, "ValidatingAdmissionPolicy", name),
		storedObject(t, env, "kubernetes:"+api+":ValidatingAdmissionPolicyBinding", api, "ValidatingAdmissionPolicyBinding", name)
}

// checkGuardAdmits runs Kubernetes' admission code with the cluster-secret guard the hub holds after `up` over
// each cluster secret written as Argo CD's application controller (a Git sync): every one is admitted, and the
// spoke's, pointed at another server, is refused.
func checkGuardAdmits(t *testing.T, env *offline.Env, secrets []corev1.Secret) {
	t.Helper()
	policy, binding := storedPolicy(t, env, gitopsbridge.ClusterSecretPolicyName)
	asObject := func(s corev1.Secret) map[string]any {
		s.APIVersion, s.Kind = "v1", "Secret"
		var m map[string]any
		decodeStrict(t, s, &m)
		return m
	}
	for _, s := range secrets {
		if ok, msg := admitWith(t, policy, binding, asObject(s), nil, s.Namespace, controller, secretKind, secretResource); !ok {
			t.Errorf("the hub's guard refuses %s's secret from Git: %s", s.Name, msg)
		}
	}
	evil := secretNamed(secrets, everyAddon)
	evil.Data = maps.Clone(evil.Data)
	evil.Data["server"] = []byte("https://collector.example.com")
	if ok, _ := admitWith(t, policy, binding, asObject(evil), nil, evil.Namespace, controller, secretKind, secretResource); ok {
		t.Errorf("the hub's guard admits %s's secret from Git pointed at another server", everyAddon)
	}
}

// checkAddonsFenced: every Application Argo CD's ApplicationSet code renders from the template's sets lives in the
// add-ons' namespace (its set's), which the hub's stored Application guard admits there and refuses in Argo CD's
// namespace, and which the hub's stored project default admits onto the cluster it names (the contract fleet's hub
// enables metrics-server, so the Fleet lets the add-ons onto the hub), but never into Argo CD's namespace on the hub.
func checkAddonsFenced(t *testing.T, env *offline.Env, secrets []corev1.Secret, apps map[string]map[string][]argov1alpha1.Application) {
	t.Helper()
	policy, binding := storedPolicy(t, env, gitopsbridge.ApplicationPolicyName)
	proj := appProjectOf(t, storedObject(t, env, "kubernetes:argoproj.io/v1alpha1:AppProject", "argoproj.io/v1alpha1",
		"AppProject", gitopsbridge.AddonApplicationsProject))
	adb := argoDB(t, argocdNamespace, secrets...)
	projectClusters := func(p string) ([]*argov1alpha1.Cluster, error) { return adb.GetProjectClusters(t.Context(), p) }
	checked := 0
	for set, byCluster := range apps {
		for cluster, list := range byCluster {
			for _, app := range list {
				if app.Namespace != addonsApps {
					t.Errorf("%s renders %s in namespace %q, not its set's (%s)", set, app.Name, app.Namespace, addonsApps)
				}
				var obj map[string]any
				decodeStrict(t, app, &obj)
				obj["apiVersion"], obj["kind"] = "argoproj.io/v1alpha1", "Application"
				if ok, msg := admitWith(t, policy, binding, obj, nil, addonsApps, appSetController, applicationKind, applicationResource); !ok {
					t.Errorf("the hub's guard refuses %s from %s: %s", app.Name, set, msg)
				}
				inArgoCD := maps.Clone(obj)
				inArgoCD["metadata"] = map[string]any{"name": app.Name, "namespace": argocdNamespace}
				if ok, _ := admitWith(t, policy, binding, inArgoCD, nil, argocdNamespace, argocdServer, applicationKind, applicationResource); ok {
					t.Errorf("the hub's guard admits %s in Argo CD's namespace", app.Name)
				}
				dest, err := argo.GetDestinationCluster(t.Context(), app.Spec.Destination, adb)
				if err != nil {
					t.Errorf("%s: %v", app.Name, err)
					continue
				}
				permitted, err := proj.IsDestinationPermitted(dest, app.Spec.Destination.Namespace, projectClusters)
				if !proj.IsAppNamespacePermitted(&app, argocdNamespace) || err != nil || !permitted {
					t.Errorf("project default refuses %s onto %s: namespace admitted %v, destination %v (%v)",
						app.Name, cluster, proj.IsAppNamespacePermitted(&app, argocdNamespace), permitted, err)
				}
				if ok, _ := proj.IsDestinationPermitted(dest, argocdNamespace, projectClusters); ok && dest.Server == gitopsbridge.InClusterServer {
					t.Errorf("project default admits %s into Argo CD's namespace on the hub", app.Name)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no rendered Application to check")
	}
}
