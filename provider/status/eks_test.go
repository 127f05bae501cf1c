package status

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
)

// TestWithEKS asks the offline cloud's EKS API, through the AWS SDK as fleet status does, of a managed hub it has,
// with three insights of which one is an upgrade readiness warning and a degraded Argo CD capability, and of a spoke
// it does not have.
func TestWithEKS(t *testing.T) {
	const region = "us-west-2"
	dir := t.TempDir()
	store := emulator.OpenStore(filepath.Join(dir, "cloud"))
	raw, err := emulator.PlainState(map[string]any{"name": "hub", "status": "ACTIVE", "version": "1.32",
		"platformVersion": "eks.9", "arn": "arn:aws:eks:us-west-2:" + aws.Account + ":cluster/hub"})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(emulator.Record{Package: "aws", Type: aws.EKSClusterType, ID: "hub", Scope: region, URN: "test:hub", State: raw}); err != nil {
		t.Fatal(err)
	}
	capability, err := emulator.PlainState(map[string]any{"capability": map[string]any{"capabilityName": "argocd",
		"type": "ARGOCD", "status": "DEGRADED", "health": map[string]any{"issues": []any{
			map[string]any{"code": "AccessDenied", "message": "the role cannot be assumed"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(emulator.Record{Package: "eks", Type: capabilities.Type, ID: "hub/argocd", Scope: region,
		URN: "test:hub-argocd", State: capability}); err != nil {
		t.Fatal(err)
	}
	api := capabilities.New(store, http.NotFoundHandler())
	insight := func(name, category, status string) capabilities.InsightSummary {
		i := capabilities.InsightSummary{ID: name, Name: name, Category: category}
		i.InsightStatus.Status, i.InsightStatus.Reason = status, name+" found"
		return i
	}
	api.SetInsights("hub", insight("Deprecated APIs removed in Kubernetes v1.33", "UPGRADE_READINESS", "WARNING"),
		insight("Kubelet version skew", "UPGRADE_READINESS", "PASSING"),
		insight("Hybrid node configuration", "MISCONFIGURATION", "ERROR"))
	capabilities.Serve(t, api, region)
	ctx := context.Background()
	client := func(region string) (EKSAPI, error) {
		cfg, err := awsconfig.Load(ctx, region, "")
		return eks.NewFromConfig(cfg), err
	}
	got, unreachable := WithEKS(ctx, []Cluster{{Name: "hub", Region: region, Role: "hub"},
		{Name: "spoke", Region: region, Role: "spoke"}}, true, client)
	// 1.32's standard support ended on 2026-03-23 (EKS's calendar): extended support, at six times the price.
	support := got[0].EKS.Support
	if support == nil || support.EndOfStandardSupport != "2026-03-23" || support.EndOfExtendedSupport != "2027-03-23" ||
		support.PriceTier != PriceExtended || !support.Flagged || support.DaysToEndOfStandardSupport >= 0 ||
		(support.Status != "EXTENDED_SUPPORT" && support.Status != "UNSUPPORTED") {
		t.Errorf("1.32's support: %+v; want extended support since 2026-03-23, flagged", support)
	}
	want := &EKS{Status: "ACTIVE", Version: "1.32", PlatformVersion: "eks.9", Insights: []Insight{
		{Name: "Deprecated APIs removed in Kubernetes v1.33", Status: "WARNING", Reason: "Deprecated APIs removed in Kubernetes v1.33 found"}},
		Capabilities: []string{"argocd (argocd): DEGRADED; AccessDenied: the role cannot be assumed"}, Support: support}
	if d := cmp.Diff(want, got[0].EKS); d != "" {
		t.Errorf("the hub (-want +got):\n%s", d)
	}
	if got[1].EKS != nil || len(unreachable) != 1 || !strings.Contains(unreachable[0], "eks spoke (us-west-2):") ||
		!strings.Contains(unreachable[0], "No cluster found for name: spoke") {
		t.Errorf("a cluster EKS does not know: %+v, unreachable %q; want it unknown and why", got[1].EKS, unreachable)
	}
	if s := got[0].EKS.String(); s != "ACTIVE 1.32 eks.9, 1 upgrade insight(s), extended support (6x price) to 2027-03-23" {
		t.Errorf("shown as %q", s)
	}
}
