package tenant

import (
	"fmt"
	"path"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// TenantArgs are the inputs of a standalone fleet:index:Tenant: one tenant onboarded onto clusters built outside a
// Fleet (FleetClusters registered through GitOpsBridges, or EKS clusters of your own that a hub's Argo CD manages).
// A Fleet takes its tenants in its own tenants input instead.
type TenantArgs struct {
	// Tenant is the tenant, in the shape of a Fleet's tenants entries. Its clusters selector picks among Clusters
	// (by name, or by environment among those that are not the hub); default every one that is not the hub.
	Tenant TenantSpec `pulumi:"tenant"`
	// Clusters are the clusters the tenant may be onboarded onto, each under the name the hub's Argo CD knows it
	// by. At least one; names unique.
	Clusters []TenantCluster `pulumi:"clusters"`
	// HubKubeconfig reaches the hub running Argo CD, where the tenant's projects and ApplicationSets go (a
	// secret; GitOpsBridge's or FleetCluster's kubeconfig of the hub). Required.
	HubKubeconfig pulumi.StringInput `pulumi:"hubKubeconfig" provider:"secret"`
	// ArgocdNamespace is Argo CD's namespace on the hub. Default: "argocd".
	ArgocdNamespace string `pulumi:"argocdNamespace,optional"`
	// Git delivers the tenant's in-cluster objects through Git the GitOps Bridge way: a file per cluster in
	// tenants/<name>/ of this repository (path and commitMessage are not used; with pullRequest, one pull request
	// from pullRequestBranch, default gitops-fleet/tenant-<name>), synced by the tenant's platform ApplicationSet
	// on the hub. The github provider is the stack's (github:token or GITHUB_TOKEN). Default: none (the objects
	// are written through each cluster's kubeconfig).
	Git *gitopsbridge.GitDelivery `pulumi:"git,optional"`
}

// TenantCluster is a cluster a standalone Tenant may be onboarded onto.
type TenantCluster struct {
	// Name is the EKS cluster's name, which the hub's Argo CD cluster secret carries (its name and cluster_name
	// label): 1-100 letters, digits, '-' and '_'. Required.
	Name string `pulumi:"name"`
	// Environment is the cluster's GitOps Bridge environment, which the tenant's selector may pick.
	// Default: none (no environment selector picks it).
	Environment string `pulumi:"environment,optional"`
	// Hub marks the hub: picked only when the selector names it. Default: false.
	Hub bool `pulumi:"hub,optional"`
	// Region is the cluster's AWS region, where its roles, access entries and Pod Identity associations go.
	// Required.
	Region string `pulumi:"region"`
	// AssumeRoleArn is the role the aws provider assumes to reach the cluster's account. Default: none (the
	// ambient credentials).
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
	// Cluster are the cluster's facts: FleetCluster's clusterInfo output fits as it is (its server, CA, account
	// and kubeconfig are read). Required.
	Cluster clusterinfo.ClusterInfoInput `pulumi:"cluster"`
	// OidcProviderArn is the ARN of the cluster's IAM OIDC provider (FleetCluster's oidcProviderArn), which the
	// IRSA roles trust: the SecretStores' with externalSecrets, and every workload identity with identity irsa.
	// Required for those. Default: none.
	OidcProviderArn pulumi.StringInput `pulumi:"oidcProviderArn,optional"`
	// OidcProviderUrl is that provider's issuer URL (FleetCluster's oidcProviderUrl), with or without https://.
	// Required with oidcProviderArn. Default: none.
	OidcProviderUrl pulumi.StringInput `pulumi:"oidcProviderUrl,optional"`
	// Identity is how the cluster binds IAM roles to service accounts: "podIdentity" (EKS Pod Identity: its
	// agent runs) or "irsa". Default: "podIdentity".
	Identity string `pulumi:"identity,optional"`
	// ExternalSecrets tells that the cluster runs the external_secrets add-on: each namespace then gets a
	// SecretStore. Default: false.
	ExternalSecrets bool `pulumi:"externalSecrets,optional"`
	// Velero tells that the cluster runs the velero add-on, whose chart binds its server's service account
	// (velero/velero-server) to cluster-admin in the ClusterRoleBinding velero-server: the tenant's role-bindings
	// policy then admits that one binding to cluster-admin. Without it the policy refuses it, as every binding to a
	// role that can lift the tenant's admission guards. Default: false.
	Velero bool `pulumi:"velero,optional"`
}

// selectable is what the tenant's selector reads of c.
func (c TenantCluster) selectable() Cluster {
	return Cluster{Name: c.Name, Environment: c.Environment, Hub: c.Hub}
}

// Validate reports every problem of a standalone Tenant's inputs (with their defaults) at its path: the tenant's
// own (Check, at tenant), its clusters' names, regions and identities, a selector that picks none of them, the Git
// target, a missing hub kubeconfig, and OIDC providers missing where IRSA needs them.
func Validate(a TenantArgs) error {
	var ps problems.List
	t := WithDefaults(a.Tenant)
	Check(&ps, "tenant", t)
	if len(a.Clusters) == 0 {
		ps.Add("clusters", "list at least one cluster")
	}
	seen := map[string]int{}
	var clusters []Cluster
	for i, c := range a.Clusters {
		field := problems.Index("clusters", i)
		fleetcluster.CheckClusterName(&ps, field+".name", c.Name)
		if j, dup := seen[c.Name]; dup {
			ps.Add(field+".name", "%q is also the name of clusters[%d]", c.Name, j)
		}
		seen[c.Name] = i
		if c.Region == "" {
			ps.Add(field+".region", "required: the cluster's AWS region, for example us-east-1")
		}
		if c.Identity != "" && c.Identity != fleetcluster.IdentityPodIdentity && c.Identity != fleetcluster.IdentityIRSA {
			ps.Add(field+".identity", "%q: want podIdentity or irsa", c.Identity)
		}
		if c.Cluster == nil {
			ps.Add(field+".cluster", "required: the cluster's facts (FleetCluster's clusterInfo output)")
		}
		clusters = append(clusters, c.selectable())
	}
	checkSelector(&ps, "tenant", t, clusters)
	for i, c := range a.Clusters {
		irsa := c.ExternalSecrets || (c.Identity == fleetcluster.IdentityIRSA && hasIdentities(t))
		if irsa && t.Selects(c.selectable()) &&
			(c.OidcProviderArn == nil || c.OidcProviderUrl == nil) {
			ps.Add(problems.Index("clusters", i), "oidcProviderArn and oidcProviderUrl are required: the cluster's IRSA roles trust its OIDC provider")
		}
	}
	if a.HubKubeconfig == nil {
		ps.Add("hubKubeconfig", "required: the kubeconfig of the hub running Argo CD")
	}
	if a.Git != nil {
		GitTarget(*a.Git, t.Name).Validate(&ps, "git")
	}
	return ps.Err(TypeToken)
}

// hasIdentities tells whether a service account of t has policies (an IAM role).
func hasIdentities(t TenantSpec) bool {
	for _, n := range t.Namespaces {
		for _, sa := range n.ServiceAccounts {
			if len(sa.ManagedPolicyArns) > 0 || sa.Policy != "" {
				return true
			}
		}
	}
	return false
}

// GitTarget is where a tenant's files are committed: g's repository and branch (default main), with pullRequest
// from g's pullRequestBranch or gitops-fleet/tenant-<name>.
func GitTarget(g gitopsbridge.GitDelivery, tenant string) gitopsbridge.GitHubTarget {
	t := g.Target()
	if t.Branch == "" {
		t.Branch = gitopsbridge.DefaultGitBranch
	}
	if t.PullRequest && t.PullRequestBranch == "" {
		t.PullRequestBranch = "gitops-fleet/" + ProjectName(tenant)
	}
	return t
}

// NewTenant onboards one tenant onto the clusters it selects among args.Clusters (fleet:index:Tenant): everything a
// Fleet's tenant gets (see Deploy), through providers of its own made from the inputs: the hub's Kubernetes
// provider (<name>-hub), per selected cluster an aws provider (<name>-<cluster>-aws) and a Kubernetes provider
// (<name>-<cluster>-k8s: the tenant's admission policies, and with direct delivery its objects), and with git a
// github provider; and the owners' EKS access entries,
// which a Fleet merges into its clusters instead. Invalid inputs fail before anything is registered (Validate).
func NewTenant(ctx *pulumi.Context, name string, args TenantArgs, opts ...pulumi.ResourceOption) (*Tenant, error) {
	if err := Validate(args); err != nil {
		return nil, err
	}
	t := WithDefaults(args.Tenant)
	comp := &Tenant{}
	if err := ctx.RegisterComponentResource(TypeToken, name, comp, opts...); err != nil {
		return nil, err
	}
	parent := pulumi.Parent(comp)
	hub, err := clusterinfo.NewKubernetesProvider(ctx, name+"-hub", args.HubKubeconfig, parent)
	if err != nil {
		return nil, err
	}
	d := Deployment{Tenant: t, Hub: hub, ArgocdNamespace: args.ArgocdNamespace, AccessEntries: true}
	if d.ArgocdNamespace == "" {
		d.ArgocdNamespace = gitopsbridge.DefaultNamespace
	}
	if args.Git != nil {
		target := GitTarget(*args.Git, t.Name)
		gh, err := gitopsbridge.NewGitHubProvider(ctx, name+"-github", target.Owner, parent)
		if err != nil {
			return nil, err
		}
		d.Git, d.GitHub = &target, gh
	}
	for _, c := range args.Clusters {
		if !t.Selects(c.selectable()) {
			continue
		}
		info := c.Cluster.ToClusterInfoOutput()
		awsArgs := &aws.ProviderArgs{Region: pulumi.String(c.Region)}
		if c.AssumeRoleArn != "" {
			awsArgs.AssumeRole = &aws.ProviderAssumeRoleArgs{RoleArn: pulumi.String(c.AssumeRoleArn),
				SessionName: pulumi.String("gitops-fleet")}
		}
		awsProv, err := aws.NewProvider(ctx, name+"-"+c.Name+"-aws", awsArgs, parent)
		if err != nil {
			return nil, err
		}
		fact := func(f func(clusterinfo.ClusterInfo) string) pulumi.StringOutput {
			return info.ApplyT(f).(pulumi.StringOutput)
		}
		account := fact(func(i clusterinfo.ClusterInfo) string { return i.AccountId })
		target := Target{Name: c.Name, Region: c.Region, AssumeRoleArn: c.AssumeRoleArn, AccountId: account,
			Endpoint:                 fact(func(i clusterinfo.ClusterInfo) string { return i.Server }),
			CertificateAuthorityData: fact(func(i clusterinfo.ClusterInfo) string { return i.CertificateAuthorityData }),
			ClusterArn: account.ApplyT(func(account string) string {
				return awsnames.ClusterARN(c.Region, account, c.Name)
			}).(pulumi.StringOutput),
			OidcProviderArn: c.OidcProviderArn, OidcProviderUrl: c.OidcProviderUrl, AWS: awsProv,
			ExternalSecrets: c.ExternalSecrets, PodIdentity: c.Identity != fleetcluster.IdentityIRSA, Velero: c.Velero}
		target.Kubernetes, err = clusterinfo.NewKubernetesProvider(ctx, name+"-"+c.Name+"-k8s",
			fact(func(i clusterinfo.ClusterInfo) string { return i.Kubeconfig }), parent)
		if err != nil {
			return nil, err
		}
		d.Targets = append(d.Targets, target)
	}
	return comp, build(ctx, comp, d)
}

// accessEntries registers on target c the EKS access entries of t's owners (AccessEntries: one per principal, its
// policies scoped to t's namespaces), each with its access policy associations.
func accessEntries(ctx *pulumi.Context, parent pulumi.Resource, t TenantSpec, c Target) ([]pulumi.Resource, error) {
	opts := []pulumi.ResourceOption{pulumi.Parent(parent), pulumi.Provider(c.AWS)}
	var out []pulumi.Resource
	for _, e := range AccessEntries([]TenantSpec{t}, Cluster{Name: c.Name}, awsnames.PartitionOf(c.Region)) {
		name := fmt.Sprintf("%s-%s-%s", t.Name, c.Name, e.Name)
		entry, err := awseks.NewAccessEntry(ctx, name, &awseks.AccessEntryArgs{ClusterName: pulumi.String(c.Name),
			PrincipalArn: e.PrincipalArn, Type: pulumi.String("STANDARD")}, opts...)
		if err != nil {
			return nil, err
		}
		out = append(out, entry)
		for _, p := range e.AccessPolicies {
			assoc, err := awseks.NewAccessPolicyAssociation(ctx, name+"-"+path.Base(p.PolicyArn),
				&awseks.AccessPolicyAssociationArgs{ClusterName: pulumi.String(c.Name), PrincipalArn: entry.PrincipalArn,
					PolicyArn: pulumi.String(p.PolicyArn), AccessScope: awseks.AccessPolicyAssociationAccessScopeArgs{
						Type: pulumi.String("namespace"), Namespaces: pulumi.ToStringArray(p.Namespaces)}}, opts...)
			if err != nil {
				return nil, err
			}
			out = append(out, assoc)
		}
	}
	return out, nil
}
