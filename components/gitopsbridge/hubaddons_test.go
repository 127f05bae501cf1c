package gitopsbridge

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

// stackAddonsHub is a hub whose cluster enables the load balancer controller, metrics-server and cert-manager, with
// the annotations FleetCluster writes for the load balancer controller's role.
func stackAddonsHub(stackAddons ...string) GitOpsBridgeArgs {
	c := cluster("hub", "us-east-1")
	c.Addons = pulumi.BoolMap{"aws_load_balancer_controller": pulumi.Bool(true), "metrics_server": pulumi.Bool(true),
		"cert_manager": pulumi.Bool(true)}
	c.GitOpsMetadata = pulumi.StringMap{
		"aws_cluster_name": pulumi.String("hub"), "aws_region": pulumi.String("us-east-1"),
		"aws_vpc_id": pulumi.String("vpc-0abc"),
		"aws_load_balancer_controller_iam_role_arn":    pulumi.String("arn:aws:iam::123456789012:role/hub-alb"),
		"aws_load_balancer_controller_namespace":       pulumi.String("kube-system"),
		"aws_load_balancer_controller_service_account": pulumi.String("aws-load-balancer-controller-sa"),
	}
	return GitOpsBridgeArgs{Cluster: c, Hub: &Hub{StackAddons: stackAddons}}
}

// TestStackAddons: the add-ons in hub.stackAddons are Helm releases of the hub's stack, as the template's
// ApplicationSets would install them (tests/contract compares with Argo CD's rendering of those ApplicationSets),
// and the hub's cluster secret labels them false, so that the add-ons repository selects no hub for them; the
// others stay the repository's. The same on a managed hub, whose Argo CD EKS runs.
func TestStackAddons(t *testing.T) {
	for _, mode := range Modes {
		t.Run(mode, func(t *testing.T) {
			args := stackAddonsHub("metrics_server", "aws_load_balancer_controller")
			if mode == ModeManaged {
				args.Hub.Mode, args.Hub.Capability = mode, managedHubArgs().Hub.Capability
			}
			stackAddonsInstalled(t, args)
		})
	}
}

// chartType is the Kubernetes provider's Helm v4 Chart, which renders a chart and applies its objects, as Argo CD does.
const chartType = "kubernetes:helm.sh/v4:Chart"

// stackAddonsInstalled checks the charts and labels of a hub with both hub add-ons in stackAddons.
func stackAddonsInstalled(t *testing.T, args GitOpsBridgeArgs) {
	t.Helper()
	cloud, _ := build(t, "hub", args)
	want := map[string]map[string]any{
		"hub-addon-aws-load-balancer-controller": {
			"name": "aws-load-balancer-controller", "chart": "aws-load-balancer-controller", "version": "1.7.1",
			"namespace":      "kube-system",
			"repositoryOpts": map[string]any{"repo": "https://aws.github.io/eks-charts"},
			"values": map[string]any{"vpcId": "vpc-0abc", "clusterName": "hub", "serviceAccount": map[string]any{
				"name":        "aws-load-balancer-controller-sa",
				"annotations": map[string]any{"eks.amazonaws.com/role-arn": "arn:aws:iam::123456789012:role/hub-alb"},
			}},
		},
		"hub-addon-metrics-server": {
			"name": "metrics-server", "chart": "metrics-server", "version": "3.12.0", "namespace": "kube-system",
			"repositoryOpts": map[string]any{"repo": "https://kubernetes-sigs.github.io/metrics-server"},
			"values":         map[string]any{},
		},
	}
	var names []string
	for _, r := range cloud.OfType(chartType) {
		if strings.Contains(r.Name, "-addon-") {
			names = append(names, r.Name)
		}
	}
	if slices.Sort(names); !slices.Equal(names, []string{"hub-addon-aws-load-balancer-controller", "hub-addon-metrics-server"}) {
		t.Errorf("add-on releases %v, want the load balancer controller's and metrics-server's", names)
	}
	_, argocd := cloud.Named(releaseType, "hub-argocd") // a managed hub has none
	for name, w := range want {
		r := cloud.MustGet(t, chartType, name)
		if diff := cmp.Diff(w, r.InputsLike(w)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
		if argocd && !slices.Contains(r.Dependencies, mocks.URN(TypeToken, releaseType, "hub-argocd")) {
			t.Errorf("%s is installed beside Argo CD: an add-on's webhook could refuse Argo CD's objects", name)
		}
		if !strings.Contains(r.Provider, "pulumi:providers:kubernetes::hub-k8s::") {
			t.Errorf("%s does not go through the hub's provider: %q", name, r.Provider)
		}
	}
	labels := toStrings(t, cloud.MustGet(t, secretType, "hub-cluster-secret").Input("metadata").(map[string]any)["labels"])
	for label, v := range map[string]string{"enable_metrics_server": "false", "enable_aws_load_balancer_controller": "false",
		"enable_cert_manager": "true"} {
		if labels[label] != v {
			t.Errorf("the hub's secret labels %s %q, want %q", label, labels[label], v)
		}
	}
}

// TestStackAddonsImplied: the EBS CSI driver through the hub's stack is its storage classes' chart, with no
// namespace (its objects are cluster-scoped, and its ApplicationSet names none), and the hub's secret labels false
// both the driver and aws_ebs_csi_resources, which FleetCluster writes true with it (addons.WithImplied) and which is
// the label the template's ApplicationSet selects.
func TestStackAddonsImplied(t *testing.T) {
	args := stackAddonsHub("aws_ebs_csi_driver")
	c := cluster("hub", "us-east-1")
	c.Addons = pulumi.BoolMap{"aws_ebs_csi_driver": pulumi.Bool(true), "aws_ebs_csi_resources": pulumi.Bool(true),
		"metrics_server": pulumi.Bool(true)}
	c.GitOpsMetadata = pulumi.StringMap{"aws_cluster_name": pulumi.String("hub")}
	args.Cluster = c
	cloud, _ := build(t, "hub", args)
	w := map[string]any{"name": "aws-ebs-csi-classes", "chart": "aws-ebs-csi-classes", "version": "1.0.0", "namespace": "",
		"repositoryOpts": map[string]any{"repo": "https://gitops-bridge-dev.github.io/gitops-bridge-helm-charts"},
		// The template writes no values; the stack's apply forces gp2's default-class annotation from EKS, as Argo
		// CD's does.
		"values": map[string]any{"gp2": map[string]any{"annotations": map[string]any{"pulumi.com/patchForce": "true"}}}}
	if diff := cmp.Diff(w, cloud.MustGet(t, chartType, "hub-addon-aws-ebs-csi-classes").InputsLike(w)); diff != "" {
		t.Errorf("the storage classes' chart (-want +got):\n%s", diff)
	}
	labels := toStrings(t, cloud.MustGet(t, secretType, "hub-cluster-secret").Input("metadata").(map[string]any)["labels"])
	for label, v := range map[string]string{"enable_aws_ebs_csi_driver": "false", "enable_aws_ebs_csi_resources": "false",
		"enable_metrics_server": "true"} {
		if labels[label] != v {
			t.Errorf("the hub's secret labels %s %q, want %q", label, labels[label], v)
		}
	}
}

// TestStackAddonsRefused: hub.stackAddons names add-ons the hub's stack installs, once each, that the hub's cluster
// enables; every problem is reported before anything is registered.
func TestStackAddonsRefused(t *testing.T) {
	cases := map[string]struct {
		args GitOpsBridgeArgs
		want []string
	}{
		"not a hub add-on, twice": {args: stackAddonsHub("velero", "metrics_server", "metrics_server"),
			want: []string{`hub.stackAddons[0]: "velero" is not an add-on the hub's stack installs; want one of ` +
				"aws_ebs_csi_driver, aws_for_fluentbit, aws_load_balancer_controller, metrics_server", `hub.stackAddons[2]: "metrics_server" is listed twice`}},
		"not enabled on the hub's cluster": {args: func() GitOpsBridgeArgs {
			a := stackAddonsHub("metrics_server")
			a.Addons = map[string]bool{"metrics_server": false}
			return a
		}(), want: []string{`hub.stackAddons[0]: the hub's cluster does not enable "metrics_server"`}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, _, err := run("hub", tc.args)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			for _, r := range cloud.OfType(chartType) {
				if strings.Contains(r.Name, "-addon-") && name != "not enabled on the hub's cluster" {
					t.Errorf("registered %s despite the bad input", r.Name)
				}
			}
		})
	}
}
