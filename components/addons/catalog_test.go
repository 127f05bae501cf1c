package addons

import (
	"os"

	"github.com/blang/semver"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"
)

func TestEveryReadIsWritten(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Name, func(t *testing.T) {
			written := slices.Concat(a.Keys(), ClusterKeys)
			for _, k := range a.Reads {
				if !slices.Contains(written, k) {
					t.Errorf("%s reads %s with no default, but no key of that name is written: a hole in the rendered values", a.ApplicationSet, k)
				}
			}
		})
	}
}

func TestRowsAreComplete(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Name, func(t *testing.T) {
			if a.ApplicationSet == "" || a.Chart == "" {
				t.Errorf("row names no ApplicationSet or chart: %+v", a)
			}
			for _, msg := range validation.IsQualifiedName(a.Label()) {
				t.Errorf("label %s: %s", a.Label(), msg)
			}
			for _, k := range a.Keys() {
				for _, msg := range validation.IsQualifiedName(k) {
					t.Errorf("key %s is not an annotation key: %s", k, msg)
				}
			}
			id := a.Identity
			if id == nil {
				if len(a.Resources) > 0 {
					t.Errorf("resources without an identity to use them: %v", a.Resources)
				}
				return
			}
			for _, msg := range validation.IsDNS1123Label(id.Namespace) {
				t.Errorf("namespace %q: %s", id.Namespace, msg)
			}
			if len(id.ServiceAccounts) == 0 || len(id.Policies) == 0 {
				t.Errorf("incomplete identity (service accounts and a policy are needed): %+v", id)
			}
			for _, p := range id.Policies {
				if _, err := semver.ParseRange(p.Versions); err != nil || p.Source == "" || (p.Inline == nil && len(p.ManagedPolicies) == 0) {
					t.Errorf("policy for %q needs a range (%v), a source and a document: %+v", p.Versions, err, p)
				}
			}
			if a.Version == "" && id.Ranges() != AnyVersion {
				t.Errorf("no default version, and the policies depend on it (%s)", id.Ranges())
			}
			if a.Version != "" {
				v, err := ParseVersion(a.Version)
				if err != nil {
					t.Fatalf("default version %q: %v", a.Version, err)
				}
				covering := 0
				for _, p := range id.Policies {
					if p.Covers(v) {
						covering++
					}
				}
				if covering != 1 {
					t.Errorf("default version %s is covered by %d policies, want exactly one (%s)", a.Version, covering, id.Ranges())
				}
			}
			for _, sa := range id.ServiceAccounts {
				for _, msg := range validation.IsDNS1123Subdomain(sa.Name) {
					t.Errorf("service account %q: %s", sa.Name, msg)
				}
			}
		})
	}
}

func TestCatalogueCoversTheTemplate(t *testing.T) {
	cases := map[string]struct {
		reason string
		names  []string
	}{
		"AWS add-ons of the template": {
			reason: "every ApplicationSet of the template that gives an add-on an AWS role has a row with an identity",
			names: []string{"aws_cloudwatch_metrics", "aws_efs_csi_driver", "aws_fsx_csi_driver", "aws_for_fluentbit",
				"aws_gateway_api_controller", "aws_load_balancer_controller", "aws_node_termination_handler",
				"aws_privateca_issuer", "cert_manager", "cluster_autoscaler", "external_dns", "external_secrets",
				"karpenter", "velero", "ack_apigatewayv2", "ack_dynamodb", "ack_emrcontainers", "ack_eventbridge",
				"ack_prometheusservice", "ack_rds", "ack_s3", "ack_sfn", "aws_ebs_csi_driver"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for _, n := range tc.names {
				a, ok := Lookup(n)
				if !ok || a.Identity == nil {
					t.Errorf("%s: %s has no row with an identity", tc.reason, n)
				}
			}
		})
	}
	if !slices.IsSorted(Names()) {
		t.Error("Names is not sorted")
	}
	for name := range NotOffered {
		if _, ok := Lookup(name); ok {
			t.Errorf("%s is both offered and not offered", name)
		}
	}
}

func TestKeys(t *testing.T) {
	cases := map[string]struct {
		reason string
		want   []string
	}{
		"karpenter": {reason: "role, namespace, service account, its queue and its node role and instance profile",
			want: []string{"karpenter_iam_role_arn", "karpenter_namespace", "karpenter_node_iam_role_name",
				"karpenter_node_instance_profile_name", "karpenter_service_account", "karpenter_sqs_queue_name",
				"karpenter_sqs_queue_url"}},
		"aws_efs_csi_driver": {reason: "the template reads the controller and node service accounts, not one",
			want: []string{"aws_efs_csi_driver_controller_service_account", "aws_efs_csi_driver_iam_role_arn",
				"aws_efs_csi_driver_namespace", "aws_efs_csi_driver_node_service_account"}},
		"velero": {reason: "the bucket and prefix the template writes into backupStorageLocation",
			want: []string{"velero_backup_s3_bucket_name", "velero_backup_s3_bucket_prefix", "velero_iam_role_arn",
				"velero_namespace", "velero_service_account"}},
		"metrics_server": {reason: "an add-on with no AWS identity writes no keys"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a, _ := Lookup(name)
			if got := a.Keys(); !slices.Equal(tc.want, got) {
				t.Errorf("%s:\n got %v\nwant %v", tc.reason, got, tc.want)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	ebs, _ := Lookup("aws_ebs_csi_driver")
	if ebs.Label() != "enable_aws_ebs_csi_resources" || !slices.Contains(ebs.Implies, "aws_ebs_csi_resources") {
		t.Errorf("the EBS CSI driver is a managed add-on; the template installs only its storage classes, "+
			"selected by enable_aws_ebs_csi_resources, which it must imply: %+v", ebs)
	}
	if lbc, _ := Lookup("aws_load_balancer_controller"); lbc.Label() != "enable_aws_load_balancer_controller" {
		t.Errorf("default label = %s", lbc.Label())
	}
	if !strings.HasPrefix(EnableLabel("x"), "enable_") {
		t.Error("EnableLabel")
	}
}

// TestDocsTable: docs/addons.md's add-on table is the contract table (make docs writes it).
func TestDocsTable(t *testing.T) {
	data, err := os.ReadFile("../../docs/addons.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- addons:begin (make docs) -->\n", "<!-- addons:end -->"
	page := string(data)
	i, j := strings.Index(page, begin), strings.Index(page, end)
	if i < 0 || j < i {
		t.Fatalf("docs/addons.md has no add-on table between %q and %q", begin, end)
	}
	if got := page[i+len(begin) : j]; got != Table() {
		t.Errorf("docs/addons.md's add-on table differs from the contract table; run `make docs`")
	}
}
