package fleettest

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"k8s.io/client-go/kubernetes"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// Endpoint is the cluster's API endpoint and CA (PEM), as EKS's DescribeCluster gives them.
func (c *Cluster) Endpoint() (string, []byte) {
	t := c.env.t
	t.Helper()
	for _, r := range c.env.Cloud().Records("aws", aws.EKSClusterType) {
		if state := c.env.Cloud().Plain(r); r.Scope == c.Region && state["name"] == c.Name {
			auth, _ := state["certificateAuthority"].(map[string]any)
			ca, err := base64.StdEncoding.DecodeString(fmt.Sprint(auth["data"]))
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprint(state["endpoint"]), ca
		}
	}
	t.Fatalf("no EKS cluster %s in %s", c.Name, c.Region)
	return "", nil
}

// AsAWS is a client of the cluster's endpoint (Endpoint) authenticating as creds with an EKS token, as `aws eks
// get-token` makes one: the cluster's authenticator asks the offline STS who signed it, and its access entries (or
// aws-auth) say who that is.
func (c *Cluster) AsAWS(creds aws.Credentials) kubernetes.Interface {
	endpoint, ca := c.Endpoint()
	return c.AsAWSAt(creds, c.Name, endpoint, ca)
}

// AsAWSAt is a client of endpoint (trusting ca, PEM) with an EKS token for cluster signed with creds in the
// cluster's region: what Argo CD does with a cluster secret's awsAuthConfig, which names the cluster and endpoint.
func (c *Cluster) AsAWSAt(creds aws.Credentials, cluster, endpoint string, ca []byte) kubernetes.Interface {
	t := c.env.t
	t.Helper()
	tok, err := aws.Token(creds, c.Region, cluster)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.env.run.off.EndpointConfig(endpoint, ca, tok)
	if err != nil {
		t.Fatal(err)
	}
	return typed(c.env, cfg)
}

// AssumeRole is the credentials of role arn assumed at the offline STS with session name session.
func (c *Cloud) AssumeRole(arn, session string) aws.Credentials {
	creds, err := c.STS().AssumeRole(arn, session)
	if err != nil {
		c.env.t.Fatal(err)
	}
	return creds
}

// PutRole records an IAM role of the customer's own, made outside the fleet, until the test ends.
func (c *Cloud) PutRole(arn string) {
	t := c.env.t
	t.Helper()
	name := arn[strings.LastIndex(arn, "/")+1:]
	state, err := emulator.PlainState(map[string]any{"arn": arn, "name": name, "uniqueId": "AROA" + strings.ToUpper(emulator.RandomHex(8))})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Store().Put(emulator.Record{Package: "aws", Type: "aws:iam/role:Role", URN: "outside-the-fleet",
		ID: name, State: state}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Store().Delete("aws", "aws:iam/role:Role", name) })
}

// RoleExists tells whether the cloud holds the IAM role arn.
func (c *Cloud) RoleExists(arn string) bool {
	for _, r := range c.Records("aws", "aws:iam/role:Role") {
		if state, err := r.Plain(); err == nil && state["arn"] == arn {
			return true
		}
	}
	return false
}

// RemoveAccessEntry deletes principal's access entry on the cluster and its policies' associations, as EKS's
// DeleteAccessEntry does outside the stack (the console, a drifted account), and lets the cluster's control plane
// follow.
func (c *Cluster) RemoveAccessEntry(principal string) {
	t := c.env.t
	t.Helper()
	cloud := c.env.Cloud()
	removed := 0
	for _, typ := range []string{aws.AccessEntryType, aws.AccessPolicyAssociationType} {
		for _, r := range cloud.Records("aws", typ) {
			if state := cloud.Plain(r); r.Scope == c.Region && state["clusterName"] == c.Name && state["principalArn"] == principal {
				if _, err := cloud.Store().Delete("aws", typ, r.ID); err != nil {
					t.Fatal(err)
				}
				removed++
			}
		}
	}
	if removed == 0 {
		t.Fatalf("no access entry of %s on %s", principal, c.Name)
	}
	if err := aws.SyncAccess(context.Background(), cloud.Store(), *c.env.run.off.Clusters, c.Region, c.Name); err != nil {
		t.Fatal(err)
	}
}
