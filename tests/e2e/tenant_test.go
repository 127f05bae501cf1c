package e2e

import (
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// TestStandaloneTenant is a program on the generated Go SDK that builds its clusters itself (FleetCluster, with
// a GitOpsBridge hub) and onboards a tenant with fleet:index:Tenant, through the engine and the fleet plugin, on
// real control planes: the tenant's namespace lands on the API server of the spoke it selects, with an IRSA role
// on that IRSA spoke, and a second up plans nothing; removing the tenant from the program removes its objects
// from the server.
func TestStandaloneTenant(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	withTenant := true
	program := func(ctx *pulumi.Context) error {
		repo := &fleet.RepoArgs{Url: pulumi.String("https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template"),
			Revision: pulumi.String("e6d355197ff3af8e6be09e1dea068dc12727a915"), Path: pulumi.String("bootstrap/control-plane/addons")}
		hub, err := fleet.NewFleetCluster(ctx, "hub", &fleet.FleetClusterArgs{Region: "us-east-1",
			VpcCidr: pulumi.StringRef("10.10.0.0/16")})
		if err != nil {
			return err
		}
		argocd, err := fleet.NewGitOpsBridge(ctx, "hub", &fleet.GitOpsBridgeArgs{Cluster: hub.ClusterInfo,
			Hub: &fleet.HubArgs{}, AddonsRepo: repo})
		if err != nil {
			return err
		}
		spoke, err := fleet.NewFleetCluster(ctx, "spoke-a", &fleet.FleetClusterArgs{Region: "us-east-2",
			VpcCidr: pulumi.StringRef("10.20.0.0/16"), Identity: pulumi.StringRef("irsa")})
		if err != nil {
			return err
		}
		if !withTenant {
			return nil
		}
		tenant, err := fleet.NewTenant(ctx, "payments", &fleet.TenantArgs{
			Tenant: fleet.TenantSpecArgs{Name: pulumi.String("payments"),
				Owners: fleet.TenantOwnerArray{fleet.TenantOwnerArgs{Arn: pulumi.String("arn:aws:iam::111122223333:role/payments")}},
				Namespaces: fleet.TenantNamespaceArray{fleet.TenantNamespaceArgs{Name: pulumi.String("payments"),
					ServiceAccounts: fleet.TenantServiceAccountArray{fleet.TenantServiceAccountArgs{Name: pulumi.String("ledger"),
						ManagedPolicyArns: pulumi.ToStringArray([]string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"})}}}}},
			Clusters: fleet.TenantClusterArray{
				fleet.TenantClusterArgs{Name: pulumi.String("hub"), Hub: pulumi.Bool(true), Region: pulumi.String("us-east-1"),
					Cluster: hub.ClusterInfo},
				fleet.TenantClusterArgs{Name: pulumi.String("spoke-a"), Region: pulumi.String("us-east-2"), Cluster: spoke.ClusterInfo,
					Identity: pulumi.String("irsa"), OidcProviderArn: spoke.OidcProviderArn, OidcProviderUrl: spoke.OidcProviderUrl},
			},
			HubKubeconfig: hub.Kubeconfig,
		}, pulumi.DependsOn([]pulumi.Resource{argocd}))
		if err != nil {
			return err
		}
		ctx.Export("tenantClusters", tenant.Clusters)
		return nil
	}
	stack := env.Stack(env.FleetDir(), "standalone-tenant", program)
	stack.SetConfig(map[string]string{"aws:region": "us-east-1"})
	up := stack.Up("up")
	if got := up.Outputs["tenantClusters"].Value; len(got.([]any)) != 1 || got.([]any)[0] != "spoke-a" {
		t.Errorf("tenant clusters %v, want spoke-a (the hub is not selected)", got)
	}
	namespace := func() bool { return (env.ClusterIn("us-east-2", "spoke-a").Namespace("payments") != nil) }
	if !namespace() {
		t.Error("the tenant's namespace payments is not on spoke-a's API server")
	}
	if env.ClusterIn("us-east-1", "hub").Namespace("payments") != nil {
		t.Error("the tenant's namespace payments is on the hub, which it does not select")
	}
	var irsa bool
	for _, r := range env.Cloud().Records("aws", "aws:iam/role:Role") {
		if state, err := r.Plain(); err == nil && strings.Contains(fleettest.Name(r.URN), "payments-spoke-a-payments-ledger") {
			irsa = strings.Contains(state["assumeRolePolicy"].(string), "system:serviceaccount:payments:ledger")
		}
	}
	if !irsa {
		t.Error("ledger's role on the irsa spoke does not trust its service account's IRSA token")
	}
	if err := stack.TryPreview("preview", optpreview.ExpectNoChanges()); err != nil {
		t.Errorf("preview --expect-no-changes: %v", err)
	}

	withTenant = false
	stack.Up("up-removed")
	if namespace() {
		t.Error("the tenant's namespace is still on spoke-a's API server after its removal")
	}
}
