package aws

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials/endpointcreds"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// TestPodIdentityAgent fetches credentials from the offline agent with the AWS SDK for Go v2's endpoint provider
// (what AWS_CONTAINER_CREDENTIALS_FULL_URI selects): the association picks the role, the role's trust (the
// management role's, gitopsbridge.ManagementTrustPolicy) must allow the service account's session tags.
func TestPodIdentityAgent(t *testing.T) {
	store := emulator.OpenStore(t.TempDir())
	clusterArn := ARN("eks", "us-west-2", "cluster/hub")
	put := func(typ, id string, state map[string]any) { putRecord(t, store, typ, id, "us-west-2", state) }
	mgmt := "arn:aws:iam::" + Account + ":role/gitops-fleet/hub/hub-management"
	put(EKSClusterType, "hub", map[string]any{"name": "hub", "arn": clusterArn})
	putRole(t, store, mgmt, gitopsbridge.ManagementTrustPolicy(clusterArn, "argocd",
		[]string{"argocd-application-controller", "argocd-server"}).JSON())
	for _, sa := range []string{"argocd-application-controller", "argocd-repo-server"} {
		put("aws:eks/podIdentityAssociation:PodIdentityAssociation", "hub,"+sa, map[string]any{
			"clusterName": "hub", "namespace": "argocd", "serviceAccount": sa, "roleArn": mgmt})
	}
	s := NewSTS(store)
	agent := httptest.NewServer(PodIdentityAgent{STS: s, Region: "us-west-2", Cluster: "hub",
		Review: func(_ context.Context, token string) (string, string, error) {
			ns, sa, ok := strings.Cut(strings.TrimPrefix(token, "token-of:"), "/")
			if !ok {
				return "", "", fmt.Errorf("not a token")
			}
			return ns, sa, nil
		}})
	defer agent.Close()

	cases := map[string]struct {
		token, wantErr string
	}{
		"trusted service account": {token: "token-of:argocd/argocd-application-controller"},
		"associated, not trusted": {token: "token-of:argocd/argocd-repo-server", wantErr: "does not trust"},
		"not associated":          {token: "token-of:argocd/argocd-server", wantErr: "no Pod Identity association"},
		"another namespace":       {token: "token-of:kube-system/argocd-application-controller", wantErr: "no Pod Identity association"},
		"token refused":           {token: "forged", wantErr: "not valid"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := endpointcreds.New(agent.URL+"/v1/credentials", func(o *endpointcreds.Options) { o.AuthorizationToken = tc.token })
			creds, err := p.Retrieve(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			id := s.identities[creds.AccessKeyID]
			s.mu.Unlock()
			if want := "arn:aws:sts::" + Account + ":assumed-role/hub-management/eks-hub-argocd-application-controller"; id.arn != want {
				t.Errorf("the credentials are %q's, want %q's", id.arn, want)
			}
		})
	}
}
