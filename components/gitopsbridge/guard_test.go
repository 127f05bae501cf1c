package gitopsbridge

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
)

const (
	policyType  = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
	bindingType = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
)

// variable is the CEL expression of the named variable in a policy's spec.
func variable(t *testing.T, spec any, name string) string {
	t.Helper()
	raw, _ := json.Marshal(spec)
	var s struct {
		Variables []struct{ Name, Expression string } `json:"variables"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	for _, v := range s.Variables {
		if v.Name == name {
			return v.Expression
		}
	}
	t.Fatalf("no variable %s in %s", name, raw)
	return ""
}

// spokeManifest is a spoke's cluster secret as a spoke GitOpsBridge writes it.
func spokeManifest(name, region string, addons map[string]bool) string {
	return ClusterSecret{Name: name, Namespace: DefaultNamespace, ClusterName: name,
		Labels:      Labels(name, "dev", "1.33", DevWave, addons, nil),
		Annotations: map[string]string{"aws_region": region, "addons_repo_url": "https://github.com/acme/addons"},
		Server:      "https://" + name + ".gr7." + region + ".eks.amazonaws.com",
		Config:      SpokeConfig(name, spokeRoleArn, "Q0Egb2Yg"+name)}.YAML()
}

// TestGuardRegisteredSecrets: the hub's guards pin exactly the secrets GitOpsBridge writes for the hub and each
// registered spoke (data, labels, annotations), listed in a stable order whatever the order given, on writes and
// deletions; they exempt
// the stack's AWS caller as EKS names it and let the chart's own writers keep Argo CD's secrets; the policies are
// no secret.
func TestGuardRegisteredSecrets(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	spoke1, spoke2 := spokeManifest("spoke1", "us-west-2", map[string]bool{"karpenter": true}), spokeManifest("spoke2", "eu-west-1", nil)
	var lists []string
	for _, spokes := range [][]pulumi.StringInput{{pulumi.String(spoke1), pulumi.String(spoke2)}, {pulumi.String(spoke2), pulumi.String(spoke1)}} {
		args := hubArgs()
		args.Hub.RegisteredSecrets = spokes
		cloud, _ := build(t, "hub", args)
		policy := cloud.MustGet(t, policyType, "hub-cluster-secrets-policy")
		if policy.Inputs["spec"].ContainsSecrets() {
			t.Error("the guard's policy is secret: its plan would show no diff")
		}
		lists = append(lists, variable(t, policy.Input("spec"), "pins0"))
		if got := policy.Input("spec"); !strings.Contains(toJSON(t, got), `"DELETE"`) {
			t.Errorf("the guard does not apply to DELETE: %s", toJSON(t, got))
		}
		cloud.MustGet(t, bindingType, "hub-cluster-secrets-policy-binding")
		if got, want := variable(t, policy.Input("spec"), "deployer"),
			`request.userInfo.username == "arn:aws:iam::`+mocks.Account+`:user/ci"`; got != want {
			t.Errorf("deployer = %s, want %s", got, want)
		}
		if got, want := variable(t, policy.Input("spec"), "writer"),
			`request.userInfo.username in ["system:serviceaccount:argocd:argocd-server", `+
				`"system:serviceaccount:argocd:argo-cd-argocd-redis-secret-init"]`; got != want {
			t.Errorf("writer = %s, want %s", got, want)
		}
	}
	if lists[0] != lists[1] {
		t.Errorf("the registrations depend on the order of hub.registeredSecrets:\n%s\n%s", lists[0], lists[1])
	}
	for _, want := range []string{
		b64("hub"), b64(InClusterConfig()), b64("spoke1"), b64("https://spoke1.gr7.us-west-2.eks.amazonaws.com"),
		b64(SpokeConfig("spoke1", spokeRoleArn, "Q0Egb2Ygspoke1")), b64(SpokeConfig("spoke2", spokeRoleArn, "Q0Egb2Ygspoke2")),
		`"enable_karpenter": "true"`, `"aws_region": "eu-west-1"`,
	} {
		if !strings.Contains(lists[0], want) {
			t.Errorf("the registrations lack %s: %s", want, lists[0])
		}
	}
	// Without registered spokes, the hub's own secret alone.
	cloud, _ := build(t, "hub", hubArgs())
	if got := variable(t, cloud.MustGet(t, policyType, "hub-cluster-secrets-policy").Input("spec"), "pins0"); strings.Count(got, `"data"`) != 1 {
		t.Errorf("registrations without registered spokes = %s, want the hub's alone", got)
	}
}

func TestGuardRegisteredSecretsInvalid(t *testing.T) {
	execConfig := ClusterSecret{Name: "spoke3", Namespace: DefaultNamespace, ClusterName: "spoke3",
		Labels: Labels("spoke3", "dev", "1.33", 1, nil, nil), Server: "https://spoke3.example",
		Config: `{"execProviderConfig":{"command":"sh"},"tlsClientConfig":{"insecure":false}}`}.YAML()
	elsewhere := strings.Replace(spokeManifest("spoke4", "us-west-2", nil), "namespace: argocd", "namespace: apps", 1)
	args := hubArgs()
	args.Hub.RegisteredSecrets = []pulumi.StringInput{
		pulumi.String("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"),
		pulumi.String(spokeManifest("hub", "us-west-2", nil)),
		pulumi.String(execConfig),
		pulumi.String(elsewhere),
		pulumi.String(spokeManifest("spoke1", "us-west-2", nil)),
		pulumi.String(spokeManifest("spoke1", "us-west-2", nil)),
		pulumi.String(spokeManifest("argocd-secret", "us-west-2", nil)),
	}
	_, _, err := run("hub", args)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`hub.registeredSecrets[0]: a cluster secret is a v1 Secret, not v1 ConfigMap`,
		`hub.registeredSecrets[1]: secret hub (cluster hub) is registered already as hub`,
		`hub.registeredSecrets[2]: secret spoke3's config is not a spoke's`,
		`hub.registeredSecrets[3]: secret spoke4 is in namespace "apps", not Argo CD's (argocd)`,
		`hub.registeredSecrets[5]: secret spoke1 (cluster spoke1) is registered already as spoke1`,
		`hub.registeredSecrets[6]: secret argocd-secret is named as one of Argo CD's own Secrets`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestGuardPastTheObjectLimit: a hub whose registrations would make the cluster-secret guard larger than an object
// the API server stores fails at preview, naming the field and the way out, instead of failing its `up` at the API
// server with the old guard left to refuse every new spoke.
func TestGuardPastTheObjectLimit(t *testing.T) {
	notes := strings.Repeat("n", 8000)
	args := hubArgs()
	for i := range 200 {
		s, err := ParseClusterSecret(spokeManifest(fmt.Sprintf("spoke%03d", i), "us-west-2", nil))
		if err != nil {
			t.Fatal(err)
		}
		s.Annotations["notes"] = notes
		args.Hub.RegisteredSecrets = append(args.Hub.RegisteredSecrets, pulumi.String(s.YAML()))
	}
	_, _, err := run("hub", args)
	if err == nil || !strings.Contains(err.Error(), "hub.registeredSecrets: 201 cluster secrets make the hub's cluster-secret guard") ||
		!strings.Contains(err.Error(), "a hub per shard") {
		t.Errorf("200 spokes of 8 kB: %v", err)
	}
	args.Hub.RegisteredSecrets = args.Hub.RegisteredSecrets[:20]
	if _, _, err := run("hub", args); err != nil {
		t.Errorf("20 spokes of 8 kB: %v", err)
	}
}
