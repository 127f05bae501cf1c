package delivery

import (
	"fmt"
	"slices"
	"strconv"

	corev1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/core/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	rbacv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/rbac/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const (
	// rolloutsAPIVersion is the API version of Argo Rollouts' AnalysisTemplate.
	rolloutsAPIVersion = "argoproj.io/v1alpha1"
	// PulumiCloudTemplate and StackStatusTemplate are the AnalysisTemplates in the Kargo project, one per provider.
	PulumiCloudTemplate = "pulumi-cloud"
	StackStatusTemplate = "stack-status"
	// PulumiAPITokenSecret (key PULUMI_ACCESS_TOKEN) holds the Pulumi access token of pulumiCloud verification in
	// the Kargo project, as seed 004 names it.
	PulumiAPITokenSecret = "pulumi-api-token"
	pulumiAPITokenKey    = "PULUMI_ACCESS_TOKEN"
	// StackReaderName is the ServiceAccount of stackStatus verification's Job in the Kargo project, and its
	// Role and RoleBinding in each verified stage's namespace.
	StackReaderName = "stack-status"
	// pollSeconds is how often pulumiCloud verification asks the Pulumi API.
	pollSeconds = 30
)

// verifies lists the providers the stages verify with.
func verifies(a StackDeliveryArgs) map[string]bool {
	out := map[string]bool{}
	for _, s := range a.Stages {
		if s.Verification != nil && s.deploys() {
			out[s.Verification.Provider] = true
		}
	}
	return out
}

// StageVerification is a verified stage's spec.verification: its provider's AnalysisTemplate, with the Freight's
// commit (Kargo's commitFrom expression over the program repository) and what the provider reads of the stage; a
// stage with stacks has a template of its own, "<template>-<stage>" (StageAnalysis), which names its Stacks.
func StageVerification(a StackDeliveryArgs, s DeliveryStage) map[string]any {
	commit := fmt.Sprintf("${{ commitFrom(%q).ID }}", a.Program.RepoUrl)
	arg := func(name, value string) any { return map[string]any{"name": name, "value": value} }
	args := []any{arg("commit", commit), arg("timeout", strconv.Itoa(s.Verification.TimeoutSeconds))}
	template := PulumiCloudTemplate
	if s.Verification.Provider == VerifyStackStatus {
		template = StackStatusTemplate
		if len(s.Stacks) == 0 {
			args = append(args, arg("stack-name", s.StackName), arg("namespace", s.Namespace))
		}
	} else {
		kind := "update"
		if s.Kind == KindPreview {
			kind = "preview"
		}
		if len(s.Stacks) == 0 {
			args = append(args, arg("stack", s.Stack))
		}
		args = append(args, arg("kind", kind), arg("polls", strconv.Itoa(max(1, s.Verification.TimeoutSeconds/pollSeconds))))
	}
	if len(s.Stacks) > 0 { // its own template, a metric per Stack (StageAnalysis)
		template += "-" + s.Name
	}
	return map[string]any{
		"analysisTemplates": []any{map[string]any{"name": template}},
		"args":              args,
	}
}

// PulumiCloudAnalysis is the AnalysisTemplate of pulumiCloud verification (Argo Rollouts v1.9.1): every 30 s, up to
// polls times, it reads the stack's latest update from the Pulumi Cloud REST API
// (GET /api/stacks/<org>/<project>/<stack>/updates/latest, with the project's Pulumi access token). The
// measurement succeeds when that update is of the stage's kind, succeeded, and ran the Freight's commit
// (environment git.head, which the Pulumi CLI records from the workspace's Git checkout), and fails when such an
// update failed; an update still running, or one of another commit, is inconclusive and asked again. One success
// verifies the Freight (consecutiveSuccessLimit).
func PulumiCloudAnalysis(a StackDeliveryArgs) map[string]any {
	same := `result.info.kind == "{{args.kind}}" && result.info.environment["git.head"] == "{{args.commit}}"`
	return analysisTemplate(a, PulumiCloudTemplate, []any{
		map[string]any{"name": "stack"}, map[string]any{"name": "commit"}, map[string]any{"name": "kind"},
		map[string]any{"name": "timeout"}, map[string]any{"name": "polls"},
		map[string]any{"name": "pulumi-access-token", "valueFrom": map[string]any{
			"secretKeyRef": map[string]any{"name": PulumiAPITokenSecret, "key": pulumiAPITokenKey}}},
	}, map[string]any{
		"name":                    "latest-update",
		"interval":                strconv.Itoa(pollSeconds) + "s",
		"count":                   "{{args.polls}}",
		"consecutiveSuccessLimit": 1,
		"inconclusiveLimit":       "{{args.polls}}",
		"successCondition":        same + ` && result.info.result == "succeeded"`,
		"failureCondition":        same + ` && result.info.result == "failed"`,
		"provider": map[string]any{"web": map[string]any{
			"url": "https://api.pulumi.com/api/stacks/{{args.stack}}/updates/latest",
			"headers": []any{
				map[string]any{"key": "Authorization", "value": "token {{args.pulumi-access-token}}"},
				map[string]any{"key": "Accept", "value": "application/vnd.pulumi+8"},
			},
			"timeoutSeconds": 20,
		}},
	})
}

// StackStatusAnalysis is the AnalysisTemplate of stackStatus verification (Argo Rollouts v1.9.1): a Job, as the
// project's stack-status ServiceAccount, runs kubectl wait until the stage's Stack reports the Freight's commit as
// status.lastUpdate.lastSuccessfulCommit (PKO v2.9.0's Stack status), within the timeout.
func StackStatusAnalysis(a StackDeliveryArgs) map[string]any {
	return analysisTemplate(a, StackStatusTemplate, []any{
		map[string]any{"name": "stack-name"}, map[string]any{"name": "namespace"}, map[string]any{"name": "commit"},
		map[string]any{"name": "timeout"},
	}, map[string]any{
		"name": "last-successful-commit",
		"provider": map[string]any{"job": map[string]any{"spec": map[string]any{
			"backoffLimit": 0,
			"template": map[string]any{"spec": map[string]any{
				"serviceAccountName": StackReaderName,
				"restartPolicy":      "Never",
				"containers": []any{map[string]any{
					"name":  "wait",
					"image": a.Rollouts.KubectlImage,
					"args": []any{"wait", "stacks.pulumi.com/{{args.stack-name}}", "--namespace={{args.namespace}}",
						"--for=jsonpath={.status.lastUpdate.lastSuccessfulCommit}={{args.commit}}",
						"--timeout={{args.timeout}}s"},
				}},
			}},
		}}},
	})
}

// analysisTemplate is the AnalysisTemplate name in the Kargo project, with args and metrics.
func analysisTemplate(a StackDeliveryArgs, name string, args []any, metrics ...any) map[string]any {
	return map[string]any{
		"apiVersion": rolloutsAPIVersion,
		"kind":       "AnalysisTemplate",
		"metadata":   map[string]any{"name": name, "namespace": a.Project},
		"spec":       map[string]any{"args": args, "metrics": metrics},
	}
}

// verification installs what the stages' verification needs, after Argo Rollouts (its CRDs) and the Kargo
// Project (its namespace): Argo Rollouts itself unless rollouts.existing; for pulumiCloud the token Secret and
// the template; for stackStatus the template, the Job's ServiceAccount, and in each verified stage's namespace a
// Role that may only read Stacks, bound to it. It returns what the Stages wait for.
func (b *builder) verification(project pulumi.Resource) ([]pulumi.Resource, error) {
	a, providers := b.args, verifies(b.args)
	if len(providers) == 0 {
		return nil, nil
	}
	after := []pulumi.Resource{project}
	if r := *a.Rollouts; !r.Existing {
		rel, err := b.release("argo-rollouts", r.Namespace, RolloutsChart, r.ChartVersion, RolloutsChartRepository,
			r.Values, nil)
		if err != nil {
			return nil, err
		}
		after = append(after, rel)
	}
	var out []pulumi.Resource
	if providers[VerifyPulumiCloud] {
		sec, err := corev1.NewSecret(b.ctx, childName(b.name, PulumiAPITokenSecret), &corev1.SecretArgs{
			Metadata:   &metav1.ObjectMetaArgs{Name: pulumi.String(PulumiAPITokenSecret), Namespace: pulumi.String(a.Project)},
			StringData: pulumi.StringMap{pulumiAPITokenKey: pulumi.ToSecret(a.PulumiAccessToken).(pulumi.StringOutput)},
		}, b.child(b.k8s, project)...)
		if err != nil {
			return nil, err
		}
		t, err := b.object(PulumiCloudTemplate+"-analysis", PulumiCloudAnalysis(a), append(after, sec))
		if err != nil {
			return nil, err
		}
		out = append(out, sec, t)
	}
	if providers[VerifyStackStatus] {
		res, err := b.stackReader(after)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	for _, s := range a.Stages {
		if s.Verification == nil || len(s.Stacks) == 0 {
			continue
		}
		t, err := b.object(s.Name+"-stage-analysis", StageAnalysis(a, s), append(slices.Clone(after), out...))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// stackReader is stackStatus verification's template and identity: a ServiceAccount in the project and, per
// stage verified by stackStatus, a Role in its namespace with get, list and watch on pulumi.com Stacks (what
// kubectl wait needs) bound to it.
func (b *builder) stackReader(after []pulumi.Resource) ([]pulumi.Resource, error) {
	a := b.args
	sa, err := corev1.NewServiceAccount(b.ctx, childName(b.name, StackReaderName+"-sa"), &corev1.ServiceAccountArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(StackReaderName), Namespace: pulumi.String(a.Project)},
	}, b.child(b.k8s, after[0])...)
	if err != nil {
		return nil, err
	}
	t, err := b.object(StackStatusTemplate+"-analysis", StackStatusAnalysis(a), after)
	if err != nil {
		return nil, err
	}
	out := []pulumi.Resource{sa, t}
	readable := map[string]bool{} // namespaces whose Stacks the Job may read: a preview stage shares its target's
	for _, s := range a.Stages {
		if s.Verification == nil || s.Verification.Provider != VerifyStackStatus || !s.deploys() || readable[s.Namespace] {
			continue
		}
		readable[s.Namespace] = true
		owner := s.workspaceStage()
		ws := b.workspaces[owner]
		role, err := rbacv1.NewRole(b.ctx, childName(b.name, owner+"-"+StackReaderName+"-role"), &rbacv1.RoleArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(a.Project + "-" + StackReaderName),
				Namespace: pulumi.String(s.Namespace)},
			Rules: rbacv1.PolicyRuleArray{rbacv1.PolicyRuleArgs{
				ApiGroups: pulumi.ToStringArray([]string{"pulumi.com"}), Resources: pulumi.ToStringArray([]string{"stacks"}),
				Verbs: pulumi.ToStringArray([]string{"get", "list", "watch"}),
			}},
		}, b.child(b.k8s, ws...)...)
		if err != nil {
			return nil, err
		}
		binding, err := rbacv1.NewRoleBinding(b.ctx, childName(b.name, owner+"-"+StackReaderName+"-binding"), &rbacv1.RoleBindingArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(a.Project + "-" + StackReaderName),
				Namespace: pulumi.String(s.Namespace)},
			RoleRef: rbacv1.RoleRefArgs{ApiGroup: pulumi.String("rbac.authorization.k8s.io"), Kind: pulumi.String("Role"),
				Name: pulumi.String(a.Project + "-" + StackReaderName)},
			Subjects: rbacv1.SubjectArray{rbacv1.SubjectArgs{Kind: pulumi.String("ServiceAccount"),
				Name: pulumi.String(StackReaderName), Namespace: pulumi.String(a.Project)}},
		}, b.child(b.k8s, role, sa)...)
		if err != nil {
			return nil, err
		}
		out = append(out, role, binding)
	}
	return out, nil
}
