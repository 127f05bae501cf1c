package gitopsbridge

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const policyType = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"

// registered is the CEL map literal of the registrations in the hub guard's policy.
func registered(t *testing.T, spec any) string {
	t.Helper()
	raw, _ := json.Marshal(spec)
	var s struct {
		Variables []struct{ Name, Expression string } `json:"variables"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	for _, v := range s.Variables {
		if v.Name == "registered" {
			return v.Expression
		}
	}
	t.Fatalf("no variable registered in %s", raw)
	return ""
}

func withRole(c clusterinfo.ClusterInfoArgs, role string) clusterinfo.ClusterInfoArgs {
	c.SpokeRoleArn = pulumi.String(role)
	return c
}

// TestGuardRegisteredSpokes: the hub's guard admits from Git exactly the secrets GitOpsBridge writes for the hub
// and each registered spoke, listed in a stable order whatever the order given, and the policy is no secret
// although each clusterInfo carries a kubeconfig.
func TestGuardRegisteredSpokes(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	spoke1, spoke2 := withRole(cluster("spoke1", "us-west-2"), spokeRoleArn), withRole(cluster("spoke2", "eu-west-1"), spokeRoleArn)
	var lists []string
	for _, spokes := range [][]clusterinfo.ClusterInfoInput{{spoke1, spoke2}, {spoke2, spoke1}} {
		args := hubArgs()
		args.Hub.RegisteredSpokes = spokes
		cloud, _ := build(t, "hub", args)
		policy := cloud.MustGet(t, policyType, "hub-cluster-secrets-policy")
		if policy.Inputs["spec"].ContainsSecrets() {
			t.Error("the guard's policy is secret: its plan would show no diff")
		}
		lists = append(lists, registered(t, policy.Input("spec")))
	}
	if lists[0] != lists[1] {
		t.Errorf("the registrations depend on the order of hub.registeredSpokes:\n%s\n%s", lists[0], lists[1])
	}
	for _, want := range []string{
		b64("hub"), b64(InClusterConfig()), b64("spoke1"), b64("https://spoke1.gr7.us-west-2.eks.amazonaws.com"),
		b64(SpokeConfig("spoke1", spokeRoleArn, "Q0Egb2Ygspoke1")), b64(SpokeConfig("spoke2", spokeRoleArn, "Q0Egb2Ygspoke2")),
	} {
		if !strings.Contains(lists[0], want) {
			t.Errorf("the registrations lack %s: %s", want, lists[0])
		}
	}
	// Without registered spokes, the controller may write the hub's own secret only.
	cloud, _ := build(t, "hub", hubArgs())
	if got := registered(t, cloud.MustGet(t, policyType, "hub-cluster-secrets-policy").Input("spec")); strings.Count(got, ":") != 1 {
		t.Errorf("registrations without registered spokes = %s, want the hub's alone", got)
	}
}

func TestGuardRegisteredSpokesInvalid(t *testing.T) {
	args := hubArgs()
	args.Hub.RegisteredSpokes = []clusterinfo.ClusterInfoInput{
		cluster("spoke1", "us-west-2"), withRole(cluster("hub", "us-west-2"), spokeRoleArn),
	}
	_, _, err := run("hub", args)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`hub.registeredSpokes[0].spokeRoleArn: "" is not an IAM role ARN`,
		`hub.registeredSpokes[1].clusterName: "hub" is also the hub`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
