package addons

import "slices"

// TemplateRepository is the GitOps Bridge control-plane template whose ApplicationSets are the contract:
// gitops-bridge-dev/gitops-bridge-argocd-control-plane-template, folder bootstrap/control-plane/addons, as
// of commit e6d3551 (2024-05-15).
const TemplateRepository = "gitops-bridge-dev/gitops-bridge-argocd-control-plane-template@e6d3551"

// Addon is one row of the contract: a GitOps Bridge add-on, what reads it and what it needs.
type Addon struct {
	// Name is the GitOps Bridge name, "aws_load_balancer_controller"; the cluster secret carries the label
	// enable_<Name>: "true"|"false".
	Name string
	// ApplicationSet is the file of the control-plane template that installs the add-on, relative to
	// bootstrap/control-plane/addons.
	ApplicationSet string
	// Chart is the Helm chart the ApplicationSet installs (its values.addonChart); the Application is named
	// addon-<cluster>-<Chart>.
	Chart string
	// GoTemplate tells whether the ApplicationSet uses Go templates (goTemplate: true) rather than fasttemplate.
	GoTemplate bool
	// SelectLabel is the enable label the ApplicationSet selects with operator In ["true"]. Default:
	// enable_<Name>. It differs where the template installs a companion chart (the EBS CSI driver is an EKS
	// managed add-on; the template only installs its storage classes under enable_aws_ebs_csi_resources).
	SelectLabel string
	// Implies are add-on names enabled together with this one (their enable_ labels are written "true").
	Implies []string
	// Requires are further label requirements of the selector, for example aws_cluster_name Exists.
	Requires []Requirement
	// Reads are the metadata annotations the ApplicationSet's template reads with no default, besides the
	// addons_repo_* keys every set reads. Each must be in the cluster secret or the rendered values hold a hole.
	Reads []string
	// ReadsWithDefault are annotations read through a default ({{default "x" ...}}): optional.
	ReadsWithDefault []string
	// Identity is the AWS identity of the add-on's controller, nil for add-ons that call no AWS API.
	Identity *Identity
	// Resources are the AWS resources FleetCluster creates for the add-on beside its IAM role.
	Resources []Resource
	// SettingKeys are metadata keys FleetCluster writes from the add-on's settings (external_dns_domain_filters).
	SettingKeys []string
	// Version is the application version the ApplicationSet installs at TemplateRepository's commit (the
	// appVersion of its addonChartVersion; for Velero the velero-plugin-for-aws version its values install,
	// whose AWS calls the policy covers): the default of FleetCluster's addonVersions. "" for add-ons with no
	// identity.
	Version string
}

// Requirement is a label selector requirement (Kubernetes LabelSelectorRequirement).
type Requirement struct {
	Key      string
	Operator string // In, NotIn, Exists, DoesNotExist
	Values   []string
}

// Identity is the IAM role of an add-on's controller. The ApplicationSets put <prefix>_iam_role_arn into the
// service account annotation eks.amazonaws.com/role-arn (IRSA); FleetCluster may bind the same role with EKS
// Pod Identity as well (see PodIdentity).
type Identity struct {
	// Namespace is the controller's namespace, written as <prefix>_namespace.
	Namespace string
	// ServiceAccounts are the service accounts that assume the role; each is written as
	// <prefix>_<Key> (Key "service_account", or "controller_service_account" and "node_service_account" for
	// the CSI drivers, whose controller and node daemon set both call AWS). The trust policy names all of them.
	ServiceAccounts []ServiceAccount
	// KeyPrefix is the prefix of the metadata keys. Default: the add-on name.
	KeyPrefix string
	// Policies are the add-on's policies, one per range of its versions over which upstream publishes the same
	// document, oldest first and disjoint. FleetCluster takes the one covering the installed version.
	Policies []Policy
	// PodIdentity says from which version the add-on takes EKS Pod Identity credentials.
	PodIdentity PodIdentitySupport
	// AccountWide marks an upstream recommendation that reaches every resource of its services in the account
	// (the ACK controllers' service-wide policies, the Gateway API controller's vpc-lattice:*): FleetCluster
	// lets addonSettings.policyArns replace it with the user's narrower policies.
	AccountWide bool
}

// ServiceAccount is one Kubernetes service account of an add-on and its metadata key suffix.
type ServiceAccount struct {
	Key  string
	Name string
}

// Resource is a kind of AWS resource an add-on needs.
type Resource string

// The AWS resources FleetCluster creates for add-ons.
const (
	// LogGroup is a CloudWatch Logs group for the add-on's logs (aws_for_fluentbit_log_group_name).
	LogGroup Resource = "CloudWatch log group"
	// InterruptionQueue is an SQS queue fed by EventBridge rules with EC2 and AWS Health events.
	InterruptionQueue Resource = "SQS interruption queue and EventBridge rules"
	// BackupBucket is an S3 bucket for backups, created (encrypted, versioned, public access blocked) or given.
	BackupBucket Resource = "S3 backup bucket"
	// ManagedAddon is an EKS managed add-on (the EBS CSI driver).
	ManagedAddon Resource = "EKS managed add-on"
	// NodeInstanceProfile is an instance profile of the cluster's node role for nodes the add-on launches.
	NodeInstanceProfile Resource = "node instance profile"
)

// PolicyContext carries the facts an add-on policy is scoped by: the cluster's, and the add-on's
// resources and settings.
type PolicyContext struct {
	Partition   string
	Region      string
	AccountID   string
	ClusterName string
	// NodeRoleArn is the cluster's node role, which Karpenter passes to the instances it launches.
	NodeRoleArn string
	// QueueArn is the add-on's interruption queue (Karpenter, Node Termination Handler).
	QueueArn string
	// LogGroupName is the add-on's log group (Fluent Bit).
	LogGroupName string
	// BucketName and BucketPrefix locate the backups (Velero).
	BucketName, BucketPrefix string
	// HostedZoneIDs are the Route 53 zones the add-on may change (external-dns, cert-manager).
	HostedZoneIDs []string
	// SecretsPrefix limits Secrets Manager secrets and SSM parameters by name (external-secrets).
	SecretsPrefix string
	// KMSKeyArns are customer keys that encrypt those secrets and parameters (external-secrets).
	KMSKeyArns []string
	// CertificateAuthorityArns are the AWS Private CAs the issuer may use (aws-privateca-issuer).
	CertificateAuthorityArns []string
	// NarrowAccessLogs gives the Gateway API controller the fleet's narrowed policy (gatewayAccessLogStatements):
	// access logs only to AccessLogDestinations, instead of upstream's bucket and log resource policies on every
	// resource.
	NarrowAccessLogs bool
	// AccessLogDestinations are the access log destinations the Gateway API controller may set up, as VPC
	// Lattice takes them (AccessLogDestinationOf).
	AccessLogDestinations []string
}

// Prefix is the metadata key prefix of the add-on's identity keys.
func (id Identity) Prefix(addon string) string {
	if id.KeyPrefix != "" {
		return id.KeyPrefix
	}
	return addon
}

// Label is the enable label the add-on's ApplicationSet selects on.
func (a Addon) Label() string {
	if a.SelectLabel != "" {
		return a.SelectLabel
	}
	return EnableLabel(a.Name)
}

// EnableLabel is the label that enables or disables an add-on on a cluster: enable_<addon> (GitOps Bridge).
func EnableLabel(addon string) string { return "enable_" + addon }

// Needs tells whether the add-on needs resource r.
func (a Addon) Needs(r Resource) bool { return slices.Contains(a.Resources, r) }
