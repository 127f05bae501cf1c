package gitopsbridge

import (
	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// GitOpsBridgeArgs are the inputs of a GitOpsBridge. Exactly one of Hub and Spoke is set: Hub installs Argo
// CD on the cluster and registers it as in-cluster; Spoke registers the cluster into a hub's Argo CD.
type GitOpsBridgeArgs struct {
	// Cluster are the facts of the cluster to register. FleetCluster's clusterInfo output fits as it is;
	// for another cluster give a clusterinfo.ClusterInfoArgs. Required.
	Cluster clusterinfo.ClusterInfoInput `pulumi:"cluster"`
	// Addons are GitOps Bridge add-on names -> enabled, merged over cluster.addons; each becomes the label
	// enable_<addon>: "true"|"false". "enable_<addon>" must be a Kubernetes qualified name.
	// Default: none (cluster.addons as they are).
	Addons map[string]bool `pulumi:"addons,optional"`
	// Metadata are extra annotations of the cluster secret, merged over cluster.gitopsMetadata and the
	// repository annotations. Keys are Kubernetes qualified names; all annotations together are at most 256 KiB.
	// Default: none.
	Metadata map[string]string `pulumi:"metadata,optional"`
	// Namespace is where Argo CD runs on the hub and where the cluster secret is written: a DNS-1123 label (a
	// Kubernetes namespace name). Default: "argocd".
	Namespace string `pulumi:"namespace,optional"`
	// SecretName is the name of the cluster secret, a DNS-1123 subdomain (at most 253 characters).
	// Default: the component's resource name.
	SecretName string `pulumi:"secretName,optional"`
	// AddonsRepo is the Git repository of the add-on ApplicationSets. Its coordinates are written into the
	// secret as addons_repo_url, addons_repo_basepath, addons_repo_path and addons_repo_revision; on a hub an
	// ApplicationSet bootstraps it.
	// Default: none (no addons_repo_* annotations; on a hub, project default permits nothing).
	AddonsRepo *Repo `pulumi:"addonsRepo,optional"`
	// WorkloadsRepo is the Git repository of the workload ApplicationSets, written as workload_repo_* like AddonsRepo.
	// Default: none (no workload_repo_* annotations).
	WorkloadsRepo *Repo `pulumi:"workloadsRepo,optional"`
	// Hub installs Argo CD on the cluster (hub mode). Excludes Spoke.
	// Default: none; exactly one of hub and spoke is required.
	Hub *Hub `pulumi:"hub,optional"`
	// Spoke registers the cluster into an existing hub (spoke mode). Excludes Hub.
	// Default: none; exactly one of hub and spoke is required.
	Spoke *Spoke `pulumi:"spoke,optional"`
	// Git commits the cluster secret's manifest to a GitHub repository as well.
	// Default: none (the secret is written into the hub directly).
	Git *GitDelivery `pulumi:"git,optional"`
	// Decommission labels the cluster secret fleet_decommission: "true" (DecommissionLabel): workload
	// ApplicationSets that exclude it (a selector requirement fleet_decommission NotIn ["true"]) drop the
	// cluster's Applications, and Argo CD deletes its workloads, while the add-on ApplicationSets keep the
	// add-ons. Default: false.
	Decommission bool `pulumi:"decommission,optional"`
	// Wave is the cluster's rollout wave, written on the cluster secret as the label fleet_wave (WaveLabel): a
	// change reaches lower waves first. A hub's is 0, on its own; a spoke's 1 or more. Default: 0 in hub mode; in
	// spoke mode from cluster.environment: 1 for dev*, sandbox*; 2 for test*, qa*, stag*, uat*, preprod*; 3 for
	// prod* and every other name (DefaultWave).
	Wave *int `pulumi:"wave,optional"`
	// Shard is the hub's application controller replica that manages this cluster (0 to
	// hub.controllerSharding.replicas - 1), written as the cluster secret's shard: Argo CD's controller then places
	// the cluster there rather than by its sharding algorithm (Argo CD's "High Availability" docs). Fleet sets it
	// (ShardOf) when it shards its hub's controller. Default: none (the algorithm places the cluster).
	Shard *int `pulumi:"shard,optional"`
	// Handover, with git, keeps writing the cluster secret into the hub for this run, as direct delivery did,
	// marked retain-on-delete: the next run stops managing it without deleting it, and the hub's registry
	// Application, which brings the same secret from Git, takes it over. Between the two runs the cluster is
	// never unregistered, so Argo CD deletes none of its Applications (and, with the resources finalizer, none
	// of its add-ons). Fleet sets it for the clusters whose last run delivered directly. Default: false.
	Handover bool `pulumi:"handover,optional"`
}

// Hub are the settings of hub mode: the Argo CD Helm release, its management IAM role and the bootstrap.
type Hub struct {
	// Mode is how Argo CD runs on the hub: "selfManaged" installs the argo-cd Helm chart on the hub's nodes, with a
	// management role the spokes' roles trust; "managed" has EKS run Argo CD as a capability (ArgoCDCapability,
	// set by capability), with no Helm release, no management role and no Argo CD pods on the hub, and registers
	// every cluster, the hub too, by its EKS cluster ARN (EKS User Guide, "Register target clusters": the managed
	// Argo CD does not take kubernetes.default.svc). A spoke of a managed hub registers with spoke.hubMode managed;
	// its FleetCluster gives the capability's role an access entry (gitopsAccess.capabilityRoleArn, the
	// managementRoleArn output). The chart's settings (releaseName, chartVersion, chartRepository, values,
	// highAvailability, serverClusterAccess, spokeAccountIds) apply to selfManaged only. Default: "selfManaged".
	Mode string `pulumi:"mode,optional"`
	// Capability configures the managed Argo CD: required with mode managed, refused otherwise. Default: none.
	Capability *ManagedArgoCD `pulumi:"capability,optional"`
	// ReleaseName is the Helm release name: a DNS-1123 subdomain of at most 53 characters (Helm). Default: "argo-cd".
	ReleaseName string `pulumi:"releaseName,optional"`
	// ChartVersion is the argo-cd chart version. Default: DefaultChartVersion.
	ChartVersion string `pulumi:"chartVersion,optional"`
	// ChartRepository is the Helm repository of the chart. Default: DefaultChartRepository (Argo Helm).
	ChartRepository string `pulumi:"chartRepository,optional"`
	// Values are Helm values merged over the component's (user values win, maps merged key by key). Default: none.
	Values map[string]any `pulumi:"values,optional"`
	// HighAvailability adds the chart's high-availability values (redis-ha, two replicas of the server,
	// repo server and ApplicationSet controller). Default: false.
	HighAvailability bool `pulumi:"highAvailability,optional"`
	// ControllerSharding shards the application controller over replicas (ControllerSharding; ControllerValues are
	// the chart values it sets). Self-managed hubs only. Default: none (one replica, the chart's resources); Fleet
	// sets it when its hub is past a replica's budget.
	ControllerSharding *ControllerSharding `pulumi:"controllerSharding,optional"`
	// ServerClusterAccess gives Argo CD's server (argocd-server) the management role too (an EKS Pod Identity
	// association), so that its API and UI reach the spokes: live manifests, pod logs, resource actions and
	// terminals of the spokes' Applications. Without it only the application and ApplicationSet controllers hold
	// the role, and the UI shows what the controller reports (sync and health status, the resource tree). Argo CD's
	// docs count a server that can reach the clusters as admin-level: whoever takes over its pod or its API
	// session reaches every spoke. Default: false.
	ServerClusterAccess bool `pulumi:"serverClusterAccess,optional"`
	// SpokeAccountIds are the AWS accounts (12 digits) whose spoke roles the management role may assume
	// (aws:ResourceAccount). Default: the hub's own account. List every account of a cross-account fleet.
	SpokeAccountIds []string `pulumi:"spokeAccountIds,optional"`
	// RegistryEnvironments are the environments whose cluster secrets the hub takes from the registry
	// repository with Git delivery: one Application per environment syncs clusters/<environment>/ of
	// git.repository at git.branch. Default: the hub's own environment. Ignored without git. DNS-1123 labels.
	RegistryEnvironments []string `pulumi:"registryEnvironments,optional"`
	// FleetClusters are the names of the clusters (their cluster secrets' name, each a DNS-1123 subdomain, as
	// Kubernetes names objects) the add-ons' and workloads' Applications may deploy to; the hub's own name is ignored
	// (see AddonsOnHub). A cluster registered in Argo CD but not named here gets nothing from those repositories.
	// Default: none; Fleet names every cluster of the fleet and of its shards.
	FleetClusters []string `pulumi:"fleetClusters,optional"`
	// RegisteredSecrets are the manifests of the spokes' cluster secrets, each exactly as the spoke's GitOpsBridge
	// writes it (its manifest output: a v1 Secret labelled argocd.argoproj.io/secret-type: cluster whose
	// stringData holds name, server and config). With the hub's own, these are the only cluster secrets anyone but
	// the deployer may write in Argo CD's namespace (a Git sync of the registry repository, Argo CD's server, a
	// stage): the hub's admission guard pins each one's name, data, labels and annotations, and refuses a deletion
	// of one while it is listed. A spoke's config must be awsAuthConfig with a spoke role under
	// clusterinfo.SpokeRolePath; names are unique. Default: none (no spoke but the deployer's). Fleet lists every
	// spoke of the fleet and of its shards.
	RegisteredSecrets []pulumi.StringInput `pulumi:"registeredSecrets,optional"`
	// SecretWriters are Kubernetes usernames (system:serviceaccount:<namespace>:<name>, or an EKS username) that
	// may write and delete Secrets other than cluster secrets in Argo CD's namespace, besides the deployer (the
	// stack's AWS caller as EKS names it) and the chart's own writers (Argo CD's server: argocd-secret and the
	// credentials added through its API; the redis-secret-init Job: argocd-redis). For example External Secrets'
	// controller when it keeps repository credentials there, or the hub's Kubernetes identity when the hub's
	// provider is not the stack's AWS caller. Default: none.
	SecretWriters []string `pulumi:"secretWriters,optional"`
	// AddonsOnHub lets the Applications of the add-ons repository install onto the hub itself (every namespace but
	// Argo CD's): needed when the hub enables add-ons of its own that StackAddons does not install. Add-on charts
	// carry cluster roles and bindings, so the add-ons repository is then admin of the hub, Argo CD included (it can
	// bind a role that reads Argo CD's secrets); without it the add-ons reach only the spokes, and an Application of
	// theirs naming the hub is refused by Argo CD. Fleet sets it when the hub's cluster enables an add-on that
	// stackAddons does not list. Default: false.
	AddonsOnHub bool `pulumi:"addonsOnHub,optional"`
	// StackAddons are add-ons the hub's stack installs on the hub itself, instead of the add-ons repository: each
	// as the GitOps Bridge control-plane template's ApplicationSet makes Argo CD install it (its chart, repository,
	// version, release name and namespace, with the values it writes from the cluster secret's annotations, the
	// add-on's IAM role included), without the add-ons repository's value files: the chart rendered and each
	// object applied server-side (a Helm v4 Chart of the Kubernetes provider), as Argo CD renders and applies it,
	// with no Helm release. The hub's cluster secret labels them enable_<addon>: "false" (and the add-ons each
	// implies: aws_ebs_csi_driver's aws_ebs_csi_resources), so no ApplicationSet selects the hub for them, and they
	// need no addonsOnHub: Argo CD's application controller keeps its narrowed role, and a commit to the add-ons
	// repository changes nothing on the hub. Each is one of aws_ebs_csi_driver (its storage classes, gp2 and the
	// default gp3, from the template's aws-ebs-csi-classes chart: the driver itself is the EKS managed add-on),
	// aws_for_fluentbit, aws_load_balancer_controller, metrics_server (addons.HubAddons); the hub's cluster must
	// enable it (its IAM role and annotations). Moving an add-on that Argo CD installed on
	// the hub to the stack takes over its objects, which the template's ApplicationSets keep
	// (preserveResourcesOnDeletion); a field whose value differs from Argo CD's (values from the repository's value
	// files) fails the apply with the field named. Default: none.
	StackAddons []string `pulumi:"stackAddons,optional"`
	// ControllerClusterAdmin keeps Argo CD's application controller cluster admin of the hub: the argo-cd chart's
	// cluster role, every verb on every kind. Without it (and without AddonsOnHub, which implies it) the controller
	// reads every kind of the hub but writes only what the fleet's paths from Git write there: the registry's
	// cluster secrets in Argo CD's namespace (Roles gitops-fleet-argocd-sync), the repositories' ApplicationSets in
	// their namespaces, StackDelivery's Stacks in its stages' namespaces, and Applications' status; it cannot
	// write an admission policy, RBAC, a pod or a token, so a sync cannot lift the fleet's guards (the API server
	// applies no admission policy to admission policies: only RBAC keeps them). Set it when Applications of yours
	// (hub.bootstrap, a project of yours) deploy onto the hub. Fleet sets it when a tenant selects the hub.
	// Default: false.
	ControllerClusterAdmin bool `pulumi:"controllerClusterAdmin,optional"`
	// ReservedNamespaces are namespaces of the spokes the workloads repository may not deploy into, besides those
	// it never may (WorkloadsReservedNamespaces: kube-*, Argo CD's, every add-on's): the tenants' (Fleet lists
	// every tenant's namespaces), or any other team's. Names or Argo CD globs ("team-*"). Default: none.
	ReservedNamespaces []string `pulumi:"reservedNamespaces,optional"`
	// ChartRepositories are the Helm chart repositories the add-ons and workloads projects may read besides
	// their Git repository (Argo CD globs after a named host, OCI ones as host/namespace; "*" or a glob in the
	// host is refused). Default: DefaultChartRepositories, the repositories of the GitOps Bridge control-plane
	// template's add-ons; an empty list counts as unset (a Go program that passes a config-decoded struct sends every
	// unset list as an empty one, and without chart repositories no add-on syncs).
	ChartRepositories []string `pulumi:"chartRepositories,optional"`
	// SignatureKeys are GPG key IDs (16 hex digits, imported into Argo CD's GnuPG keyring) whose signed commits
	// alone the hub's projects sync (Argo CD's signature verification). Default: none (no verification).
	SignatureKeys []string `pulumi:"signatureKeys,optional"`
	// Bootstrap are more Argo CD objects to create after the chart: each an Application or ApplicationSet
	// (apiVersion argoproj.io/v1alpha1) with metadata.name; the namespace defaults to Namespace. Default: none.
	Bootstrap []map[string]any `pulumi:"bootstrap,optional"`
}

// Spoke are the settings of spoke mode.
type Spoke struct {
	// HubKubeconfig reaches the hub cluster where the secret is written (a secret). Required unless a
	// kubernetes provider for the hub is given in the resource options, or git delivers the secret (without
	// handover): the hub's registry Application then brings it from Git and nothing is written into the hub.
	// Default: none.
	HubKubeconfig pulumi.StringInput `pulumi:"hubKubeconfig,optional" provider:"secret"`
	// RoleArn is the IAM role Argo CD assumes to manage the spoke. Ignored with hubMode managed.
	// Default: cluster.spokeRoleArn.
	RoleArn pulumi.StringInput `pulumi:"roleArn,optional"`
	// HubMode is the hub's hub.mode: with "managed" the secret names the cluster by its EKS cluster ARN and carries
	// no role (the managed Argo CD reaches the cluster as the capability's role, through the access entry FleetCluster's
	// gitopsAccess.capabilityRoleArn makes). Default: "selfManaged".
	HubMode string `pulumi:"hubMode,optional"`
}

// ManagedArgoCD are the settings of the managed Argo CD (hub.mode managed): the EKS capability's, as
// ArgoCDCapability takes them, in GitOpsBridge's namespace. Its IAM role (under HubRolePath) trusts the EKS
// capabilities service and holds no permission: the capability reads Git over HTTPS or SSH without one (EKS User
// Guide, "Capability IAM role").
type ManagedArgoCD struct {
	// CapabilityName names the capability on the hub cluster: 1 to 100 letters, digits, hyphens and underscores.
	// Changing it replaces the capability. Default: "argocd".
	CapabilityName string `pulumi:"capabilityName,optional"`
	// IdentityCenter is the IAM Identity Center instance Argo CD's users sign in with. Changing it replaces the
	// capability. Required.
	IdentityCenter capability.CapabilityIdentityCenter `pulumi:"awsIdc"`
	// EndpointPrefix is the first label of the Argo CD server's host name. Changing it replaces the capability.
	// Default: one AWS chooses.
	EndpointPrefix string `pulumi:"endpointPrefix,optional"`
	// NetworkAccess limits the Argo CD server to VPC endpoints. Default: none (the server is public).
	NetworkAccess *capability.CapabilityNetworkAccess `pulumi:"networkAccess,optional"`
	// RbacRoleMappings give Identity Center users and groups an Argo CD role (ADMIN, EDITOR, VIEWER).
	// Default: none (no one signs in).
	RbacRoleMappings []capability.CapabilityRoleMapping `pulumi:"rbacRoleMappings,optional"`
	// Tags are the capability's and its role's AWS tags. Default: none.
	Tags map[string]string `pulumi:"tags,optional"`
	// AccessPolicyArn is the EKS access policy the component associates, cluster-wide, with the access entry EKS
	// makes for the capability's role on the hub: arn:<partition>:eks::aws:cluster-access-policy/<name>. That entry
	// comes with EKS's two Argo CD policies, which let Argo CD run but grant "no Kubernetes RBAC permissions" for
	// what its Applications deploy to the hub itself (EKS User Guide, "Register target clusters", Access Entry RBAC
	// requirements). The fleet's Applications deploy to the hub: the bootstrap ApplicationSets and the registry's
	// Applications (Argo CD's own kinds, in Argo CD's namespaces) and the hub's add-ons (CRDs, cluster roles,
	// webhooks), and Argo CD reads every resource type cluster-wide for its cache; the guide names cluster admin for
	// creating CRDs. A narrower policy suits only a hub whose Applications deploy no cluster-scoped objects: then
	// give the entry's group (eks-access-entry:<role ARN>) the guide's cluster-wide read ClusterRole yourself.
	// Updated by replacing the association. Default: AmazonEKSClusterAdminPolicy, as FleetCluster gives the
	// capability's role on each spoke (gitopsAccess.accessPolicyArn).
	AccessPolicyArn string `pulumi:"accessPolicyArn,optional"`
}

// GitDelivery commits the cluster secret's manifest to GitHub. The token comes from the github provider's
// configuration (`github:token`, a secret, or GITHUB_TOKEN) or from a github provider in the resource options.
type GitDelivery struct {
	// Owner is the GitHub user or organization. Required.
	Owner string `pulumi:"owner"`
	// Repository is the repository name (without owner). Required.
	Repository string `pulumi:"repository"`
	// Branch is the branch the manifest lands on (the pull request's base). Default: "main".
	Branch string `pulumi:"branch,optional"`
	// Path is the file's path in the repository, relative, ending in .yaml or .yml.
	// Default: clusters/<environment>/<cluster name>.yaml.
	Path string `pulumi:"path,optional"`
	// CommitMessage is the commit message. Default: "Register cluster <cluster name> (<environment>)".
	CommitMessage string `pulumi:"commitMessage,optional"`
	// PullRequest commits to a new branch and opens a pull request into Branch instead of writing to Branch.
	// Default: false.
	PullRequest bool `pulumi:"pullRequest,optional"`
	// PullRequestBranch is the branch of the pull request. Default: "gitops-fleet/<secret name>".
	PullRequestBranch string `pulumi:"pullRequestBranch,optional"`
	// BranchProtection protects Branch on GitHub (github.BranchProtection): changes land only through reviewed
	// pull requests. Default: none (the branch is left as it is).
	BranchProtection *BranchProtection `pulumi:"branchProtection,optional"`
}
