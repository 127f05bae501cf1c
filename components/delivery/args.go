package delivery

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// StackDeliveryArgs are the inputs of a StackDelivery.
type StackDeliveryArgs struct {
	// Kubeconfig reaches the hub cluster (a secret): Fleet's hubKubeconfig output fits. Required unless a
	// kubernetes provider is given in the resource options.
	// Default: none (the kubernetes provider of the resource options).
	Kubeconfig pulumi.StringInput `pulumi:"kubeconfig,optional" provider:"secret"`
	// ArgocdNamespace is the namespace Argo CD runs in on the hub: the Applications and the argocd-cm patch go
	// there. A DNS-1123 label (a Kubernetes namespace name). Default: "argocd".
	ArgocdNamespace string `pulumi:"argocdNamespace,optional"`
	// HubName is the hub's own cluster in a managed Argo CD (the EKS capability for Argo CD; Fleet's argocd.mode
	// managed): the name of the hub's cluster secret (with Fleet, the hub cluster's name). The stages' Applications
	// and the delivery's Argo CD project then name the hub by it, since the managed Argo CD names every cluster, the
	// hub too, by its EKS cluster ARN and takes no in-cluster server (EKS User Guide, "Register target clusters").
	// A Kubernetes object name (DNS-1123 subdomain). Default: "" (the in-cluster server
	// https://kubernetes.default.svc, for Argo CD from the Helm chart).
	HubName string `pulumi:"hubName,optional"`
	// Namespace is the prefix of the stages' namespaces: each stage's Stack objects, ServiceAccounts and token
	// Secrets live in a namespace of their own, "<namespace>-<stage>" unless the stage names one, so that code
	// that reached one stage cannot read another's tokens or run as its identity. A DNS-1123 label. Default:
	// "fleet-stacks".
	Namespace string `pulumi:"namespace,optional"`
	// Project is the Kargo Project, which is also the namespace of the Kargo objects: a DNS-1123 label.
	// Default: the resource name.
	Project string `pulumi:"project,optional"`
	// Program is the Git repository of the Pulumi program the Stacks run. Required.
	Program ProgramRepository `pulumi:"program"`
	// Manifests is the GitHub repository the Stack manifests are written to, which Argo CD syncs and Kargo's
	// promotions update. Required.
	Manifests ManifestsRepository `pulumi:"manifests"`
	// Stages are the promotion stages (for example dev, qa, prod): a graph in which each stage takes Freight from
	// the Warehouse or from the stages it names in from. An update stage has one Stack; a gate has none. At least
	// one; at least one stage takes Freight from the Warehouse; no cycle.
	Stages []DeliveryStage `pulumi:"stages"`
	// Backend is the Pulumi backend URL of every Stack (spec.backend), for example "s3://acme-pulumi-state".
	// Default: none (Pulumi Cloud).
	Backend string `pulumi:"backend,optional"`
	// PulumiAccessToken is the backend token (a secret). When set (here or per stage), it is written to a Secret
	// "pulumi-access-token" (key accessToken) in each stage's namespace and the stage's Stacks get the envRef
	// PULUMI_ACCESS_TOKEN of type Secret to it. A stage may reuse it or give its own. Default: none.
	PulumiAccessToken pulumi.StringInput `pulumi:"pulumiAccessToken,optional" provider:"secret"`
	// PreviewAccessToken is the backend token of the preview Stacks (a secret): a read-only one (for Pulumi Cloud,
	// a team token whose team may only read the stacks). A preview Stack runs code no promotion reviewed (the
	// program branch's head, or a commit not yet promoted), so it never receives pulumiAccessToken: when set (here
	// or per stage) it is written to a Secret "pulumi-preview-access-token" (key accessToken) in the stage's
	// namespace and the preview Stacks get PULUMI_ACCESS_TOKEN from it. Required for a stage with preview Stacks
	// when that stage has a pulumiAccessToken. Default: none.
	PreviewAccessToken pulumi.StringInput `pulumi:"previewAccessToken,optional" provider:"secret"`
	// EnvRefs are environment variables of every Stack (spec.envRefs), by name; a stage's own win. Preview Stacks
	// get only the Literal ones (and previewEnvRefs). Default: none.
	EnvRefs map[string]EnvRef `pulumi:"envRefs,optional"`
	// PreviewEnvRefs are environment variables of every preview Stack, by name, over the Literal envRefs: the
	// secrets a preview may read (for example a read-only cloud credential). A stage's own win. Default: none.
	PreviewEnvRefs map[string]EnvRef `pulumi:"previewEnvRefs,optional"`
	// Operator installs the Pulumi Kubernetes Operator. Default: the chart at version "2.9.0".
	Operator *OperatorInstall `pulumi:"operator,optional"`
	// Kargo installs Kargo. Required unless kargo.existing is true: the admin password hash and the token
	// signing key have no default.
	Kargo *KargoInstall `pulumi:"kargo,optional"`
	// Rollouts installs Argo Rollouts when a stage has verification. Default: the chart at version "2.41.1".
	Rollouts *RolloutsInstall `pulumi:"rollouts,optional"`
}

// ProgramRepository is the Git repository of the Pulumi program the Stacks run, which Kargo's Warehouse watches.
type ProgramRepository struct {
	// RepoUrl is the repository's https URL (spec.projectRepo; the Warehouse's repoURL). Required.
	RepoUrl string `pulumi:"repoUrl"`
	// RepoDir is the directory of Pulumi.yaml in the repository (spec.repoDir). Default: the root.
	RepoDir string `pulumi:"repoDir,optional"`
	// Branch is the branch the Warehouse takes new commits from, and the branch preview Stacks follow.
	// Default: "main".
	Branch string `pulumi:"branch,optional"`
	// IncludePaths are the paths whose changes make new Freight (the Warehouse's includePaths). Default:
	// [RepoDir] when set, else every path. The manifests path is always excluded when the program and the
	// manifests share a repository, so a promotion's own commit makes no Freight.
	IncludePaths []string `pulumi:"includePaths,optional"`
	// GitToken is a token PKO clones a private program repository with (a secret): written to a Secret
	// "program-git-token" (key accessToken) in each stage's namespace, which the stage's Stacks'
	// spec.gitAuth.accessToken refers to. Default: none (a public repository).
	GitToken pulumi.StringInput `pulumi:"gitToken,optional" provider:"secret"`
	// Interval is how often the Warehouse looks for new commits, a duration like "5m0s" (Kargo's pattern
	// ^([0-9]+(\.[0-9]+)?(s|m|h))+$). Default: "5m0s".
	Interval string `pulumi:"interval,optional"`
}

// ManifestsRepository is the GitHub repository the Stack manifests live in: <path>/<stage>/stack.yaml (and
// preview-stack.yaml) per stage. The token comes from the github provider's configuration (github:token or
// GITHUB_TOKEN) or a github provider in the resource options.
type ManifestsRepository struct {
	// Owner is the GitHub user or organization. Required.
	Owner string `pulumi:"owner"`
	// Repository is the repository name (without owner). Required.
	Repository string `pulumi:"repository"`
	// Branch is the branch Pulumi writes the stages' Stack templates to, which Kargo renders each promotion from.
	// Pulumi owns it; Kargo never writes it. A Git branch name. Default: "main".
	Branch string `pulumi:"branch,optional"`
	// StageBranchPrefix names each stage's own branch, "<stageBranchPrefix><stage>": Pulumi creates it from Branch
	// (so it starts with the stage's template), Kargo's promotions write it (the template rendered with the
	// promoted commit), and the stage's Application follows it. So Pulumi and Kargo never write the same file, and
	// one stage's promotion does not move another stage's revision. Two StackDeliveries that share a manifests
	// repository need different prefixes. Default: "stage/".
	StageBranchPrefix string `pulumi:"stageBranchPrefix,optional"`
	// Path is the folder of the stage folders, relative, without a trailing slash. Default: "stacks".
	Path string `pulumi:"path,optional"`
	// PullRequest writes the initial manifests on a new branch with a pull request into Branch instead of
	// to Branch: nothing is delivered before the pull request is merged. Default: false.
	PullRequest bool `pulumi:"pullRequest,optional"`
	// PullRequestBranch is the branch of that pull request, only with pullRequest; not Branch. Default:
	// "gitops-fleet/<project>-stacks".
	PullRequestBranch string `pulumi:"pullRequestBranch,optional"`
	// BranchProtection protects Branch and every stage's branch on GitHub: changes land only through reviewed pull
	// requests, so Kargo's token cannot push past a stage's review. Every stage must then promote through a pull
	// request (stages[].pullRequest) and the first manifests must land as one (pullRequest). Default: none.
	BranchProtection *gitopsbridge.BranchProtection `pulumi:"branchProtection,optional"`
	// SignatureKeys are GPG key IDs (16 hex digits, imported into Argo CD's GnuPG keyring) whose signed commits
	// alone the stages' Argo CD project syncs. Default: none (no verification).
	SignatureKeys []string `pulumi:"signatureKeys,optional"`
}

// DeliveryStage is one promotion stage: a Kargo Stage, the pulumi.com/v1 Stack it promotes and the Argo CD Application
// that syncs that Stack.
type DeliveryStage struct {
	// Name is the Kargo Stage's name, a DNS-1123 label (Kargo). Required; unique.
	Name string `pulumi:"name"`
	// Kind is what the stage is: "update" (a Stack that runs pulumi up of the promoted commit, with its
	// Application), "preview" (a Stack with preview: true that runs pulumi preview of the promoted commit against
	// target's stack; target then takes Freight from it, and promotes it on its own by default once it is
	// verified) or "gate" (no Stack and no Application: a Kargo Stage whose promotion is the approval, for its
	// approvers; the stages after it take the Freight it passed). Default: "update".
	Kind string `pulumi:"kind,optional"`
	// Target is the update stage a preview stage previews. Its Stack, "<target's stackName>-preview" by default,
	// runs in the target's namespace, against the target's stack, as the target's preview ServiceAccount (a
	// read-only identity), and takes the target's settings where it sets none. Required for kind preview, and
	// only for it; the target cannot also have preview: true (both would be its preview Stack).
	Target string `pulumi:"target,optional"`
	// From are the stages whose verified Freight this stage promotes (Kargo's requestedFreight sources.stages):
	// two or more make a fan-in, two stages naming the same one a fan-out. Default: the stage before it in
	// stages, none for the first, which takes Freight from the Warehouse.
	From []string `pulumi:"from,optional"`
	// Direct lets the stage take Freight from the Warehouse itself (sources.direct), besides from: a second
	// first stage (two dev stages side by side). Default: true for the first stage when it has no from.
	Direct bool `pulumi:"direct,optional"`
	// AvailabilityStrategy is how Freight from two or more sources becomes available (Kargo's
	// sources.availabilityStrategy): "All" (verified in every upstream stage, for example both approval gates)
	// or "OneOf" (in any). Only with two or more sources. Default: Kargo's, "OneOf".
	AvailabilityStrategy string `pulumi:"availabilityStrategy,optional"`
	// Stack is the Pulumi stack the Stack object deploys (spec.stack), "<org>/<project>/<stack>" for Pulumi
	// Cloud or the stack name for a self-managed backend. Required for an update stage; a gate has none.
	// Default: none (a gate).
	Stack string `pulumi:"stack,optional"`
	// Stacks are the stacks of an update stage that deploys several side by side instead of stack, for example
	// the shard stacks of a fleet beyond one stack: each is a Stack object of its own ("<stackName>-<name>",
	// file stack-<name>.yaml), which PKO runs in a workspace of its own, in parallel, as the stage's
	// ServiceAccount. A promotion moves them all to the Freight's commit, and with verification the stage is
	// verified when every one of them is. At least two; not with stack, preview, or as a preview stage's target.
	// Default: none (the stage's one stack).
	Stacks []StageStack `pulumi:"stacks,optional"`
	// StackName is the Stack object's name: a DNS-1123 subdomain of at most 42 characters (PKO's CRD rule);
	// with preview, "<stackName>-preview" must fit too. Default: "<project>-<name>".
	StackName string `pulumi:"stackName,optional"`
	// Namespace is the stage's namespace on the hub: its Stack objects, ServiceAccounts and token Secrets. A
	// DNS-1123 label, unique among the stages. Default: "<namespace>-<name>".
	Namespace string `pulumi:"namespace,optional"`
	// Commit is the program commit the stage's template pins (spec.commit), a full 40-hex-digit SHA: what the stage
	// runs until its first promotion. Exactly one of commit and branch. Default: none (branch).
	Commit string `pulumi:"commit,optional"`
	// Branch makes the stage's template follow a branch of the program instead (spec.branch). Exactly one of
	// commit and branch. A promotion replaces branch with the promoted commit (PKO refuses a Stack with both).
	// Default: none (commit).
	Branch string `pulumi:"branch,optional"`
	// AutoPromotion lets Kargo promote new Freight into the stage without a person (the ProjectConfig's
	// promotion policy). Default: true for an update stage that takes Freight from the Warehouse only, false for
	// the others: a person promotes into them.
	AutoPromotion *bool `pulumi:"autoPromotion,optional"`
	// Approvers may promote into the stage: a Role granting promote on this Stage, bound to a ServiceAccount
	// that Kargo maps these OIDC claims to. Default: none.
	Approvers *Approvers `pulumi:"approvers,optional"`
	// PullRequest makes a promotion open a pull request into the stage's branch with the rendered Stack and wait
	// for it to be merged (git-open-pr, git-wait-for-pr) instead of pushing to that branch: the gate is a
	// reviewed pull request. Default: false (a promotion pushes to the stage's branch).
	PullRequest bool `pulumi:"pullRequest,optional"`
	// Preview adds a second Stack, "<stackName>-preview", with preview: true (PKO 2.3 or later) that runs
	// pulumi preview of the program branch's head against the same stack, as previewServiceAccountName, never
	// as the stage's deploy identity. Default: false.
	Preview bool `pulumi:"preview,optional"`
	// PreviewServiceAccountName is the preview Stack's ServiceAccount, created in the stage's namespace and bound
	// to system:auth-delegator only: associate a read-only role with it (for AWS, an EKS Pod Identity
	// association to a role that can read the stack's resources). A DNS-1123 label. Default: "<stackName>-preview".
	PreviewServiceAccountName string `pulumi:"previewServiceAccountName,optional"`
	// Config is the stack's configuration inline (spec.config), key -> value. Default: the stack file in the
	// repository.
	Config map[string]string `pulumi:"config,optional"`
	// EnvRefs are environment variables of this Stack, merged over the top-level envRefs. Its preview Stacks get
	// only the Literal ones. Default: none.
	EnvRefs map[string]EnvRef `pulumi:"envRefs,optional"`
	// PreviewEnvRefs are environment variables of this stage's preview Stacks, merged over the top-level
	// previewEnvRefs. Default: none.
	PreviewEnvRefs map[string]EnvRef `pulumi:"previewEnvRefs,optional"`
	// ServiceAccountName is the workspace's ServiceAccount (spec.serviceAccountName), created in namespace and
	// bound to the ClusterRole system:auth-delegator (PKO's minimum) and to clusterRoles. A DNS-1123 label.
	// Default: StackName.
	ServiceAccountName string `pulumi:"serviceAccountName,optional"`
	// ClusterRoles are more ClusterRoles the program needs in the hub, bound to the ServiceAccount.
	// "cluster-admin", "admin" and "edit" (AdminClusterRoles: bound cluster-wide, each owns the hub) only with
	// allowClusterAdmin. Default: none.
	ClusterRoles []string `pulumi:"clusterRoles,optional"`
	// AllowClusterAdmin lets clusterRoles name cluster-admin, admin or edit: the stage's program, and whoever can change what it
	// runs, then owns the hub. Default: false.
	AllowClusterAdmin bool `pulumi:"allowClusterAdmin,optional"`
	// PulumiAccessToken is this stage's backend token (a secret), written to its own Secret
	// "pulumi-access-token" in the stage's namespace. Default: the top-level pulumiAccessToken.
	PulumiAccessToken pulumi.StringInput `pulumi:"pulumiAccessToken,optional" provider:"secret"`
	// PreviewAccessToken is this stage's read-only backend token for its preview Stacks (a secret), written to its
	// own Secret "pulumi-preview-access-token" in the stage's namespace. Default: the top-level previewAccessToken.
	PreviewAccessToken pulumi.StringInput `pulumi:"previewAccessToken,optional" provider:"secret"`
	// ProgramGitToken is this stage's token for a private program repository (a secret), written to its own
	// Secret "program-git-token" in the stage's namespace. Default: program.gitToken.
	ProgramGitToken pulumi.StringInput `pulumi:"programGitToken,optional" provider:"secret"`
	// WorkspaceTemplate is PKO's spec.workspaceTemplate as it is: a strategic merge patch on the stack's
	// Workspace (its image, resources, pod metadata, volumes), for example {"spec": {"image": "pulumi/pulumi:3.259.0"}}.
	// The program's cloud credentials come from the ServiceAccount (for AWS, an EKS Pod Identity association of
	// the stage's ServiceAccount to a deploy role) or from envRefs. Default: none (PKO's Workspace defaults).
	WorkspaceTemplate map[string]any `pulumi:"workspaceTemplate,optional"`
	// Refresh refreshes the stack before each update (spec.refresh). Default: true (PKO recommends it).
	Refresh *bool `pulumi:"refresh,optional"`
	// ResyncFrequencySeconds is how often PKO runs the stack again (spec.resyncFrequencySeconds), in seconds,
	// at least 60 (PKO's minimum). Default: 600.
	ResyncFrequencySeconds int `pulumi:"resyncFrequencySeconds,optional"`
	// ContinueResyncOnCommitMatch runs the stack at every resync even when the commit has not changed
	// (spec.continueResyncOnCommitMatch): scheduled drift detection and correction. Default: true.
	ContinueResyncOnCommitMatch *bool `pulumi:"continueResyncOnCommitMatch,optional"`
	// Verification makes Kargo verify the stage's Freight after each promotion before the stages after it may
	// take it. Default: none (Argo CD's health of the stage's Application only). Not for gates.
	Verification *Verification `pulumi:"verification,optional"`
	// DestroyOnFinalize destroys the stack's resources when the Stack object is deleted (spec.destroyOnFinalize).
	// Default: false: removing a stage from delivery leaves its infrastructure.
	DestroyOnFinalize bool `pulumi:"destroyOnFinalize,optional"`
}

// Approvers are the people who may promote into a stage, by the OIDC claims Kargo maps to a ServiceAccount
// (annotation rbac.kargo.akuity.io/claims). At least one entry.
type Approvers struct {
	// Groups are values of the groups claim. Default: none.
	Groups []string `pulumi:"groups,optional"`
	// Emails are values of the email claim. Default: none.
	Emails []string `pulumi:"emails,optional"`
	// Subjects are values of the sub claim. Default: none.
	Subjects []string `pulumi:"subjects,optional"`
}

// EnvRef is where the value of a Stack's environment variable comes from (PKO's ResourceRef): type Secret
// with secret, or type Literal with literal. PKO's Env and FS types read the operator's own environment and
// files, which a delivered Stack must not depend on; they are refused.
type EnvRef struct {
	// Type is "Secret" or "Literal".
	Type string `pulumi:"type"`
	// Secret is the Secret and key in the Stack's namespace (type Secret). Default: none.
	Secret *EnvSecret `pulumi:"secret,optional"`
	// Literal is the value (type Literal). Default: none.
	Literal *EnvLiteral `pulumi:"literal,optional"`
}

// EnvSecret is a key of a Secret in the Stack's namespace.
type EnvSecret struct {
	// Name is the Secret's name. Required.
	Name string `pulumi:"name"`
	// Key is the key within the Secret. Required.
	Key string `pulumi:"key"`
}

// EnvLiteral is a literal value.
type EnvLiteral struct {
	// Value is the value. Required.
	Value string `pulumi:"value"`
}

// OperatorInstall installs the Pulumi Kubernetes Operator v2 from its OCI Helm chart.
type OperatorInstall struct {
	// Existing says PKO v2 is already installed on the hub: no chart is installed. Default: false.
	Existing bool `pulumi:"existing,optional"`
	// ChartVersion is the chart version (oci://ghcr.io/pulumi/helm-charts/pulumi-kubernetes-operator).
	// Default: "2.9.0". Preview Stacks need 2.3 or later.
	ChartVersion string `pulumi:"chartVersion,optional"`
	// Namespace is the operator's namespace, a DNS-1123 label (a Kubernetes namespace name). Default:
	// "pulumi-kubernetes-operator".
	Namespace string `pulumi:"namespace,optional"`
	// Values are Helm values of the chart. Default: none.
	Values map[string]any `pulumi:"values,optional"`
}

// KargoInstall installs Kargo from its OCI Helm chart, and cert-manager when asked.
type KargoInstall struct {
	// Existing says Kargo is already installed on the hub: no chart is installed, and the admin settings are
	// not needed. Default: false.
	Existing bool `pulumi:"existing,optional"`
	// ChartVersion is the chart version (oci://ghcr.io/akuity/kargo-charts/kargo). Default: "1.11.2".
	ChartVersion string `pulumi:"chartVersion,optional"`
	// Namespace is Kargo's namespace, a DNS-1123 label (a Kubernetes namespace name). Default: "kargo".
	Namespace string `pulumi:"namespace,optional"`
	// AdminPasswordHash is the bcrypt hash of the admin password (api.adminAccount.passwordHash; a secret).
	// Required unless existing. Default: none.
	AdminPasswordHash pulumi.StringInput `pulumi:"adminPasswordHash,optional" provider:"secret"`
	// TokenSigningKey signs the admin account's tokens (api.adminAccount.tokenSigningKey; a secret). Required
	// unless existing. Default: none.
	TokenSigningKey pulumi.StringInput `pulumi:"tokenSigningKey,optional" provider:"secret"`
	// CertManager says how Kargo's need for cert-manager (its webhook server's self-signed certificate) is met:
	// "install" installs the cert-manager chart (v1.19.1 from charts.jetstack.io, namespace cert-manager)
	// before Kargo; "present" states that cert-manager is already installed. Required unless existing. Default: none.
	CertManager string `pulumi:"certManager,optional"`
	// GitToken is the GitHub token Kargo clones and pushes the manifests repository with (a secret, with write
	// access to that repository only). When set, it is written as the Kargo git credential "git-manifests"
	// (label kargo.akuity.io/cred-type: git) in the project namespace, for the manifests repository's URL only.
	// Default: none (no Kargo git credential).
	GitToken pulumi.StringInput `pulumi:"gitToken,optional" provider:"secret"`
	// ProgramGitToken is a read-only token Kargo's Warehouse reads a private program repository with (a
	// secret), written as the Kargo git credential "git-program" for the program repository's URL. Only when
	// the program lives in another repository than the manifests. Default: none (a public program repository).
	ProgramGitToken pulumi.StringInput `pulumi:"programGitToken,optional" provider:"secret"`
	// Oidc configures Kargo's API server to sign people in with OpenID Connect (api.oidc of the chart), which
	// stages[].approvers need: Kargo maps their claims to the approvers' ServiceAccounts. Required with
	// approvers unless existing. Default: none.
	Oidc *KargoOidc `pulumi:"oidc,optional"`
	// Values are Helm values of the chart, merged over the component's. Default: none.
	Values map[string]any `pulumi:"values,optional"`
}

// KargoOidc is Kargo's OpenID Connect sign-in (the chart's api.oidc; Kargo uses the authorization code flow with
// PKCE and needs no client secret).
type KargoOidc struct {
	// IssuerUrl is the identity provider's issuer, an https URL (api.oidc.issuerURL). Required.
	IssuerUrl string `pulumi:"issuerUrl"`
	// ClientId is the client registered for Kargo's UI (api.oidc.clientID). Required.
	ClientId string `pulumi:"clientId"`
	// CliClientId is a separate client for the kargo CLI (api.oidc.cliClientID). Default: clientId.
	CliClientId string `pulumi:"cliClientId,optional"`
	// Admins are the claims of Kargo's administrators (api.oidc.admins.claims). Default: none (only the admin
	// account).
	Admins *Approvers `pulumi:"admins,optional"`
}

// The kinds of stage (stages[].kind).
const (
	// KindUpdate is a stage with a Stack that runs pulumi up of the promoted commit.
	KindUpdate = "update"
	// KindPreview is a stage with a Stack that runs pulumi preview of the promoted commit for its target.
	KindPreview = "preview"
	// KindGate is a stage that deploys nothing: its promotion is the approval.
	KindGate = "gate"
)

// deploys says whether the stage has a Stack, a branch and an Application (every kind but a gate).
func (s DeliveryStage) deploys() bool { return s.Kind != KindGate }

// ownsWorkspace says whether the stage has a namespace, tokens and ServiceAccounts of its own (an update stage;
// a preview stage runs in its target's).
func (s DeliveryStage) ownsWorkspace() bool { return s.Kind == KindUpdate }

// workspaceStage is the stage whose workspace (namespace, tokens, ServiceAccounts) the stage's Stacks run in: its
// own, or a preview stage's target's.
func (s DeliveryStage) workspaceStage() string {
	if s.Kind == KindPreview {
		return s.Target
	}
	return s.Name
}

// Verification is how Kargo verifies a stage's Freight once promoted (the Stage's spec.verification): an Argo
// Rollouts AnalysisTemplate of the provider in the Kargo project, run with the stage's stack and the Freight's
// commit. The stages after it take only verified Freight.
type Verification struct {
	// Provider is "pulumiCloud" (seed 004's: the Pulumi Cloud REST API's latest update of the stack has the stage's
	// kind, update or preview, succeeded, at the Freight's commit, git.head; it needs the top-level
	// pulumiAccessToken, written to the Secret "pulumi-api-token" in the project) or "stackStatus" (for
	// self-managed backends: PKO's status.lastUpdate.lastSuccessfulCommit of the stage's Stack becomes the
	// Freight's commit, waited for by a Job with kubectl that may only read the stage's Stacks). Required.
	Provider string `pulumi:"provider"`
	// TimeoutSeconds is how long verification waits for the stack to reach the Freight's commit, in seconds,
	// 60-86400. Default: 900.
	TimeoutSeconds int `pulumi:"timeoutSeconds,optional"`
}

// RolloutsInstall installs Argo Rollouts, whose AnalysisRuns Kargo verifies stages with, from the Argo Helm
// repository.
type RolloutsInstall struct {
	// Existing says Argo Rollouts is already installed on the hub: no chart is installed. Default: false.
	Existing bool `pulumi:"existing,optional"`
	// ChartVersion is the argo-rollouts chart version. Default: "2.41.1" (Argo Rollouts v1.9.1, whose
	// AnalysisTemplate the templates are written against).
	ChartVersion string `pulumi:"chartVersion,optional"`
	// Namespace is Argo Rollouts' namespace. Default: "argo-rollouts".
	Namespace string `pulumi:"namespace,optional"`
	// KubectlImage is the image of stackStatus verification's Job, which runs kubectl wait. Default:
	// "registry.k8s.io/kubectl:v1.33.0".
	KubectlImage string `pulumi:"kubectlImage,optional"`
	// Values are Helm values of the chart. Default: none.
	Values map[string]any `pulumi:"values,optional"`
}

// The verification providers (stages[].verification.provider).
const (
	// VerifyPulumiCloud verifies with the Pulumi Cloud REST API.
	VerifyPulumiCloud = "pulumiCloud"
	// VerifyStackStatus verifies with PKO's Stack status.
	VerifyStackStatus = "stackStatus"
)
