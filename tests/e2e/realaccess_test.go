package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// The answers a request gets: allowed, refused by authorization (RBAC: the identity is known), or refused by
// authentication (no entry maps the identity).
const (
	allowed      = "allowed"
	forbidden    = "forbidden (403)"
	unauthorized = "unauthorized (401)"
)

// testOwnersAccess is the dev fleet's tenants' owners reaching the spokes as EKS lets them: each assumes its own
// role, makes an EKS token for a cluster, and the cluster's API server authenticates it through aws-iam-authenticator
// (the access entries the fleet wrote) and authorizes it (the access policies, scoped to the tenant's namespaces).
func testOwnersAccess(t *testing.T, env *fleettest.Env) {
	env = env.For(t)
	ctx := context.Background()
	owners := map[string]string{} // role name -> ARN: the owners of Pulumi.dev.yaml, roles of the customer's own
	for _, name := range []string{"payments-admins", "auditors", "search-team", "not-an-owner"} {
		owners[name] = "arn:aws:iam::" + aws.Account + ":role/" + name
		env.Cloud().PutRole(owners[name])
	}
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	listPods := func(ns string) func(kubernetes.Interface) error {
		return func(k kubernetes.Interface) error {
			_, err := k.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			return err
		}
	}
	createConfigMap := func(ns string) func(kubernetes.Interface) error {
		return func(k kubernetes.Interface) error {
			_, err := k.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "probe"}}, dryRun)
			return err
		}
	}
	listNamespaces := func(k kubernetes.Interface) error {
		_, err := k.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		return err
	}
	cases := []struct {
		reason, owner, cluster string
		do                     func(kubernetes.Interface) error
		want                   string
	}{
		{"payments' admins administer payments", "payments-admins", "spoke-usw2", listPods("payments"), allowed},
		{"and payments-batch", "payments-admins", "spoke-usw2", createConfigMap("payments-batch"), allowed},
		{"on every spoke payments selects", "payments-admins", "spoke-use2", createConfigMap("payments"), allowed},
		{"but not search's namespace", "payments-admins", "spoke-usw2", listPods("search"), forbidden},
		{"nor the cluster scope", "payments-admins", "spoke-usw2", listNamespaces, forbidden},
		{"nor the hub, which payments does not select", "payments-admins", "hub", listPods("payments"), unauthorized},
		{"auditors (access: view) read payments", "auditors", "spoke-usw2", listPods("payments"), allowed},
		{"and write nothing there", "auditors", "spoke-usw2", createConfigMap("payments"), forbidden},
		{"search (access: edit) writes in search", "search-team", "spoke-usw2", createConfigMap("search"), allowed},
		{"not in payments", "search-team", "spoke-usw2", listPods("payments"), forbidden},
		{"and has no entry on spoke-use2, which search does not select", "search-team", "spoke-use2", listPods("search"), unauthorized},
		{"a role that owns nothing has no entry anywhere", "not-an-owner", "spoke-usw2", listPods("default"), unauthorized},
	}
	for _, tc := range cases {
		t.Run(tc.owner+" on "+tc.cluster+": "+tc.reason, func(t *testing.T) {
			env := env.For(t)
			kube := env.Cluster(tc.cluster).AsAWS(env.Cloud().AssumeRole(owners[tc.owner], tc.owner))
			if got := answer(tc.do(kube)); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.reason, got, tc.want)
			}
		})
	}
}

// testArgoCDAccess is the hub's Argo CD reaching each spoke as its cluster secret tells it to: assume the
// secret's awsAuthConfig.roleARN, make a token for its clusterName, call its server trusting its caData. It has
// the cluster administrator's access the fleet grants on that spoke and no other, and loses it once the spoke's
// access entry is gone (deleted outside the stack: the console, or a drifted account).
func testArgoCDAccess(t *testing.T, env *fleettest.Env) {
	env = env.For(t)
	ctx := context.Background()
	secrets, err := env.Hub().Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).List(ctx,
		metav1.ListOptions{LabelSelector: "argocd.argoproj.io/secret-type=cluster"})
	if err != nil {
		t.Fatal(err)
	}
	type spoke struct {
		server string
		config gitopsbridge.ClusterConfig
	}
	spokes := map[string]spoke{}
	for _, s := range secrets.Items {
		var config gitopsbridge.ClusterConfig
		if err := json.Unmarshal(s.Data["config"], &config); err != nil {
			t.Fatalf("cluster secret %s: %v", s.Name, err)
		}
		if config.AWSAuthConfig != nil {
			spokes[string(s.Data["name"])] = spoke{server: string(s.Data["server"]), config: config}
		}
	}
	if len(spokes) != 2 {
		t.Fatalf("the hub registers %d spokes through awsAuthConfig, want 2 (spoke-use2, spoke-usw2)", len(spokes))
	}
	// asArgoCD is a client of the server of secret `of`, with the identity and token of secret `as`.
	asArgoCD := func(t *testing.T, as, of spoke) kubernetes.Interface {
		env := env.For(t)
		creds := env.Cloud().AssumeRole(as.config.AWSAuthConfig.RoleARN, "argocd")
		cluster := as.config.AWSAuthConfig.ClusterName
		ca, err := base64.StdEncoding.DecodeString(of.config.TLSClientConfig.CAData)
		if err != nil {
			t.Fatal(err)
		}
		return env.Cluster(cluster).AsAWSAt(creds, cluster, of.server, ca)
	}
	listSecrets := func(k kubernetes.Interface) error {
		_, err := k.CoreV1().Secrets("").List(ctx, metav1.ListOptions{})
		return err
	}
	for name, s := range spokes {
		t.Run("Argo CD administers "+name, func(t *testing.T) {
			if got := answer(listSecrets(asArgoCD(t, s, s))); got != allowed {
				t.Errorf("Argo CD listing every Secret on %s as its spoke role: %s, want %s", name, got, allowed)
			}
		})
	}
	t.Run("a spoke's role reaches no other spoke", func(t *testing.T) {
		// spoke-use2's role, with a token for spoke-usw2, at spoke-usw2's server.
		as := spokes["spoke-use2"]
		as.config.AWSAuthConfig = &gitopsbridge.AWSAuthConfig{ClusterName: "spoke-usw2", RoleARN: as.config.AWSAuthConfig.RoleARN}
		if got := answer(listSecrets(asArgoCD(t, as, spokes["spoke-usw2"]))); got != unauthorized {
			t.Errorf("spoke-use2's role on spoke-usw2: %s, want %s", got, unauthorized)
		}
	})
	t.Run("Argo CD is refused once the spoke's access entry is gone", func(t *testing.T) {
		env := env.For(t)
		s := spokes["spoke-usw2"]
		env.For(t).Cluster("spoke-usw2").RemoveAccessEntry(s.config.AWSAuthConfig.RoleARN)
		kube := asArgoCD(t, s, s)
		var got string
		// The API server keeps an authenticated identity for controlplane.WebhookCacheTTL.
		_ = wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
			got = answer(listSecrets(kube))
			return got == unauthorized, nil
		})
		if got != unauthorized {
			t.Errorf("Argo CD on spoke-usw2 after its entry was deleted: %s, want %s", got, unauthorized)
		}
	})
}

// answer names how the server answered a request.
func answer(err error) string {
	switch {
	case err == nil:
		return allowed
	case apierrors.IsForbidden(err):
		return forbidden
	case apierrors.IsUnauthorized(err):
		return unauthorized
	}
	return err.Error()
}
