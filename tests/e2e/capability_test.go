package e2e

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestArgoCDCapability is a program of the Go SDK with an EKS cluster, a role trusting the capabilities service and
// an ArgoCDCapability on it, through the engine and the fleet plugin, against the offline EKS Capabilities API:
// the up waits until EKS reports it ACTIVE and outputs its server URL and version; changing the role mappings and
// tags plans an update in place that EKS applies; changing the namespace plans a replacement that deletes the old
// capability first; a capability EKS cannot start fails the up with its health issue and stays in the state; a
// destroy leaves no capability.
func TestArgoCDCapability(t *testing.T) {
	t.Parallel()
	env := fleettest.New(t, fleettest.Options{EmulatedKubernetes: true})
	settings := struct {
		group, namespace string
		tags             map[string]string
	}{"platform", "", map[string]string{"team": "platform"}}
	program := func(ctx *pulumi.Context) error {
		clusterRole, err := iam.NewRole(ctx, "cluster", &iam.RoleArgs{AssumeRolePolicy: pulumi.String(
			`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},"Action":["sts:AssumeRole"]}]}`)})
		if err != nil {
			return err
		}
		hub, err := eks.NewCluster(ctx, "hub", &eks.ClusterArgs{Name: pulumi.String("hub"), RoleArn: clusterRole.Arn,
			VpcConfig: eks.ClusterVpcConfigArgs{SubnetIds: pulumi.ToStringArray([]string{"subnet-1", "subnet-2"})}})
		if err != nil {
			return err
		}
		role, err := iam.NewRole(ctx, "argocd-capability", &iam.RoleArgs{
			AssumeRolePolicy: pulumi.String(capability.TrustPolicy().JSON())})
		if err != nil {
			return err
		}
		argo := fleet.CapabilityArgoCDArgs{
			AwsIdc: fleet.CapabilityIdentityCenterArgs{IdcInstanceArn: pulumi.String("arn:aws:sso:::instance/ssoins-0123456789abcdef")},
			RbacRoleMappings: fleet.CapabilityRoleMappingArray{fleet.CapabilityRoleMappingArgs{Role: pulumi.String("ADMIN"),
				Identities: fleet.CapabilityIdentityArray{fleet.CapabilityIdentityArgs{Id: pulumi.String(settings.group),
					Type: pulumi.String("SSO_GROUP")}}}},
		}
		if settings.namespace != "" {
			argo.Namespace = pulumi.String(settings.namespace)
		}
		c, err := fleet.NewArgoCDCapability(ctx, "hub", &fleet.ArgoCDCapabilityArgs{ClusterName: hub.Name,
			Region: pulumi.String("us-east-1"), RoleArn: role.Arn, ArgoCd: argo, Tags: pulumi.ToStringMap(settings.tags)})
		if err != nil {
			return err
		}
		ctx.Export("serverUrl", c.ServerUrl)
		ctx.Export("status", c.Status)
		ctx.Export("version", c.Version)
		return nil
	}
	stack := env.Stack(env.FleetDir(), "capability", program)
	stack.SetConfig(map[string]string{"aws:region": "us-east-1"})
	up := stack.Up("up")
	if url, _ := up.Outputs["serverUrl"].Value.(string); up.Outputs["status"].Value != "ACTIVE" ||
		up.Outputs["version"].Value != capabilities.Version || !strings.HasSuffix(url, ".eks-capabilities.us-east-1.amazonaws.com") {
		t.Errorf("outputs %v", up.Outputs)
	}
	recorded := func() map[string]any {
		t.Helper()
		rs := env.Cloud().Records("eks", capabilities.Type)
		if len(rs) != 1 {
			t.Fatalf("%d capabilities in the offline EKS, want 1", len(rs))
		}
		return env.Cloud().Plain(rs[0])["capability"].(map[string]any)
	}
	arn := recorded()["arn"]

	settings.group, settings.tags = "sre", map[string]string{"team": "sre", "stage": "prod"}
	// Changing the role mappings and tags: one update in place.
	stack.Plan("preview-mappings", fleettest.Plan{"update": {capability.TypeToken: 1}})
	stack.Up("up-mappings")
	c := recorded()
	mapping := c["configuration"].(map[string]any)["argoCd"].(map[string]any)["rbacRoleMappings"].([]any)[0].(map[string]any)
	if c["arn"] != arn || mapping["identities"].([]any)[0].(map[string]any)["id"] != "sre" ||
		!cmp.Equal(c["tags"], map[string]any{"team": "sre", "stage": "prod"}) {
		t.Errorf("after the update EKS has %v", c)
	}

	settings.namespace = "gitops"
	// Changing the namespace: a replacement that deletes the old capability first.
	stack.Plan("preview-namespace", fleettest.Plan{"delete-replaced": {capability.TypeToken: 1},
		"replace": {capability.TypeToken: 1}, "create-replacement": {capability.TypeToken: 1}})
	stack.Up("up-namespace")
	if c := recorded(); c["arn"] == arn || c["configuration"].(map[string]any)["argoCd"].(map[string]any)["namespace"] != "gitops" {
		t.Errorf("after the replacement EKS has %v", c)
	}

	stack.Destroy("destroy")
	if rs := env.Cloud().Records("eks", capabilities.Type); len(rs) != 0 {
		t.Errorf("%d capabilities outlived the destroy", len(rs))
	}

	// A capability EKS cannot start: the up fails naming its health issue, and the state keeps it.
	env.Cloud().Capabilities().FailCreate("hub", capabilities.Issue{Code: "AccessDenied", Message: "the role cannot be assumed"})
	log, err := stack.TryUp("up-failing")
	if err == nil {
		t.Fatal("the up of a capability EKS could not start succeeded")
	}
	if !strings.Contains(log, "is CREATE_FAILED: AccessDenied: the role cannot be assumed") {
		t.Errorf("the failed up does not name the health issue:\n%s", fleettest.Tail(log, 20))
	}
	_, state := stack.Export(false)
	var kept bool
	for _, r := range state.Resources {
		kept = kept || r.Type == capability.TypeToken
	}
	if !kept {
		t.Error("the capability that failed to start is not in the state")
	}
}
