package fleetcluster

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// FleetClusterArgs are the inputs of a FleetCluster. Zero values take the defaults documented on each field
// (see withDefaults); Validate reports every problem at once before any resource is registered.
//
// Fields with plain Go types shape the cluster and are checked up front. Fields typed pulumi.*Input usually
// come from other resources (a hub's role, an existing VPC); they are checked as soon as their value is known.
type FleetClusterArgs struct {
	// ClusterName is the EKS cluster name. Default: the component's resource name.
	// 1-100 characters of letters, digits, '-' and '_', starting with a letter or digit (EKS CreateCluster API).
	ClusterName string `pulumi:"clusterName,optional"`
	// Region is the AWS region of the cluster, for example "us-east-2". Required. The component creates an
	// aws.Provider for it that every child uses, unless an aws provider is passed in the resource options, in
	// which case that provider wins and Region must name the provider's region (it is part of IAM role names).
	Region string `pulumi:"region"`
	// Environment names the stage the cluster serves ("dev", "prod"); it becomes the `environment` metadata
	// key and the cluster secret's environment label, so a Kubernetes label value. Default: the Pulumi stack name.
	Environment string `pulumi:"environment,optional"`
	// Version is the Kubernetes minor version, "<major>.<minor>", for example "1.33". Default: DefaultVersion.
	Version string `pulumi:"version,optional"`

	// VpcCidr is the IPv4 CIDR of the VPC the component builds. Default: "10.0.0.0/16". It must be a network
	// address with a prefix from /16 (the largest VPC AWS allows) to /24 (room for a public and a private
	// subnet in up to six zones). Not allowed together with VpcId.
	VpcCidr string `pulumi:"vpcCidr,optional"`
	// AvailabilityZoneCount is how many availability zones the built VPC spans, 1-6. Default: 3.
	// EKS itself needs subnets in at least two zones.
	AvailabilityZoneCount int `pulumi:"availabilityZoneCount,optional"`
	// NatGatewayStrategy is the awsx NAT gateway strategy of the built VPC: "Single" (default, one NAT gateway)
	// or "OnePerAz" (one per zone, for zone-independent egress). "None" is rejected: the nodes run in private
	// subnets and need egress.
	NatGatewayStrategy string `pulumi:"natGatewayStrategy,optional"`
	// VpcId selects an existing VPC ("vpc-..."); then no VPC is built and PrivateSubnetIds is required.
	// Default: none (a VPC is built).
	VpcId pulumi.StringInput `pulumi:"vpcId,optional"`
	// PrivateSubnetIds are the existing private subnets ("subnet-...") for the control plane and nodes.
	// Required with VpcId, not allowed without it. Default: the built VPC's private subnets.
	PrivateSubnetIds pulumi.StringArrayInput `pulumi:"privateSubnetIds,optional"`
	// PublicSubnetIds are existing public subnets for internet-facing load balancers. Optional, only with VpcId.
	// Default: the built VPC's public subnets; none with VpcId.
	PublicSubnetIds pulumi.StringArrayInput `pulumi:"publicSubnetIds,optional"`

	// EndpointPublicAccess turns the public API server endpoint on or off. Default: on exactly when
	// PublicAccessCidrs or gitopsAccess.hubEgressCidrs are given (and then only for a non-empty list), so a
	// cluster is private unless its callers are named. The private endpoint is always on.
	EndpointPublicAccess *bool `pulumi:"endpointPublicAccess,optional"`
	// PublicAccessCidrs are the IPv4 CIDRs allowed to reach the public endpoint: the deploying machines (CI,
	// office) and, for a spoke, the Argo CD hub's NAT gateway addresses. Required when endpointPublicAccess is
	// true; "0.0.0.0/0" (the whole internet, EKS's own default) must be given explicitly. Default: none.
	PublicAccessCidrs []string `pulumi:"publicAccessCidrs,optional"`
	// EnabledClusterLogTypes are the control-plane log types sent to CloudWatch Logs.
	// Default: all five, ["api","audit","authenticator","controllerManager","scheduler"]. An explicit empty
	// list turns logging off.
	EnabledClusterLogTypes []string `pulumi:"enabledClusterLogTypes,optional"`
	// SecretsEncryption turns envelope encryption of Kubernetes secrets with a KMS key the component creates
	// (key rotation on) on or off. Default: true.
	SecretsEncryption *bool `pulumi:"secretsEncryption,optional"`
	// SecretsKeyAdministratorArns are the IAM roles and users that administer the secrets KMS key
	// ("arn:<partition>:iam::<account>:role/<name>"). The key policy names them and the cluster's role, and
	// nobody else: no account-wide delegation to IAM. Default: the principal that deploys (the issuer of its
	// session, IAM GetSessionContext). Every later deployer must be among them (KMS refuses a key policy that
	// would lock its writer out).
	SecretsKeyAdministratorArns []string `pulumi:"secretsKeyAdministratorArns,optional"`

	// NodeGroups are the managed node groups. Default: one group, see DefaultNodeGroup.
	NodeGroups []NodeGroup `pulumi:"nodeGroups,optional"`

	// AuthenticationMode is how the cluster authenticates IAM principals: "CONFIG_MAP", "API" or
	// "API_AND_CONFIG_MAP" (default). Access entries need an API mode; aws-auth mappings need a CONFIG_MAP mode.
	AuthenticationMode string `pulumi:"authenticationMode,optional"`
	// RoleMappings are extra IAM role entries of the aws-auth ConfigMap. The node role's entry is always
	// kept: pulumi-eks writes it from the cluster's instance roles, separately from these mappings. Default: none.
	RoleMappings []RoleMapping `pulumi:"roleMappings,optional"`
	// UserMappings are extra IAM user entries of the aws-auth ConfigMap. Default: none.
	UserMappings []UserMapping `pulumi:"userMappings,optional"`
	// AccessEntries are EKS access entries for IAM principals. Default: none.
	AccessEntries []AccessEntry `pulumi:"accessEntries,optional"`
	// GitOpsAccess lets an Argo CD hub manage this cluster. Optional.
	// Default: none (no spoke role: no hub manages the cluster through a role).
	GitOpsAccess *GitOpsAccess `pulumi:"gitopsAccess,optional"`

	// Addons maps GitOps Bridge add-on names (KnownAddons, for example "aws_load_balancer_controller") to
	// whether Argo CD installs them. Each enabled add-on gets what its GitOps Bridge ApplicationSet reads
	// (components/addons): add-ons that call AWS an IRSA role trusted by their service accounts with the
	// upstream project's published policy, and the AWS resources they need (Fluent Bit's log group, Karpenter's
	// and the Node Termination Handler's interruption queues, Velero's bucket, the EBS CSI driver as an EKS
	// managed add-on); their keys are written into GitOpsMetadata. Unknown names are rejected. Default: none (no add-on).
	Addons map[string]bool `pulumi:"addons,optional"`
	// AddonSettings are the settings of add-ons that need more than a role. A setting of an add-on that is
	// not enabled is rejected. Default: none (each add-on's own defaults).
	AddonSettings *AddonSettings `pulumi:"addonSettings,optional"`
	// AddonVersions maps add-on names to the application version the add-ons repository installs ("0.34.1" or
	// "v0.34.1"; for Velero the Velero server's), which picks the upstream IAM policy published for that version
	// (the add-on table (docs/addons.md) lists the ranges). Default: per add-on, the version the pinned control-plane
	// template installs (addons.TemplateRepository; the table's "Version" column). Rejected: an add-on with no
	// AWS identity, or a version no published policy covers (the error names the supported ranges).
	AddonVersions map[string]string `pulumi:"addonVersions,optional"`
	// Identity is how the add-ons' pods get their IAM roles' credentials: "podIdentity" (default) binds each
	// role with EKS Pod Identity associations for every add-on whose installed version supports it (the
	// add-on table, docs/addons.md) and keeps IRSA for the rest; "irsa" uses IRSA only. Either way the roles trust
	// the cluster's OIDC provider too and the metadata keeps <addon>_iam_role_arn: the template's
	// ApplicationSets annotate the service accounts with it, and the AWS SDKs take those IRSA credentials before
	// Pod Identity's (Amazon EKS User Guide, pod-id-how-it-works.html), so the add-on works whichever the
	// add-ons repository uses. Switching plans in place: associations and trust policies, no role replaced.
	Identity string `pulumi:"identity,optional"`
	// NetworkPolicy turns on the VPC CNI's network policy agent, which enforces Kubernetes NetworkPolicies
	// (enableNetworkPolicy: "true" in the vpc-cni managed add-on's configuration; Amazon EKS User Guide,
	// cni-network-policy: VPC CNI v1.14 or later, which EKS's default versions for Kubernetes 1.25 and later are).
	// Without it EKS stores NetworkPolicies and enforces none. Fleet sets it on every cluster a tenant selects.
	// Toggling it updates the add-on in place. Default: false.
	NetworkPolicy bool `pulumi:"networkPolicy,optional"`
	// NodeSessionManager attaches AmazonSSMManagedInstanceCore to the node role, so that AWS Systems Manager
	// manages the managed node groups' instances and Session Manager opens shells on them (as root, for whoever
	// may start a session in the account; AWS Systems Manager User Guide, setup-instance-permissions). Default:
	// false: nodes are reached through Kubernetes only. Toggling it creates or deletes that one attachment.
	NodeSessionManager bool `pulumi:"nodeSessionManager,optional"`
	// Tags are added to every AWS resource the component creates. At most 50 tags; keys 1-128 and values
	// 0-256 characters, keys not starting with "aws:" (AWS tagging rules). Default: none.
	Tags map[string]string `pulumi:"tags,optional"`
}

// NodeGroup is one EKS managed node group. It runs in the private subnets, on the node role the component
// creates, from a launch template that requires IMDSv2 and encrypts the root volume.
type NodeGroup struct {
	// Name of the node group: 1-63 letters, digits, '-' and '_', starting with a letter or digit (EKS
	// CreateNodegroup API). Unique within the cluster.
	Name string `pulumi:"name"`
	// InstanceTypes are the EC2 instance types, for example ["m6i.large"]. At least one.
	InstanceTypes []string `pulumi:"instanceTypes"`
	// MinSize is the fewest nodes: 0 <= minSize <= desiredSize.
	MinSize int `pulumi:"minSize"`
	// DesiredSize is the node count to start with: minSize <= desiredSize <= maxSize.
	DesiredSize int `pulumi:"desiredSize"`
	// MaxSize is the most nodes, at least 1 and at least desiredSize.
	MaxSize int `pulumi:"maxSize"`
	// CapacityType is "ON_DEMAND" (default) or "SPOT".
	CapacityType string `pulumi:"capacityType,optional"`
	// DiskSize is the root volume size in GiB, 20-16384 (gp3 limits with room for the AMI). Default: 50.
	DiskSize int `pulumi:"diskSize,optional"`
	// AmiType is the EKS AMI type (EKS CreateNodegroup's amiType, the ones this component supports): one of
	// "AL2023_x86_64_STANDARD", "AL2023_ARM_64_STANDARD", "AL2023_x86_64_NVIDIA", "AL2023_x86_64_NEURON",
	// "BOTTLEROCKET_x86_64", "BOTTLEROCKET_ARM_64", "BOTTLEROCKET_x86_64_NVIDIA" and "BOTTLEROCKET_ARM_64_NVIDIA"
	// (AmiTypes). Default: "AL2023_x86_64_STANDARD".
	AmiType string `pulumi:"amiType,optional"`
	// Labels are Kubernetes labels put on the nodes. Default: none.
	Labels map[string]string `pulumi:"labels,optional"`
	// Taints are Kubernetes taints put on the nodes. Default: none.
	Taints []Taint `pulumi:"taints,optional"`
	// MaxUnavailablePercentage is how many of the group's nodes an update (a new Kubernetes version, AMI or
	// launch template) may replace at a time, in percent, 1-100 (EKS UpdateNodegroupConfig). Default: 33.
	MaxUnavailablePercentage int `pulumi:"maxUnavailablePercentage,optional"`
}

// Taint is a Kubernetes node taint.
type Taint struct {
	// Key is the taint key: a Kubernetes qualified name.
	Key string `pulumi:"key"`
	// Value is the taint value: at most 63 characters of the label-value alphabet. Optional. Default: "".
	Value string `pulumi:"value,optional"`
	// Effect is "NO_SCHEDULE", "NO_EXECUTE" or "PREFER_NO_SCHEDULE" (EKS spelling).
	Effect string `pulumi:"effect"`
}

// RoleMapping is an aws-auth ConfigMap entry for an IAM role.
type RoleMapping struct {
	// RoleArn is the IAM role ARN without a path, "arn:<partition>:iam::<account>:role/<name>": aws-auth
	// compares it with the ARN derived from the role session, which has no path. The cluster's node role is
	// refused (its entry is FleetCluster's).
	RoleArn pulumi.StringInput `pulumi:"roleArn"`
	// Username is the Kubernetes user name the role maps to; it may not start with a prefix EKS reserves
	// (system:, eks:, aws:, amazon:, iam:).
	Username string `pulumi:"username"`
	// Groups are Kubernetes groups, none starting with a prefix EKS reserves (system:, eks:, aws:, amazon:,
	// iam:). For cluster admin (system:masters) use an access entry with AmazonEKSClusterAdminPolicy instead.
	// Default: none.
	Groups []string `pulumi:"groups,optional"`
}

// UserMapping is an aws-auth ConfigMap entry for an IAM user.
type UserMapping struct {
	// UserArn is the IAM user ARN, "arn:<partition>:iam::<account>:user/<path><name>".
	UserArn pulumi.StringInput `pulumi:"userArn"`
	// Username is the Kubernetes user name the user maps to; reserved prefixes are refused as for RoleMapping.
	Username string `pulumi:"username"`
	// Groups are Kubernetes groups; reserved prefixes are refused as for RoleMapping. Default: none.
	Groups []string `pulumi:"groups,optional"`
}

// AccessEntry is an EKS access entry: an IAM principal's access to the cluster's Kubernetes API.
type AccessEntry struct {
	// Name identifies the entry within the component (it names the Pulumi resources): 1-63 letters,
	// digits, '-' and '_'. Unique within the cluster.
	Name string `pulumi:"name"`
	// PrincipalArn is the IAM role or user ARN.
	PrincipalArn pulumi.StringInput `pulumi:"principalArn"`
	// KubernetesGroups are Kubernetes groups the principal joins (for RBAC bindings of your own); EKS rejects
	// groups starting with system:, eks:, aws:, amazon: or iam:. Default: none.
	KubernetesGroups []string `pulumi:"kubernetesGroups,optional"`
	// AccessPolicies are EKS access policies associated with the principal. Default: none.
	AccessPolicies []AccessPolicy `pulumi:"accessPolicies,optional"`
}

// AccessPolicy associates an EKS access policy with an access entry.
type AccessPolicy struct {
	// PolicyArn is an EKS access policy ARN, "arn:<partition>:eks::aws:cluster-access-policy/<Name>",
	// for example AmazonEKSViewPolicy.
	PolicyArn string `pulumi:"policyArn"`
	// Namespaces limits the policy to these Kubernetes namespaces, each a DNS-1123 label; empty means the whole
	// cluster.
	// Default: none (the whole cluster).
	Namespaces []string `pulumi:"namespaces,optional"`
}

// GitOpsAccess lets the Argo CD hub's IAM role manage this cluster without static credentials.
type GitOpsAccess struct {
	// HubRoleArn is the self-managed Argo CD hub's management role (GitOpsBridge's managementRoleArn output). The
	// component creates a spoke role under clusterinfo.SpokeRolePath that trusts it (sts:AssumeRole,
	// sts:TagSession) and an access entry with accessPolicyArn for that spoke role. Needs an API authentication
	// mode. Default: none; exactly one of hubRoleArn and capabilityRoleArn is required.
	HubRoleArn pulumi.StringInput `pulumi:"hubRoleArn,optional"`
	// CapabilityRoleArn is the role of a managed Argo CD hub's EKS capability (GitOpsBridge's managementRoleArn
	// output with hub.mode managed): the component gives that role itself an access entry with accessPolicyArn, and
	// creates no spoke role (EKS User Guide, "Register target clusters": access entries, not role assumption, in
	// the hub's account or another). Never give it to the hub's own cluster: EKS makes that entry itself. Needs an
	// API authentication mode. Default: none; exactly one of hubRoleArn and capabilityRoleArn is required.
	CapabilityRoleArn pulumi.StringInput `pulumi:"capabilityRoleArn,optional"`
	// AccessPolicyArn is the EKS access policy of the hub's entry, cluster-wide:
	// arn:<partition>:eks::aws:cluster-access-policy/<name>. The add-ons' charts install CRDs, cluster roles and
	// webhooks, which need cluster admin; a narrower policy fits a hub that deploys only namespaced workloads.
	// Default: AmazonEKSClusterAdminPolicy.
	AccessPolicyArn string `pulumi:"accessPolicyArn,optional"`
	// HubEgressCidrs are the networks the hub's Argo CD reaches this cluster's API server from: the hub's NAT
	// gateway addresses as /32 CIDRs (FleetCluster's natPublicIps). They join publicAccessCidrs and turn the
	// public endpoint on, for them and the given CIDRs only; an empty list changes nothing, and an explicit
	// endpointPublicAccess: false wins (then the hub needs a private route: peering or a transit gateway). Default: none.
	HubEgressCidrs pulumi.StringArrayInput `pulumi:"hubEgressCidrs,optional"`
}

// AddonSettings are per-add-on settings, each allowed only while its add-on is enabled in Addons.
type AddonSettings struct {
	// AwsForFluentbit sets Fluent Bit's CloudWatch log group. Optional: the defaults apply without it.
	AwsForFluentbit *FluentBitSettings `pulumi:"awsForFluentbit,optional"`
	// CertManager gives cert-manager the hosted zones it may solve DNS01 challenges in. Optional: without
	// zones cert-manager gets no Route 53 record access (HTTP01 still works). Default: none.
	CertManager *CertManagerSettings `pulumi:"certManager,optional"`
	// ExternalDns gives external-dns its hosted zones and domain filters. Required when external_dns is enabled:
	// its ApplicationSet reads external_dns_domain_filters with no default. Default: none.
	ExternalDns *ExternalDNSSettings `pulumi:"externalDns,optional"`
	// ExternalSecrets narrows external-secrets to secrets and parameters under a name prefix. Optional.
	// Default: none (secrets and parameters under "<cluster>/").
	ExternalSecrets *ExternalSecretsSettings `pulumi:"externalSecrets,optional"`
	// Velero sets the backup bucket. Optional: without it FleetCluster creates one.
	// Default: none (FleetCluster creates the bucket).
	Velero *VeleroSettings `pulumi:"velero,optional"`
	// AwsPrivatecaIssuer names the private certificate authorities the issuer may use. Required when
	// aws_privateca_issuer is enabled. Default: none.
	AwsPrivatecaIssuer *PrivateCAIssuerSettings `pulumi:"awsPrivatecaIssuer,optional"`
	// GatewayApiController narrows the AWS Gateway API controller's access logs to destinations of yours. Upstream's
	// policy grants s3:PutBucketPolicy, logs:PutResourcePolicy and firehose:TagDeliveryStream on every resource,
	// so the controller may rewrite any bucket's policy and the account's CloudWatch Logs resource policy (which
	// VPC Lattice's log delivery writes to admit itself). With these settings the fleet writes that policy with
	// those actions on the given destinations only. It stays account-wide (vpc-lattice:* on every resource), so
	// the add-on still needs its name in acceptAccountWide, and takes no policyArns. Default: none (upstream's
	// policy, once accepted).
	GatewayApiController *GatewayAPIControllerSettings `pulumi:"gatewayApiController,optional"`
	// PolicyArns replace the upstream policy of an add-on whose upstream recommendation is account-wide (the
	// add-on table, docs/addons.md, says which: the ACK controllers ack_*, whose recommended policies are their
	// services' full access, and aws_gateway_api_controller, whose policy grants vpc-lattice:* on every
	// resource) with IAM policies of the user's, narrowed to what the add-on should manage. Keys are add-on
	// names; values are one or more policy ARNs, arn:<partition>:iam::<account or "aws">:policy/<path><name>.
	// An enabled account-wide add-on needs either its policyArns or its name in acceptAccountWide.
	// Default: none (the upstream policy).
	PolicyArns map[string][]string `pulumi:"policyArns,optional"`
	// AcceptAccountWide are the account-wide add-ons (see policyArns) whose upstream policy you accept as it is:
	// the controller, and whoever can make it act (the add-ons repository, a tenant whose project allows the
	// add-on's kinds), reaches every resource of its service in the account. Each must be enabled and not in
	// policyArns. Default: none (an enabled account-wide add-on without policyArns is refused).
	AcceptAccountWide []string `pulumi:"acceptAccountWide,optional"`
}

// FluentBitSettings are the settings of aws_for_fluentbit.
type FluentBitSettings struct {
	// LogGroupName is the CloudWatch Logs group FleetCluster creates; workload logs go to groups below it
	// (<name>/workload/<namespace>). 1-512 characters of letters, digits and _-./# (CloudWatch Logs
	// CreateLogGroup). Default: /aws/eks/<cluster>/aws-fluentbit-logs. It may not be the control plane's
	// /aws/eks/<cluster>/cluster.
	LogGroupName string `pulumi:"logGroupName,optional"`
	// RetentionInDays is how long the group keeps events: one of the values CloudWatch Logs accepts
	// (PutRetentionPolicy: 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192,
	// 2557, 2922, 3288, 3653). Default: 90.
	RetentionInDays int `pulumi:"retentionInDays,optional"`
}

// CertManagerSettings are the settings of cert_manager.
type CertManagerSettings struct {
	// HostedZoneIds are the Route 53 hosted zones ("Z" followed by up to 32 upper-case letters and digits)
	// where cert-manager may write TXT records for DNS01 challenges. Default: none (no Route 53 record access).
	HostedZoneIds []string `pulumi:"hostedZoneIds,optional"`
}

// ExternalDNSSettings are the settings of external_dns.
type ExternalDNSSettings struct {
	// HostedZoneIds are the Route 53 hosted zones external-dns may change records in. At least one.
	HostedZoneIds []string `pulumi:"hostedZoneIds"`
	// DomainFilters limit external-dns to these domains ("example.com"), written as
	// external_dns_domain_filters. At least one.
	DomainFilters []string `pulumi:"domainFilters"`
	// Policy is external-dns's record policy: "upsert-only" (default: never deletes) or "sync".
	Policy string `pulumi:"policy,optional"`
}

// ExternalSecretsSettings are the settings of external_secrets.
type ExternalSecretsSettings struct {
	// SecretsPrefix is the name prefix of the Secrets Manager secrets and SSM parameters external-secrets may
	// read. Default: "<cluster>/". At most 512 characters of letters, digits and /_+=.@-, not slashes only ("/"
	// would reach every secret and parameter named as a path).
	SecretsPrefix string `pulumi:"secretsPrefix,optional"`
	// KmsKeyArns are the customer-managed KMS keys of those secrets ("arn:<partition>:kms:<region>:<account>:key/<id>").
	// Default: any key of the region, used through Secrets Manager or SSM only.
	KmsKeyArns []string `pulumi:"kmsKeyArns,optional"`
}

// VeleroSettings are the settings of velero.
type VeleroSettings struct {
	// BucketName is an existing S3 bucket in the cluster's account for the backups: 3-63 lower-case letters,
	// digits, '.' and '-', starting and ending with a letter or digit, not an IP address (S3 bucket naming
	// rules). Default: FleetCluster creates a bucket, encrypted (SSE-S3), versioned, with all public access
	// blocked and object ownership enforced, named <cluster>-velero-<random>.
	BucketName string `pulumi:"bucketName,optional"`
	// BucketPrefix is the folder of the backups in the bucket. Default: the cluster name.
	BucketPrefix string `pulumi:"bucketPrefix,optional"`
}

// GatewayAPIControllerSettings are the settings of aws_gateway_api_controller.
type GatewayAPIControllerSettings struct {
	// AccessLogDestinations are the only destinations the controller may deliver access logs to (the
	// destinationArn of its AccessLogPolicy objects, VPC Lattice's CreateAccessLogSubscription): S3 buckets
	// (arn:<partition>:s3:::<bucket>, optionally /<prefix>), CloudWatch Logs log groups
	// (arn:<partition>:logs:<region>:<account>:log-group:<name>) and Firehose delivery streams
	// (arn:<partition>:firehose:<region>:<account>:deliverystream/<name>). The role may change each bucket's policy
	// and tag each stream (CloudWatch Logs' guide to vended logs); with a log group, it may write the account's
	// CloudWatch Logs resource policy, which has no narrower scope. Default: none (no access logs: an
	// AccessLogPolicy fails at VPC Lattice).
	AccessLogDestinations []string `pulumi:"accessLogDestinations,optional"`
}

// PrivateCAIssuerSettings are the settings of aws_privateca_issuer.
type PrivateCAIssuerSettings struct {
	// CertificateAuthorityArns are the AWS Private CA certificate authorities the issuer may use
	// ("arn:<partition>:acm-pca:<region>:<account>:certificate-authority/<id>"). At least one.
	CertificateAuthorityArns []string `pulumi:"certificateAuthorityArns"`
}
