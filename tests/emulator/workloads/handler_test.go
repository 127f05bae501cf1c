package workloads

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi"
	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
	"golang.org/x/oauth2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport"
	"sigs.k8s.io/aws-iam-authenticator/pkg/token"
)

const endpoint = "https://0A1B2C.gr7.us-west-2.eks.amazonaws.com"

// cloud is a store with an emulated EKS cluster "spoke" at endpoint, the workloads given, and a TLS server
// answering its API and the Tagging API, as the offline network routes them.
func cloud(t *testing.T, objects []Object, tagged []Tagged) (*emulator.Store, *httptest.Server) {
	t.Helper()
	s := emulator.OpenStore(t.TempDir())
	state := []byte(`{"name":"spoke","endpoint":"` + endpoint + `"}`)
	if err := s.Put(emulator.Record{Package: "aws", Type: "aws:eks/cluster:Cluster", ID: "spoke", Scope: "us-west-2",
		State: state}); err != nil {
		t.Fatal(err)
	}
	if err := Put(s, objects, tagged); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(Handler(s, network.Answer))
	t.Cleanup(srv.Close)
	return s, srv
}

// toServer dials srv whatever the host, as the offline network's proxy does.
func toServer(srv *httptest.Server) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
}

// drainer is the Drainer the fleet plugin builds, against srv: client-go with an aws-iam-authenticator token,
// and the AWS SDK's Tagging API client.
func drainer(t *testing.T, srv *httptest.Server) drain.Drainer {
	t.Helper()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAOFFLINECLOUD0000")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "offline")
	gen, err := token.NewGenerator(false, false)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := gen.GetWithOptions(t.Context(), &token.GetTokenOptions{ClusterID: "spoke", Region: "us-west-2"})
	if err != nil {
		t.Fatal(err)
	}
	kube, err := dynamic.NewForConfig(&rest.Config{Host: endpoint, Dial: toServer(srv),
		TLSClientConfig: rest.TLSClientConfig{Insecure: true},
		WrapTransport:   transport.TokenSourceWrapTransport(oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok.Token}))})
	if err != nil {
		t.Fatal(err)
	}
	tagging := resourcegroupstaggingapi.New(resourcegroupstaggingapi.Options{Region: "us-west-2",
		Credentials: credentials.NewStaticCredentialsProvider("AKIAOFFLINECLOUD0000", "offline", ""),
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: toServer(srv),
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}}) //nolint:gosec // the test server's own certificate
	return drain.Drainer{Cluster: "spoke", Kube: kube, AWS: drain.Tagging{Client: tagging},
		Settings: drain.Settings{Timeout: 2 * time.Second, Poll: 100 * time.Millisecond}}
}

var (
	ingresses  = schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}
	nodeClaims = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}
	services   = schema.GroupVersionResource{Version: "v1", Resource: "services"}
)

func object(kind, namespace, name string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name, "namespace": namespace}}
}

const (
	alb      = "arn:aws:elasticloadbalancing:us-west-2:111122223333:loadbalancer/app/web/1"
	instance = "arn:aws:ec2:us-west-2:111122223333:instance/i-0karpenter"
	orphan   = "arn:aws:elasticloadbalancing:us-west-2:111122223333:loadbalancer/app/orphan/2"
)

// TestTheDrainEmptiesTheCloud runs the plugin's Drainer, with the clients it uses, against the offline cloud: the
// objects go, so does what the controllers made for them; what nobody made stays, and is named.
func TestTheDrainEmptiesTheCloud(t *testing.T) {
	lbTags := map[string]string{"elbv2.k8s.aws/cluster": "spoke"}
	karpenterTags := map[string]string{"kubernetes.io/cluster/spoke": "owned", "karpenter.sh/nodepool": "default"}
	objects := []Object{
		{Cluster: "spoke", Resource: ingresses, Object: object("Ingress", "shop", "web"), Made: []string{alb}},
		{Cluster: "spoke", Resource: nodeClaims, Object: object("NodeClaim", "", "default-x7k2p"), Made: []string{instance}},
		{Cluster: "spoke", Resource: services, Object: object("Service", "shop", "internal")},
	}
	tagged := []Tagged{{ARN: alb, Region: "us-west-2", Tags: lbTags}, {ARN: instance, Region: "us-west-2", Tags: karpenterTags},
		{ARN: orphan, Region: "us-west-2", Tags: lbTags},
		{ARN: "arn:aws:ec2:us-west-2:111122223333:instance/i-0nodegroup", Region: "us-west-2",
			Tags: map[string]string{"kubernetes.io/cluster/spoke": "owned"}}}
	s, srv := cloud(t, objects, tagged)
	err := drainer(t, srv).Run(context.Background())
	var left *drain.LeftoverError
	if !errorsAs(err, &left) || !slices.Equal(left.ARNs, []string{orphan}) {
		t.Fatalf("drain: %v, want the orphan load balancer left (not the node group's instance, which has no node pool tag)", err)
	}
	remaining, err := Objects(s, "spoke")
	if err != nil {
		t.Fatal(err)
	}
	if len(remaining) != 1 || remaining[0].Resource != services {
		t.Errorf("objects left %v, want the ClusterIP Service only", remaining)
	}
	all, _ := TaggedIn(s, "us-west-2")
	if len(all) != 2 {
		t.Errorf("tagged left %v, want the orphan and the node group's instance", all)
	}
}

// TestTheAPIWantsAnEKSToken: a request without a token, or with another bearer token, is 401.
func TestTheAPIWantsAnEKSToken(t *testing.T) {
	_, srv := cloud(t, nil, nil)
	client := &http.Client{Transport: &http.Transport{DialContext: toServer(srv),
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the test server's own certificate
	for _, auth := range []string{"", "Bearer abc", "Bearer k8s-aws-v1.aHR0cHM6Ly9leGFtcGxlLmNvbQ"} {
		req, _ := http.NewRequest(http.MethodGet, endpoint+"/api/v1/services", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", auth, resp.StatusCode)
		}
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
