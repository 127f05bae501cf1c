package controlplane_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/aws-iam-authenticator/pkg/config"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestAuthentication is a cluster's endpoint as EKS serves it, reached through the offline network: the API server
// authenticates EKS tokens through aws-iam-authenticator's server, which asks the offline STS who signed them and
// maps that identity from the access file (DynamicFile) or the aws-auth ConfigMap (EKSConfigMap); RBAC authorizes
// the username and groups it maps to. An identity mapped nowhere is refused, and so is a token made for another
// cluster.
func TestAuthentication(t *testing.T) {
	ctx := context.Background()
	c := clustersForTest(t)
	store := emulator.OpenStore(filepath.Join(t.TempDir(), "cloud"))
	sts := aws.NewSTS(store)
	const roleArn = "arn:aws:iam::" + aws.Account + ":role/teams/payments-admins"
	state, err := emulator.PlainState(map[string]any{"arn": roleArn, "name": "payments-admins", "uniqueId": "AROAPAYMENTS"})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(emulator.Record{Package: "aws", Type: "aws:iam/role:Role", URN: "urn:test", ID: "payments-admins",
		State: state}); err != nil {
		t.Fatal(err)
	}

	const host = "spoke.gr7.us-west-2.eks.amazonaws.com"
	name := controlplane.Name("us-west-2", "spoke")
	var serve http.Handler
	net, err := network.Start(t.TempDir(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve.ServeHTTP(w, r) }))
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	c.Network = offline.ControlPlaneNetwork(net)
	find := func(endpoint string) (string, error) {
		if endpoint == "https://"+host {
			return name, nil
		}
		return "", nil
	}
	serve = sts.Handler(controlplane.Proxy(c, find, network.Answer, controlplane.ProxyOptions{}))
	if err := c.Create(ctx, name, &controlplane.Authentication{ClusterID: "spoke",
		BackendModes: aws.BackendModes("API_AND_CONFIG_MAP")}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(c.Dir(name), "logs", "aws-iam-authenticator.log"))
			t.Logf("the authenticator's log:\n%s", offline.Tail(string(log), 40))
		}
	})
	admin := client(t, c, name)
	get := endpointClient(t, net, host)

	deployer := token(t, aws.Credentials{AccessKeyID: aws.DeployerAccessKeyID, SecretAccessKey: aws.DeployerSecretAccessKey}, "spoke")
	elsewhere := token(t, aws.Credentials{AccessKeyID: aws.DeployerAccessKeyID, SecretAccessKey: aws.DeployerSecretAccessKey}, "hub")
	forged := token(t, aws.Credentials{AccessKeyID: aws.DeployerAccessKeyID, SecretAccessKey: "not-the-secret"}, "spoke")
	creds, err := sts.AssumeRole(roleArn, "alice")
	if err != nil {
		t.Fatal(err)
	}
	payments := token(t, creds, "spoke")

	steps := []struct {
		reason     string
		before     func(t *testing.T)
		token      string
		path       string
		wantStatus int
		wantBody   string
	}{
		{reason: "health needs no token (pulumi-eks polls it)", path: "/healthz", wantStatus: 200, wantBody: "ok"},
		{reason: "the API without a token is system:anonymous's", path: "/api/v1/namespaces", wantStatus: 403,
			wantBody: `system:anonymous`},
		{reason: "an identity with no entry is refused", token: deployer, path: "/api/v1/namespaces", wantStatus: 401},
		{reason: "mapped through the access file, the deployer is who it maps to", token: deployer,
			before: func(t *testing.T) {
				write(t, c, name, controlplane.Access{UserMappings: []config.UserMapping{{UserARN: aws.DeployerARN(),
					Username: "deployer", Groups: []string{"system:masters"}}}})
			},
			path: "/api/v1/namespaces/kube-system", wantStatus: 200, wantBody: `"name":"kube-system"`},
		{reason: "a token signed for another cluster is refused (STS checks the signed x-k8s-aws-id)",
			token: elsewhere, path: "/api/v1/namespaces", wantStatus: 401},
		{reason: "a token signed with the wrong secret is refused", token: forged, path: "/api/v1/namespaces", wantStatus: 401},
		{reason: "an assumed role with no entry is refused", token: payments, path: "/api/v1/namespaces/default/configmaps",
			wantStatus: 401},
		{reason: "mapped through aws-auth (its path stripped, as EKS wants), the role gets what RBAC gives its group",
			token: payments,
			before: func(t *testing.T) {
				_, err := admin.CoreV1().ConfigMaps("kube-system").Create(ctx, &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: "aws-auth"},
					Data: map[string]string{"mapRoles": "- rolearn: arn:aws:iam::" + aws.Account + ":role/payments-admins\n" +
						"  username: payments:{{SessionName}}\n  groups: [payments-viewers]\n"},
				}, metav1.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				_, err = admin.RbacV1().RoleBindings("default").Create(ctx, &rbacv1.RoleBinding{
					ObjectMeta: metav1.ObjectMeta{Name: "payments-viewers"},
					Subjects:   []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "payments-viewers"}},
					RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "view"},
				}, metav1.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
			},
			path: "/api/v1/namespaces/default/configmaps", wantStatus: 200, wantBody: `"kind":"ConfigMapList"`},
		{reason: "and nothing RBAC does not give it", token: payments, path: "/api/v1/namespaces/kube-system/configmaps",
			wantStatus: 403, wantBody: `User \"payments:alice\" cannot list resource \"configmaps\"`},
		{reason: "an entry removed, its identity is refused again once the server's cache lapses", token: deployer,
			before: func(t *testing.T) { write(t, c, name, controlplane.Access{}) },
			path:   "/api/v1/namespaces", wantStatus: 401},
	}
	for _, step := range steps {
		t.Run(step.reason, func(t *testing.T) {
			if step.before != nil {
				step.before(t)
			}
			// The authenticator reloads its access file and aws-auth within seconds, and the API server keeps an
			// identity for controlplane.WebhookCacheTTL: wait for the answer, up to a bound.
			var status int
			var body string
			err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
				status, body = get(step.token, step.path)
				return status == step.wantStatus && strings.Contains(body, step.wantBody), nil
			})
			if err != nil {
				t.Errorf("%s %s: %d %s; want %d with %q", step.path, step.reason, status, body, step.wantStatus, step.wantBody)
			}
		})
	}
}

// endpointClient GETs a path of the cluster endpoint host through the offline network with a bearer token ("" for
// none), returning the status and body.
func endpointClient(t *testing.T, net *network.Network, host string) func(token, path string) (int, string) {
	t.Helper()
	pem, err := os.ReadFile(net.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	proxy, err := url.Parse(net.ProxyURL)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(proxy),
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	return func(token, path string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, "https://"+host+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
}

func token(t *testing.T, creds aws.Credentials, cluster string) string {
	t.Helper()
	tok, err := aws.Token(creds, "us-west-2", cluster)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func write(t *testing.T, c controlplane.Clusters, name string, a controlplane.Access) {
	t.Helper()
	if err := c.WriteAccess(name, a); err != nil {
		t.Fatal(err)
	}
}
