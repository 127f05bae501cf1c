package contract

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/argoproj/argo-cd/v3/applicationset/controllers/template"
	"github.com/argoproj/argo-cd/v3/applicationset/generators"
	"github.com/argoproj/argo-cd/v3/applicationset/utils"
	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/db"
	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// TestTheBridgeHoldsForEveryAddon: the hub's cluster secrets after `up` parse as Argo CD clusters, and Argo
// CD's ApplicationSet code selects every enabled add-on exactly once and renders its values with no hole and
// with the role FleetCluster created, trusted by the service accounts the values name.
func TestTheBridgeHoldsForEveryAddon(t *testing.T) {
	env := upContractFleet(t)
	secrets := clusterSecrets(t, env)
	if len(secrets) != 2 {
		t.Fatalf("want the hub's and %s's cluster secrets in the hub, got %d", everyAddon, len(secrets))
	}
	for _, s := range secrets {
		checkCluster(t, s)
	}
	checkGuardAdmits(t, env, secrets)
	apps := generate(t, secrets)
	checkAddonsFenced(t, env, secrets, apps)
	roles := cloudIAMOf(t, env)

	for _, s := range secrets {
		cluster := string(s.Data["name"])
		for _, a := range addons.All() {
			want := 0
			if s.Labels[a.Label()] == "true" {
				want = 1
			}
			got := apps[a.ApplicationSet][cluster]
			if len(got) != want {
				t.Errorf("%s on %s: %s yields %d Applications, want %d (labels %v)", a.Name, cluster, a.ApplicationSet, len(got), want, s.Labels)
				continue
			}
			for _, app := range got {
				checkRendered(t, a, cluster, app, roles)
			}
		}
		for name, alt := range addons.Alternatives {
			if got := apps[alt.ApplicationSet][cluster]; len(got) != 0 {
				t.Errorf("%s on %s: %s, the flavour without an AWS role, selects the cluster too", name, cluster, alt.ApplicationSet)
			}
		}
	}
	for _, a := range addons.All() {
		if s := secretNamed(secrets, everyAddon); s.Labels[a.Label()] != "true" {
			t.Errorf("%s enables every add-on, but %s is %q", everyAddon, a.Label(), s.Labels[a.Label()])
		}
	}
}

func secretNamed(secrets []corev1.Secret, name string) corev1.Secret {
	for _, s := range secrets {
		if string(s.Data["name"]) == name {
			return s
		}
	}
	return corev1.Secret{}
}

// checkCluster parses a secret with Argo CD's own SecretToCluster: a server, IAM authentication for spokes,
// TLS verified, and no static credential.
func checkCluster(t *testing.T, s corev1.Secret) {
	t.Helper()
	c, err := db.SecretToCluster(&s)
	if err != nil {
		t.Errorf("secret %s: SecretToCluster: %v", s.Name, err)
		return
	}
	cfg := c.Config
	if cfg.BearerToken != "" || cfg.Username != "" || cfg.Password != "" || len(cfg.KeyData) > 0 ||
		len(cfg.CertData) > 0 || cfg.ExecProviderConfig != nil || cfg.Insecure {
		t.Errorf("secret %s holds a static credential or skips TLS verification: %+v", s.Name, cfg)
	}
	if c.Server == "https://kubernetes.default.svc" {
		return
	}
	if !strings.HasPrefix(c.Server, "https://") || len(cfg.CAData) == 0 {
		t.Errorf("secret %s: spoke server %q with CA %d bytes", s.Name, c.Server, len(cfg.CAData))
	}
	if cfg.AWSAuthConfig == nil || cfg.AWSAuthConfig.ClusterName != c.Name || !strings.Contains(cfg.AWSAuthConfig.RoleARN, ":role/gitops-fleet/spoke/") {
		t.Errorf("secret %s: Argo CD reaches a spoke by assuming its spoke role: %+v", s.Name, cfg.AWSAuthConfig)
	}
}

// generate runs Argo CD's ApplicationSet generators and renderer over the ApplicationSets of every row and
// alternative, and returns the Applications by ApplicationSet file and cluster name.
func generate(t *testing.T, secrets []corev1.Secret) map[string]map[string][]argov1alpha1.Application {
	t.Helper()
	objs := make([]client.Object, len(secrets))
	for i := range secrets {
		objs[i] = &secrets[i]
	}
	log.SetLevel(log.WarnLevel) // the generators log every Application at info
	c := fake.NewClientBuilder().WithObjects(objs...).Build()
	gens := generators.GetGenerators(t.Context(), c, nil, argocdNamespace, nil, nil, generators.SCMConfig{}, nil)
	rows := addons.All()
	for name, alt := range addons.Alternatives {
		alt.Name = name
		rows = append(rows, alt)
	}
	out := map[string]map[string][]argov1alpha1.Application{}
	for _, a := range rows {
		set := appSetOf(t, a)
		apps, _, err := template.GenerateApplications(log.NewEntry(log.StandardLogger()), set, gens, &utils.Render{}, c)
		if err != nil {
			t.Errorf("%s: %v", a.ApplicationSet, err)
			continue
		}
		byCluster := map[string][]argov1alpha1.Application{}
		for _, app := range apps {
			byCluster[app.Spec.Destination.Name] = append(byCluster[app.Spec.Destination.Name], app)
		}
		out[a.ApplicationSet] = byCluster
	}
	return out
}

// checkRendered looks for holes in a rendered Application and checks its role against the emulated IAM.
func checkRendered(t *testing.T, a addons.Addon, cluster string, app argov1alpha1.Application, roles cloudIAM) {
	t.Helper()
	text, _ := json.Marshal(app)
	for _, hole := range []string{"{{", "<no value>"} {
		if strings.Contains(string(text), hole) {
			t.Errorf("%s on %s: the rendered Application holds %q:\n%s", a.Name, cluster, hole, text)
		}
	}
	if want := "addon-" + cluster + "-" + a.Chart; app.Name != want {
		t.Errorf("%s on %s: Application %q, want %q", a.Name, cluster, app.Name, want)
	}
	if a.Identity == nil || len(app.Spec.Sources) < 2 || app.Spec.Sources[1].Helm == nil {
		return
	}
	var values map[string]string
	if err := yaml.Unmarshal([]byte(app.Spec.Sources[1].Helm.Values), &values); err != nil {
		t.Errorf("%s on %s: values: %v", a.Name, cluster, err)
		return
	}
	p := a.Identity.Prefix(a.Name)
	if !slices.Contains(a.Reads, p+addons.IAMRoleArnSuffix) {
		return // a companion chart (the EBS CSI driver's storage classes) that runs no AWS client
	}
	for _, sa := range a.Identity.ServiceAccounts {
		if !slices.Contains(a.Reads, p+"_"+sa.Key) {
			t.Errorf("%s: the ApplicationSet does not read %s_%s, so the chart runs as another service account", a.Name, p, sa.Key)
		}
		checkCredentials(t, a, cluster, values[p+addons.IAMRoleArnSuffix], values[p+addons.NamespaceSuffix], values[p+"_"+sa.Key], roles)
	}
	if ns := app.Spec.Destination.Namespace; ns != values[p+addons.NamespaceSuffix] {
		t.Errorf("%s on %s: destination namespace %q, values namespace %q", a.Name, cluster, ns, values[p+addons.NamespaceSuffix])
	}
}
