package addons

import (
	"slices"
	"testing"
)

// TestApplicationSets: the ApplicationSets of the contract a FleetCluster's secret is selected by, one Application
// each: the enabled rows (an add-on off is none), the EBS CSI driver through the label it implies, and never the OSS
// cert-manager, which requires aws_cluster_name absent.
func TestApplicationSets(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enabled map[string]bool
		want    []string // ApplicationSet files
	}{
		{"none", nil, nil},
		{"off", map[string]bool{"metrics_server": false}, nil},
		{"two", map[string]bool{"metrics_server": true, "aws_load_balancer_controller": true},
			[]string{"aws/addons-aws-load-balancer-controller-appset.yaml", "oss/addons-metrics-server-appset.yaml"}},
		{"the EBS CSI driver's classes, through the label it implies", map[string]bool{"aws_ebs_csi_driver": true},
			[]string{"aws/addons-aws-csi-ebs-resources-appset.yaml"}},
		{"cert-manager: the aws flavour only", map[string]bool{"cert_manager": true}, []string{"aws/addons-aws-oss-cert-manager-appset.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, a := range ApplicationSets(tc.enabled) {
				got = append(got, a.ApplicationSet)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ApplicationSets(%v) = %v, want %v", tc.enabled, got, tc.want)
			}
		})
	}
}
