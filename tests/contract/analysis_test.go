package contract

import (
	"strings"
	"testing"

	rolloutsv1alpha1 "github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/argoproj/argo-rollouts/utils/analysis"
	"github.com/argoproj/argo-rollouts/utils/evaluate"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/sirupsen/logrus"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
)

// stageArgs are a verified stage's AnalysisRun arguments as Kargo passes them: the Stage's verification args with
// the Freight's commit for the commitFrom expression, and the Secret values Argo Rollouts resolves.
func stageArgs(t *testing.T, a delivery.StackDeliveryArgs, s delivery.DeliveryStage, commit string,
	secrets map[string]string) []rolloutsv1alpha1.Argument {
	t.Helper()
	var out []rolloutsv1alpha1.Argument
	for _, x := range delivery.StageVerification(a, s)["args"].([]any) {
		x := x.(map[string]any)
		v := x["value"].(string)
		if strings.Contains(v, "commitFrom(") {
			v = commit
		}
		out = append(out, rolloutsv1alpha1.Argument{Name: x["name"].(string), Value: &v})
	}
	for name, v := range secrets {
		out = append(out, rolloutsv1alpha1.Argument{Name: name, Value: &v})
	}
	return out
}

// template decodes an AnalysisTemplate the product writes into Argo Rollouts v1.9.1's type, strictly.
func analysisTemplate(t *testing.T, obj map[string]any) rolloutsv1alpha1.AnalysisTemplate {
	t.Helper()
	var tmpl rolloutsv1alpha1.AnalysisTemplate
	decodeStrict(t, obj, &tmpl)
	return tmpl
}

// latestUpdate is the Pulumi Cloud API's latest update of a stack: the update's info (apitype.UpdateInfo) with
// the commit the Pulumi CLI records as git.head.
func latestUpdate(t *testing.T, kind apitype.UpdateKind, result apitype.UpdateResult, commit string) any {
	t.Helper()
	return normalized(t, map[string]any{"info": apitype.UpdateInfo{Kind: kind, Result: result,
		Environment: map[string]string{"git.head": commit, "exec.kind": "auto.local"}}, "version": 7})
}

// TestPulumiCloudVerification: Argo Rollouts v1.9.1's own code resolves the pulumiCloud AnalysisTemplate with a
// stage's arguments (the URL of its stack's latest update, the token header) and evaluates Pulumi Cloud's
// answers: succeeded at the Freight's commit verifies it; failed there fails it; running, another commit or
// another kind of update is asked again.
func TestPulumiCloudVerification(t *testing.T) {
	a := deliveryArgs()
	dev := a.Stages[0]
	dev.Verification = &delivery.Verification{Provider: delivery.VerifyPulumiCloud, TimeoutSeconds: 900}
	freight, other := strings.Repeat("c", 40), strings.Repeat("d", 40)
	tmpl := analysisTemplate(t, delivery.PulumiCloudAnalysis(a))
	args := stageArgs(t, a, dev, freight, map[string]string{"pulumi-access-token": "pul-canary"})
	if err := analysis.ResolveArgs(args); err != nil {
		t.Fatal(err)
	}
	metric, err := analysis.ResolveMetricArgs(tmpl.Spec.Metrics[0], args)
	if err != nil {
		t.Fatal(err)
	}
	web := metric.Provider.Web
	if web == nil || web.URL != "https://api.pulumi.com/api/stacks/acme/fleet/dev/updates/latest" {
		t.Fatalf("the metric reads %+v", web)
	}
	if h := web.Headers[0]; h.Key != "Authorization" || h.Value != "token pul-canary" {
		t.Errorf("the token header is %+v", h)
	}
	if metric.Count.String() != "30" || metric.ConsecutiveSuccessLimit.String() != "1" {
		t.Errorf("count %v, consecutiveSuccessLimit %v", metric.Count, metric.ConsecutiveSuccessLimit)
	}
	cases := map[string]struct {
		result any
		want   rolloutsv1alpha1.AnalysisPhase
	}{
		"the update of the Freight's commit succeeded": {latestUpdate(t, apitype.UpdateUpdate, apitype.SucceededResult, freight),
			rolloutsv1alpha1.AnalysisPhaseSuccessful},
		"it failed": {latestUpdate(t, apitype.UpdateUpdate, apitype.FailedResult, freight), rolloutsv1alpha1.AnalysisPhaseFailed},
		"it is running": {latestUpdate(t, apitype.UpdateUpdate, apitype.InProgressResult, freight),
			rolloutsv1alpha1.AnalysisPhaseInconclusive},
		"the latest is the previous commit's": {latestUpdate(t, apitype.UpdateUpdate, apitype.SucceededResult, other),
			rolloutsv1alpha1.AnalysisPhaseInconclusive},
		"the previous commit's failed": {latestUpdate(t, apitype.UpdateUpdate, apitype.FailedResult, other),
			rolloutsv1alpha1.AnalysisPhaseInconclusive},
		"the latest is a preview of the commit": {latestUpdate(t, apitype.PreviewUpdate, apitype.SucceededResult, freight),
			rolloutsv1alpha1.AnalysisPhaseInconclusive},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := evaluate.EvaluateResult(tc.result, *metric, *logrus.NewEntry(logrus.New()))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("phase %s, want %s", got, tc.want)
			}
		})
	}
}

// TestStackStatusVerification: Argo Rollouts v1.9.1 resolves the stackStatus AnalysisTemplate's Job with a stage's
// arguments into kubectl wait for the stage's Stack to report the Freight's commit as its last successful one.
func TestStackStatusVerification(t *testing.T) {
	a := deliveryArgs()
	qa := a.Stages[1]
	qa.Verification = &delivery.Verification{Provider: delivery.VerifyStackStatus, TimeoutSeconds: 600}
	freight := strings.Repeat("c", 40)
	tmpl := analysisTemplate(t, delivery.StackStatusAnalysis(a))
	args := stageArgs(t, a, qa, freight, nil)
	metric, err := analysis.ResolveMetricArgs(tmpl.Spec.Metrics[0], args)
	if err != nil {
		t.Fatal(err)
	}
	pod := metric.Provider.Job.Spec.Template.Spec
	want := []string{"wait", "stacks.pulumi.com/fleet-qa", "--namespace=fleet-stacks-qa",
		"--for=jsonpath={.status.lastUpdate.lastSuccessfulCommit}=" + freight, "--timeout=600s"}
	if got := pod.Containers[0].Args; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the Job runs %q, want %q", got, want)
	}
	if pod.ServiceAccountName != delivery.StackReaderName || pod.RestartPolicy != "Never" {
		t.Errorf("the Job runs as %q, restart %q", pod.ServiceAccountName, pod.RestartPolicy)
	}
}
