package contract

import (
	"strings"
	"testing"

	"github.com/argoproj/argo-rollouts/utils/analysis"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
)

// shardDelivery is deliveryArgs with prod deploying two shard stacks (stages[].stacks), verified as given.
func shardDelivery(v *delivery.Verification) delivery.StackDeliveryArgs {
	a := deliveryArgs()
	prod := &a.Stages[2]
	prod.Stack, prod.Preview, prod.Verification = "", false, v
	prod.Stacks = []delivery.StageStack{{Name: "us", Stack: "acme/fleet/shard-us"}, {Name: "eu", Stack: "acme/fleet/shard-eu"}}
	return delivery.WithDefaults(a, "fleet")
}

// TestStackGuardShardStacks: Kubernetes' admission code runs the Stack guard over each of a stage's shard Stacks
// as Kargo's promotion renders its file (admitted), and over a shard Stack an evil manifests commit points at
// another stage's stack or at a stack the stage does not list (refused).
func TestStackGuardShardStacks(t *testing.T) {
	a := shardDelivery(nil)
	p := delivery.StackGuard(a)
	prod := a.Stages[2]
	files := delivery.StageStackFiles(a, prod)
	if len(files) != 2 {
		t.Fatalf("prod's Stack files: %v", files)
	}
	commit := strings.Repeat("b", 40)
	for path, obj := range files {
		obj = renderedFile(t, a, prod, path, obj, commit)
		ns := field(obj, "metadata")["namespace"].(string)
		t.Run(path, func(t *testing.T) {
			ok, msg := admit(t, p, obj, nil, ns, controller, stackKind, stackResource)
			expectAdmission(t, ok, msg, "")
			for evil, stack := range map[string]string{"another stage's stack": "acme/fleet/dev",
				"a stack the stage does not list": "acme/fleet/shard-ap"} {
				bad := edited(t, obj, func(o map[string]any) { field(o, "spec")["stack"] = stack })
				ok, msg := admit(t, p, bad, nil, ns, controller, stackKind, stackResource)
				if ok || !strings.Contains(msg, "only the stage's own stack") {
					t.Errorf("%s (%s): admitted %v, %q", evil, stack, ok, msg)
				}
			}
		})
	}
}

// TestShardStacksVerification: Argo Rollouts v1.9.1 resolves a shard stage's own AnalysisTemplate with the stage's
// arguments into one metric per Stack: for stackStatus a Job waiting for that Stack, for pulumiCloud that stack's
// latest update. An AnalysisRun is Successful only when every metric is (Argo Rollouts' analysis), so the stage
// is verified when every shard Stack is.
func TestShardStacksVerification(t *testing.T) {
	freight := strings.Repeat("c", 40)
	for provider, want := range map[string][]string{
		delivery.VerifyStackStatus: {"stacks.pulumi.com/fleet-prod-us --namespace=fleet-stacks-prod",
			"stacks.pulumi.com/fleet-prod-eu --namespace=fleet-stacks-prod"},
		delivery.VerifyPulumiCloud: {"https://api.pulumi.com/api/stacks/acme/fleet/shard-us/updates/latest",
			"https://api.pulumi.com/api/stacks/acme/fleet/shard-eu/updates/latest"},
	} {
		t.Run(provider, func(t *testing.T) {
			a := shardDelivery(&delivery.Verification{Provider: provider, TimeoutSeconds: 600})
			prod := a.Stages[2]
			tmpl := analysisTemplate(t, delivery.StageAnalysis(a, prod))
			args := stageArgs(t, a, prod, freight, map[string]string{"pulumi-access-token": "pul-canary"})
			if provider == delivery.VerifyStackStatus {
				args = args[:len(args)-1] // the template takes no token
			}
			if err := analysis.ResolveArgs(args); err != nil {
				t.Fatal(err)
			}
			if len(tmpl.Spec.Metrics) != len(want) {
				t.Fatalf("%d metrics, want one per Stack", len(tmpl.Spec.Metrics))
			}
			for i, m := range tmpl.Spec.Metrics {
				metric, err := analysis.ResolveMetricArgs(m, args)
				if err != nil {
					t.Fatal(err)
				}
				var got string
				if job := metric.Provider.Job; job != nil {
					c := job.Spec.Template.Spec.Containers[0].Args
					got = strings.Join(c[1:3], " ")
					if c[3] != "--for=jsonpath={.status.lastUpdate.lastSuccessfulCommit}="+freight {
						t.Errorf("metric %s waits for %s", m.Name, c[3])
					}
				} else {
					got = metric.Provider.Web.URL
				}
				if got != want[i] {
					t.Errorf("metric %s reads %q, want %q", m.Name, got, want[i])
				}
			}
		})
	}
}
