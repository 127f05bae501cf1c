package aws

import (
	"context"
	"strings"
	"testing"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
)

// TestAssumeRoleChain assumes roles through the offline STS with the AWS SDK for Go v2's AssumeRoleProvider, as
// argocd-k8s-auth does: a role's trust policy decides who may assume it, and GetCallerIdentity answers the session.
func TestAssumeRoleChain(t *testing.T) {
	store := emulator.OpenStore(t.TempDir())
	hubArn := "arn:aws:iam::" + Account + ":role/gitops-fleet/hub/hub-management"
	spokeArn := "arn:aws:iam::" + Account + ":role/gitops-fleet/spoke/spoke-a"
	otherArn := "arn:aws:iam::" + Account + ":role/gitops-fleet/spoke/spoke-b"
	putRole(t, store, hubArn, iampolicy.New(iampolicy.Trust(map[string]string{"AWS": "arn:aws:iam::" + Account + ":root"}, "sts:AssumeRole")).JSON())
	putRole(t, store, spokeArn, fleetcluster.SpokeTrustPolicy(hubArn).JSON())
	putRole(t, store, otherArn, fleetcluster.SpokeTrustPolicy("arn:aws:iam::"+Account+":role/gitops-fleet/hub/another-hub").JSON())

	// The offline network in front of STS, as argocd-k8s-auth reaches it: the SDK's own endpoint
	// (sts.us-west-2.amazonaws.com) through the proxy, trusting the network's CA.
	s := NewSTS(store)
	httpClient := throughNetwork(t, s.Handler(network.Answer))
	client := func(creds awsv2.CredentialsProvider) *sts.Client {
		return sts.New(sts.Options{Region: "us-west-2", HTTPClient: httpClient, Credentials: creds, RetryMaxAttempts: 1})
	}
	deployer := credentials.NewStaticCredentialsProvider(DeployerAccessKeyID, DeployerSecretAccessKey, "")
	as := func(base awsv2.CredentialsProvider, role string) awsv2.CredentialsProvider {
		return awsv2.NewCredentialsCache(stscreds.NewAssumeRoleProvider(client(base), role))
	}
	hub := as(deployer, hubArn)
	cases := map[string]struct {
		creds   awsv2.CredentialsProvider
		wantArn string // "" for refused
		wantErr string
	}{
		"account trust":      {creds: hub, wantArn: "arn:aws:sts::" + Account + ":assumed-role/hub-management/"},
		"trusted role":       {creds: as(hub, spokeArn), wantArn: "arn:aws:sts::" + Account + ":assumed-role/spoke-a/"},
		"another hub's":      {creds: as(hub, otherArn), wantErr: "is not authorized to perform: sts:AssumeRole on resource: " + otherArn},
		"not the hub":        {creds: as(deployer, spokeArn), wantErr: "User: " + DeployerARN() + " is not authorized"},
		"no such role":       {creds: as(hub, "arn:aws:iam::"+Account+":role/nobody"), wantErr: "does not exist"},
		"wrong secret":       {creds: credentials.NewStaticCredentialsProvider(DeployerAccessKeyID, "not-the-secret", ""), wantErr: "SignatureDoesNotMatch"},
		"unknown key":        {creds: credentials.NewStaticCredentialsProvider("AKIANOBODY0000000000", "x", ""), wantErr: "InvalidClientTokenId"},
		"deployer as itself": {creds: deployer, wantArn: DeployerARN()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := client(tc.creds).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(awsv2.ToString(out.Arn), tc.wantArn) {
				t.Errorf("caller %s, want %s...", awsv2.ToString(out.Arn), tc.wantArn)
			}
		})
	}
}

// putRole puts the IAM role arn with trust policy trust in store.
func putRole(t *testing.T, store *emulator.Store, arn, trust string) {
	t.Helper()
	name := arn[strings.LastIndex(arn, "/")+1:]
	putRecord(t, store, "aws:iam/role:Role", name, "", map[string]any{"arn": arn, "name": name,
		"uniqueId": "AROA" + strings.ToUpper(name), "assumeRolePolicy": trust})
}

// putRecord puts a record of type typ with id and plain state in store, in scope (a region, "" for IAM's).
func putRecord(t *testing.T, store *emulator.Store, typ, id, scope string, state map[string]any) {
	t.Helper()
	st, err := emulator.PlainState(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put(emulator.Record{Package: "aws", Type: typ, ID: id, URN: "urn:" + id, Scope: scope, State: st}); err != nil {
		t.Fatal(err)
	}
}
