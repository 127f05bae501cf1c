package contract

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// hubAddonSets are the offline add-ons repository's ApplicationSets of the add-ons a hub's stack installs itself,
// written as the GitOps Bridge control-plane template writes them (tests/fixtures/addons-repo).
var hubAddonSets = map[string]string{
	"aws_ebs_csi_driver":           "aws/addons-aws-csi-ebs-resources-appset.yaml",
	"aws_for_fluentbit":            "aws/addons-aws-fluentbit-appset.yaml",
	"aws_load_balancer_controller": "aws/addons-aws-load-balancer-controller-appset.yaml",
	"metrics_server":               "oss/addons-metrics-server-appset.yaml",
}

// TestStackAddonsAsTheApplicationSets: what a hub's stack installs itself (hub.stackAddons, addons.HubChart) is what
// the template's ApplicationSet makes Argo CD install, as Argo CD's own generators and renderer make it from the
// hub's cluster secret: the chart, its repository and version, the release name, the namespace and the Helm values.
// And once the hub's secret labels them false, as GitOpsBridge writes it with stackAddons, the ApplicationSets make
// no Application for the hub.
func TestStackAddonsAsTheApplicationSets(t *testing.T) {
	if got := addons.HubAddons(); !cmp.Equal(got, []string{"aws_ebs_csi_driver", "aws_for_fluentbit", "aws_load_balancer_controller", "metrics_server"}) {
		t.Fatalf("hub add-ons %v: give each an ApplicationSet in hubAddonSets", got)
	}
	annotations := map[string]string{
		"addons_repo_url": "https://github.com/acme/addons", "addons_repo_revision": "main", "addons_repo_basepath": "",
		"aws_cluster_name": "hub", "aws_region": "us-east-1", "aws_vpc_id": "vpc-0abc",
		"aws_load_balancer_controller_iam_role_arn":    "arn:aws:iam::123456789012:role/hub-alb",
		"aws_load_balancer_controller_namespace":       "kube-system",
		"aws_load_balancer_controller_service_account": "aws-load-balancer-controller-sa",
		"aws_for_fluentbit_iam_role_arn":               "arn:aws:iam::123456789012:role/hub-fluentbit",
		"aws_for_fluentbit_namespace":                  "kube-system",
		"aws_for_fluentbit_service_account":            "aws-for-fluent-bit-sa",
		"aws_for_fluentbit_log_group_name":             "/aws/eks/hub/aws-fluentbit-logs",
	}
	secret := func(enabled map[string]bool) corev1.Secret {
		s := gitopsbridge.ClusterSecret{Name: "hub", Namespace: argocdNamespace, ClusterName: "hub",
			Labels:      gitopsbridge.Labels("hub", "dev", "1.33", 0, enabled, annotations),
			Annotations: annotations, Server: gitopsbridge.InClusterServer, Config: gitopsbridge.InClusterConfig()}
		var out corev1.Secret
		if err := yaml.Unmarshal([]byte(s.YAML()), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for name, file := range hubAddonSets {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "fixtures", "addons-repo", "bootstrap", "control-plane", "addons", file))
			if err != nil {
				t.Fatal(err)
			}
			var set struct {
				Spec map[string]any `json:"spec"`
			}
			if err := yaml.Unmarshal(raw, &set); err != nil {
				t.Fatal(err)
			}
			// The add-ons as FleetCluster writes them, with those this one implies (the EBS CSI driver's
			// aws_ebs_csi_resources, the label its ApplicationSet selects).
			apps := generateSet(t, set.Spec, []corev1.Secret{secret(addons.WithImplied(map[string]bool{name: true}))})
			if len(apps) != 1 || len(apps[0].Spec.Sources) != 2 || apps[0].Spec.Sources[1].Helm == nil {
				t.Fatalf("Argo CD made %d Applications of %s for the hub, want one with a chart source: %+v", len(apps), file, apps)
			}
			app, src := apps[0], apps[0].Spec.Sources[1]
			var values map[string]any
			if err := yaml.Unmarshal([]byte(src.Helm.Values), &values); err != nil {
				t.Fatal(err)
			}
			if values == nil {
				values = map[string]any{}
			}
			hc, _ := addons.HubChartOf(name)
			a, _ := addons.Lookup(name)
			stack := map[string]any{"chart": a.Chart, "repository": hc.Repository, "version": hc.Version,
				"release": a.Chart, "namespace": hc.NamespaceIn(name, annotations), "values": normalized(t, hc.TemplateValues(annotations))}
			argocd := map[string]any{"chart": src.Chart, "repository": src.RepoURL, "version": src.TargetRevision,
				"release": src.Helm.ReleaseName, "namespace": app.Spec.Destination.Namespace, "values": normalized(t, values)}
			if diff := cmp.Diff(argocd, stack); diff != "" {
				t.Errorf("the stack installs other than Argo CD would (-argocd +stack):\n%s", diff)
			}
			off := addons.WithImplied(map[string]bool{name: true})
			gitopsbridge.StackAddonsOff(&gitopsbridge.Hub{StackAddons: []string{name}}, off)
			if apps := generateSet(t, set.Spec, []corev1.Secret{secret(off)}); len(apps) != 0 {
				t.Errorf("with stackAddons the ApplicationSet still installs onto the hub: %s", apps[0].Name)
			}
		})
	}
}

// normalized is v as JSON reads it back (numbers as float64, every map a map[string]any).
func normalized(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
