package drain

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
)

func TestOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   DrainOptions
		want []string // problems, "" for none
	}{
		{"defaults", DrainOptions{}, nil},
		{"all set", DrainOptions{Timeout: "1h30m", Force: true, Keep: []string{"persistentVolumeClaims", "nodeClaims"}}, nil},
		{"not a duration", DrainOptions{Timeout: "20"}, []string{`d.timeout: "20" is not a Go duration`}},
		{"under 10s", DrainOptions{Timeout: "9s"}, []string{`d.timeout: "9s"`}},
		{"unknown kinds", DrainOptions{Keep: []string{"ingresses", "pods", "PersistentVolumeClaims"}},
			[]string{`d.keep[1]: "pods" is not a kind`, `d.keep[2]: "PersistentVolumeClaims"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps problems.List
			tc.in.Check(&ps, "d")
			if len(ps) != len(tc.want) {
				t.Fatalf("problems %v, want %d", ps, len(tc.want))
			}
			for i, w := range tc.want {
				if got := ps[i].Field + ": " + ps[i].Message; !strings.HasPrefix(got, w) {
					t.Errorf("problem %q, want %q...", got, w)
				}
			}
		})
	}
}

func TestOptionsMergeAndSettings(t *testing.T) {
	off := false
	base := DrainOptions{Enabled: &off, Timeout: "30m", Keep: []string{"nodePools"}}
	own := DrainOptions{Force: true, Keep: []string{}}
	got := own.Merge(base)
	if got.On() || got.Timeout != "30m" || !got.Force || got.Keep == nil || len(got.Keep) != 0 {
		t.Errorf("Merge = %+v: want enabled and timeout from the base, own force and (empty) keep", got)
	}
	if !(DrainOptions{}).On() {
		t.Error("a drain with Enabled unset is off; want on by default")
	}
	s := DrainOptions{Timeout: "45m", Keep: []string{"gateways"}}.Settings()
	if s.Timeout != 45*time.Minute || !slices.Equal(s.Keep, []Kind{Gateways}) || s.Force {
		t.Errorf("Settings = %+v", s)
	}
}

func TestClusterDrainInputsAreChecked(t *testing.T) {
	args := ClusterDrainArgs{Region: "us-east-1", DrainOptions: DrainOptions{Timeout: "x"}}
	if err := args.check(true); err == nil || strings.Contains(err.Error(), "required") || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("check in a preview: %v, want the timeout only (the cluster's facts may be unknown)", err)
	}
	err := args.check(false)
	for _, want := range []string{"clusterName: is required", "endpoint: is required", "certificateAuthorityData: is required",
		`timeout: "x"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check: %v, want %q", err, want)
		}
	}
	if err := (ClusterDrainArgs{ClusterName: "c", Region: "r", Endpoint: "https://e", CertificateAuthorityData: "Y2E="}).check(false); err != nil {
		t.Errorf("check of valid inputs: %v", err)
	}
}
