package e2e

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// TestArgoCDCapability is a program of the Go SDK with an EKS cluster, a role trusting the capabilities service and
// an ArgoCDCapability on it, through the engine and the fleet plugin, against the offline EKS Capabilities API:
// the up waits until EKS reports it ACTIVE and outputs its server URL and version; changing the role mappings and
// tags plans an update in place that EKS applies; changing the namespace plans a replacement that deletes the old
// capability first; a capability EKS cannot start fails the up with its health issue and stays in the state; a
// destroy leaves no capability.
func TestArgoCDCapability(t *testing.T) {
	ctx := context.Background()
	env := offline.ForTestWith(t, offline.Options{})
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
	stack, err := env.Stack(ctx, fleetDir(env), "capability", program)
	if err != nil {
		t.Fatal(err)
	}
	if err := stack.SetConfig(ctx, "aws:region", auto.ConfigValue{Value: "us-east-1"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = stack.Destroy(ctx) })
	up, err := stack.Up(ctx, optup.ProgressStreams(progress(t, env, "up")))
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	if url, _ := up.Outputs["serverUrl"].Value.(string); up.Outputs["status"].Value != "ACTIVE" ||
		up.Outputs["version"].Value != capabilities.Version || !strings.HasSuffix(url, ".eks-capabilities.us-east-1.amazonaws.com") {
		t.Errorf("outputs %v", up.Outputs)
	}
	recorded := func() map[string]any {
		t.Helper()
		rs := records(t, env, "eks", capabilities.Type)
		if len(rs) != 1 {
			t.Fatalf("%d capabilities in the offline EKS, want 1", len(rs))
		}
		plain, err := rs[0].Plain()
		if err != nil {
			t.Fatal(err)
		}
		return plain["capability"].(map[string]any)
	}
	arn := recorded()["arn"]

	settings.group, settings.tags = "sre", map[string]string{"team": "sre", "stage": "prod"}
	if got := planOf(previewSteps(t, env, stack, "preview-mappings")); !cmp.Equal(got, plan{"update": {capability.TypeToken: 1}}) {
		t.Errorf("changing the role mappings and tags plans %v, want one update in place", got)
	}
	upSteps(t, env, stack, "up-mappings")
	c := recorded()
	mapping := c["configuration"].(map[string]any)["argoCd"].(map[string]any)["rbacRoleMappings"].([]any)[0].(map[string]any)
	if c["arn"] != arn || mapping["identities"].([]any)[0].(map[string]any)["id"] != "sre" ||
		!cmp.Equal(c["tags"], map[string]any{"team": "sre", "stage": "prod"}) {
		t.Errorf("after the update EKS has %v", c)
	}

	settings.namespace = "gitops"
	steps := previewSteps(t, env, stack, "preview-namespace")
	if got := planOf(steps); !cmp.Equal(got, plan{"delete-replaced": {capability.TypeToken: 1},
		"replace": {capability.TypeToken: 1}, "create-replacement": {capability.TypeToken: 1}}) {
		t.Errorf("changing the namespace plans %v, want a replacement deleting the old capability first", got)
	}
	upSteps(t, env, stack, "up-namespace")
	if c := recorded(); c["arn"] == arn || c["configuration"].(map[string]any)["argoCd"].(map[string]any)["namespace"] != "gitops" {
		t.Errorf("after the replacement EKS has %v", c)
	}

	if _, err := stack.Destroy(ctx, optdestroy.ProgressStreams(progress(t, env, "destroy"))); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if rs := records(t, env, "eks", capabilities.Type); len(rs) != 0 {
		t.Errorf("%d capabilities outlived the destroy", len(rs))
	}

	// A capability EKS cannot start: the up fails naming its health issue, and the state keeps it.
	env.Capabilities.FailCreate("hub", capabilities.Issue{Code: "AccessDenied", Message: "the role cannot be assumed"})
	out := progress(t, env, "up-failing")
	if _, err := stack.Up(ctx, optup.ProgressStreams(out)); err == nil {
		t.Fatal("the up of a capability EKS could not start succeeded")
	}
	log, _ := os.ReadFile(out.Name())
	if !strings.Contains(string(log), "is CREATE_FAILED: AccessDenied: the role cannot be assumed") {
		t.Errorf("the failed up does not name the health issue:\n%s", offline.Tail(string(log), 20))
	}
	_, state := exported(t, env, stack, false)
	var kept bool
	for _, r := range state.Resources {
		kept = kept || r.Type == capability.TypeToken
	}
	if !kept {
		t.Error("the capability that failed to start is not in the state")
	}
}
