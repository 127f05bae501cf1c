package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// testTenantReach plays, on a spoke's real API server, the add-ons repository's path to the tenant's guards: a
// commit synced by Argo CD's identity there (cluster admin, as EKS access makes it; here an impersonated user bound
// to cluster-admin by the cluster's administrator) that binds cluster-admin to a ServiceAccount, writes a role that
// deletes admission policies, or runs a Job in kube-system as the garbage collector. The binding, the role, a
// token Secret for the garbage collector and a request of its token are refused with the reach policies' messages; the Job is admitted but its
// pod is not (the Job controller reports the policy's refusal), and the tenant's guards are still there. A chart's
// ordinary binding is admitted.
func testTenantReach(ctx context.Context, t *testing.T, spoke *fleettest.Cluster, tenantName string) {
	const committer = "fleet-e2e:addons-committer"
	admin := spoke.Typed()
	grant := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "fleet-e2e-addons-committer"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: committer}}}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, grant, metav1.CreateOptions{}); err != nil {
		t.Fatalf("%s: the cluster's administrator binds cluster-admin (exempt): %v", spoke.Name, err)
	}
	argo := spoke.TypedAs(committer, "system:authenticated")
	dry := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	policy := func(i int) string {
		return "ValidatingAdmissionPolicy '" + tenant.ReachPolicyNames(tenantName)[i] + "'"
	}

	evil := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "evil"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "default", Namespace: "default"}}}
	_, err := argo.RbacV1().ClusterRoleBindings().Create(ctx, evil, dry)
	if err == nil || !strings.Contains(err.Error(), policy(0)) || !strings.Contains(err.Error(), "names ClusterRole cluster-admin") {
		t.Errorf("%s: a commit binds cluster-admin to a ServiceAccount: %v, want the role-bindings policy's refusal", spoke.Name, err)
	}
	view := evil.DeepCopy()
	view.Name, view.RoleRef.Name = "chart-view", "view"
	if _, err := argo.RbacV1().ClusterRoleBindings().Create(ctx, view, dry); err != nil {
		t.Errorf("%s: a chart's binding to view: %v", spoke.Name, err)
	}
	deleter := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "evil"}, Rules: []rbacv1.PolicyRule{{
		Verbs: []string{"delete"}, APIGroups: []string{"admissionregistration.k8s.io"}, Resources: []string{"*"}}}}
	if _, err := argo.RbacV1().ClusterRoles().Create(ctx, deleter, dry); err == nil || !strings.Contains(err.Error(), policy(1)) {
		t.Errorf("%s: a commit writes a role that deletes admission policies: %v, want the roles policy's refusal", spoke.Name, err)
	}
	token := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "gc-token", Namespace: "kube-system",
		Annotations: map[string]string{corev1.ServiceAccountNameKey: "generic-garbage-collector"}},
		Type: corev1.SecretTypeServiceAccountToken}
	if _, err := argo.CoreV1().Secrets("kube-system").Create(ctx, token, dry); err == nil || !strings.Contains(err.Error(), policy(3)) {
		t.Errorf("%s: a token Secret for the garbage collector: %v, want the system-tokens policy's refusal", spoke.Name, err)
	}

	// The Job itself is admitted; kube-controller-manager's Job controller cannot create its pod. EKS runs the
	// controllers as their own service accounts (--use-service-account-credentials), kwokctl's do not: the account
	// is made here as EKS has it, or the ServiceAccount admission plugin would refuse the pod first.
	gc := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "generic-garbage-collector", Namespace: "kube-system"}}
	if _, err := admin.CoreV1().ServiceAccounts("kube-system").Create(ctx, gc, metav1.CreateOptions{}); err == nil {
		defer func() {
			_ = admin.CoreV1().ServiceAccounts("kube-system").Delete(context.WithoutCancel(ctx), gc.Name, metav1.DeleteOptions{})
		}()
	} else if !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	zero := int32(0)
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "fleet-e2e-evil", Namespace: "kube-system"},
		Spec: batchv1.JobSpec{BackoffLimit: &zero, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			ServiceAccountName: "generic-garbage-collector", RestartPolicy: corev1.RestartPolicyNever,
			Containers: []corev1.Container{{Name: "kubectl", Image: "registry.k8s.io/kubectl:v1.33.0",
				Args: []string{"delete", "validatingadmissionpolicies", "--all"}}}}}}}
	if _, err := argo.BatchV1().Jobs("kube-system").Create(ctx, job, metav1.CreateOptions{}); err != nil {
		t.Fatalf("%s: the Job: %v", spoke.Name, err)
	}
	defer func() {
		background := metav1.DeletePropagationBackground
		_ = admin.BatchV1().Jobs("kube-system").Delete(context.WithoutCancel(ctx), job.Name, metav1.DeleteOptions{PropagationPolicy: &background})
	}()
	// A token of the garbage collector's account, asked of the TokenRequest API (a role may grant that: charts do).
	_, err = argo.CoreV1().ServiceAccounts("kube-system").CreateToken(ctx, gc.Name, &authenticationv1.TokenRequest{}, dry)
	if err == nil || !strings.Contains(err.Error(), policy(4)) {
		t.Errorf("%s: a token of the garbage collector's account requested: %v, want the system-token-requests policy's refusal", spoke.Name, err)
	}
	var refusal string
	for deadline := time.Now().Add(90 * time.Second); refusal == "" && time.Now().Before(deadline); time.Sleep(time.Second) {
		events, err := admin.CoreV1().Events("kube-system").List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.kind=Job,involvedObject.name=" + job.Name})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events.Items {
			if e.Reason == "FailedCreate" && strings.Contains(e.Message, policy(2)) {
				refusal = e.Message
			}
		}
	}
	if refusal == "" {
		events, _ := admin.CoreV1().Events("kube-system").List(ctx, metav1.ListOptions{})
		var seen []string
		for _, e := range events.Items {
			seen = append(seen, e.InvolvedObject.Kind+"/"+e.InvolvedObject.Name+" "+e.Reason+": "+e.Message)
		}
		live, err := admin.BatchV1().Jobs("kube-system").Get(ctx, job.Name, metav1.GetOptions{})
		t.Errorf("%s: no FailedCreate event of the Job's pod naming %s within 90 s; the Job %+v %v; events in kube-system:\n%s",
			spoke.Name, policy(2), live.Status, err, strings.Join(seen, "\n"))
	} else if !strings.Contains(refusal, "runs as controller service account generic-garbage-collector") {
		t.Errorf("%s: the Job's pod refused with %q", spoke.Name, refusal)
	}
	if pods, err := admin.CoreV1().Pods("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "job-name=" + job.Name}); err != nil ||
		len(pods.Items) > 0 {
		t.Errorf("%s: the Job's pods: %v %v, want none", spoke.Name, pods, err)
	}
	if _, err := admin.AdmissionregistrationV1().ValidatingAdmissionPolicies().Get(ctx, tenant.NamespacePolicyName(tenantName),
		metav1.GetOptions{}); err != nil {
		t.Errorf("%s: the tenant's guard after the attack: %v", spoke.Name, err)
	}
}
