package rollout

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

func TestJudge(t *testing.T) {
	const rev, before = "1111111111111111111111111111111111111111", "0000000000000000000000000000000000000000"
	app := func(name, sync, health, message string, revisions ...string) status.Application {
		return status.Application{Namespace: "argocd-addons", Name: name, Cluster: "spoke", Sync: sync, Health: health,
			Message: message, Revisions: revisions}
	}
	cases := map[string]struct {
		apps []status.Application
		want Health
	}{
		"every add-on at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev, "3.12.0"),
			app("addon-spoke-karpenter", "Synced", "Healthy", "", rev, "1.0.0")}, Health{State: Healthy}},
		"one still at the revision before": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev),
			app("addon-spoke-karpenter", "Synced", "Healthy", "", before)},
			Health{State: Pending, Application: "addon-spoke-karpenter", Message: "Synced/Healthy, compared at " + before}},
		"a refused sync at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "OutOfSync", "Missing", "admission policy refused", rev)},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "admission policy refused"}},
		"degraded at the revision": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Degraded", "", rev)},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "health Degraded"}},
		"a failure of the revision before is not this one's": {[]status.Application{
			app("addon-spoke-metrics-server", "OutOfSync", "Missing", "refused", before)},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "OutOfSync/Missing, compared at " + before + ": refused"}},
		"a refused sync of the revision before, not yet retried at this one": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-spoke-metrics-server", Cluster: "spoke", Sync: "OutOfSync",
				Health: "Missing", Message: "refused", Revisions: []string{rev}, OperationRevisions: []string{before}}},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "OutOfSync/Missing, last synced " + before + ": refused"}},
		"a refused sync of this revision": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-spoke-metrics-server", Cluster: "spoke", Sync: "OutOfSync",
				Health: "Missing", Message: "refused", Revisions: []string{rev}, OperationRevisions: []string{rev, "3.12.0"}}},
			Health{State: Failing, Application: "addon-spoke-metrics-server", Message: "refused"}},
		"progressing": {[]status.Application{
			app("addon-spoke-metrics-server", "Synced", "Progressing", "", rev)},
			Health{State: Pending, Application: "addon-spoke-metrics-server", Message: "Synced/Progressing"}},
		"no Application yet": {nil, Health{State: Pending, Message: "no add-on Application of the cluster in argocd-addons"}},
		"another cluster's or namespace's": {[]status.Application{
			{Namespace: "argocd-addons", Name: "addon-other-x", Cluster: "other", Sync: "OutOfSync", Health: "Degraded", Revisions: []string{rev}},
			{Namespace: "argocd-workloads", Name: "addon-spoke-x", Cluster: "spoke", Sync: "OutOfSync", Health: "Degraded", Revisions: []string{rev}},
			app("addon-spoke-metrics-server", "Synced", "Healthy", "", rev)}, Health{State: Healthy}},
	}
	for name, tc := range cases {
		if got := judge(tc.apps, "argocd-addons", "spoke", rev); got != tc.want {
			t.Errorf("%s: %+v, want %+v", name, got, tc.want)
		}
	}
}
