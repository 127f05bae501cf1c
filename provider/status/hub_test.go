package status

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// describedHub is an EKS API that knows one cluster, at endpoint with CA data (base64 PEM).
type describedHub struct {
	EKSAPI
	name, endpoint, ca string
}

func (d describedHub) DescribeCluster(_ context.Context, in *eks.DescribeClusterInput, _ ...func(*eks.Options)) (*eks.DescribeClusterOutput, error) {
	if aws.ToString(in.Name) != d.name {
		return nil, errors.New("ResourceNotFoundException: no cluster " + aws.ToString(in.Name))
	}
	c := &types.Cluster{Name: in.Name, Endpoint: aws.String(d.endpoint)}
	if d.ca != "" {
		c.CertificateAuthority = &types.Certificate{Data: aws.String(d.ca)}
	}
	return &eks.DescribeClusterOutput{Cluster: c}, nil
}

// TestEKSHub: fleet status reaches a hub at the endpoint EKS gives for the cluster the hub stack names, trusting the
// CA EKS gives, with an EKS token it made from the ambient credentials (aws-iam-authenticator's k8s-aws-v1. form);
// without a CA from EKS it does not connect.
func TestEKSHub(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	var auth string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		if r.URL.Path != "/apis/argoproj.io/v1alpha1/applications" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"argoproj.io/v1alpha1","kind":"ApplicationList","metadata":{},"items":[
			{"apiVersion":"argoproj.io/v1alpha1","kind":"Application","metadata":{"name":"addon-hub-metrics-server","namespace":"argocd-addons"},
			 "spec":{"destination":{"name":"hub"}},"status":{"sync":{"status":"Synced"},"health":{"status":"Healthy"}}}]}`))
	}))
	defer srv.Close()
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	hub := Cluster{Name: "hub", Region: "us-east-1", Role: "hub", Stack: "prod"}
	reach := EKSHub(func(string) (EKSAPI, error) { return describedHub{name: "hub", endpoint: srv.URL, ca: ca}, nil })
	h := readHub(context.Background(), reach, hub, nil, "argocd")
	apps, err := h.apps, h.err
	if err != nil || len(apps) != 1 || apps[0].Cluster != "hub" || apps[0].Health != "Healthy" {
		t.Fatalf("the hub's Applications: %+v, %v", apps, err)
	}
	if !strings.HasPrefix(auth, "Bearer k8s-aws-v1.") {
		t.Errorf("the hub was asked with Authorization %q, want an EKS token", auth)
	}
	for name, api := range map[string]describedHub{
		"EKS gives no CA":              {name: "hub", endpoint: srv.URL},
		"EKS has no such cluster":      {name: "other", endpoint: srv.URL, ca: ca},
		"another CA than the server's": {name: "hub", endpoint: srv.URL, ca: base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))},
	} {
		reach := EKSHub(func(string) (EKSAPI, error) { return api, nil })
		if h := readHub(context.Background(), reach, hub, nil, "argocd"); h.err == nil {
			t.Errorf("%s: the hub was read", name)
		}
	}
}

// TestHubOf: the hub a stack is read against is the named hub stack's, else its own, else (a shard) the one hub
// read; with several hubs and none of its own, the operator names one.
func TestHubOf(t *testing.T) {
	hubs := map[string]Cluster{"dev": {Name: "dev-hub", Stack: "dev"}, "prod": {Name: "prod-hub", Stack: "prod"}}
	one := map[string]Cluster{"prod": hubs["prod"]}
	for _, tc := range []struct {
		stack, hubStack string
		hubs            map[string]Cluster
		want, err       string
	}{
		{stack: "dev", hubs: hubs, want: "dev-hub"},
		{stack: "dev", hubStack: "prod", hubs: hubs, want: "prod-hub"},
		{stack: "shard-eu", hubs: one, want: "prod-hub"},
		{stack: "shard-eu", hubs: hubs, err: "name the hub's stack with -hub-stack"},
		{stack: "dev", hubStack: "qa", hubs: hubs, err: "the hub stack qa was not read"},
		{stack: "dev", hubs: map[string]Cluster{}, err: "no hub"},
	} {
		got, err := hubOf(tc.stack, tc.hubStack, tc.hubs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("hubOf(%s, %q): %v, want %q", tc.stack, tc.hubStack, err, tc.err)
			}
			continue
		}
		if err != nil || got.Name != tc.want {
			t.Errorf("hubOf(%s, %q) = %s, %v; want %s", tc.stack, tc.hubStack, got.Name, err, tc.want)
		}
	}
}
