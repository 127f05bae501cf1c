package iamlint

// Acceptance is a class of linter findings the fleet keeps, and why.
type Acceptance struct {
	// Policies is the prefix of the policies' names it covers: "karpenter@" (every version range), "trust/".
	Policies string
	// Tool is parliament or cloudsplaining; Issue its finding (RESOURCE_STAR, InfrastructureModification, ...).
	Tool, Issue string
	// Why the finding stays: "inherited" findings are in the upstream recommended policy the add-on's range
	// reproduces (its source is the catalogue's Policy.Source), the others are the linter's own limits.
	Why string
}

// inherited is the reason of every finding that comes from an add-on's upstream policy as published.
const inherited = "inherited: the upstream recommended policy of the add-on's version range, as published " +
	"(components/addons, Policy.Source); the fleet grants what the controller's own docs ask for, no more"

// Accepted are the findings the fleet keeps. An unlisted finding fails TestLinters, and so does an entry that no
// finding matches any more.
var Accepted = []Acceptance{
	// The linters' limits, on policies of the fleet's own.
	{"trust/", "parliament", "MALFORMED", "parliament reads every document as an identity policy; a role's trust " +
		"policy has no Resource element (IAM User Guide, \"IAM JSON policy elements: Resource\")"},
	{"trust/irsa", "parliament", "UNKNOWN_FEDERATION_SOURCE", "parliament 1.6.4 knows SAML and web identity " +
		"providers by name only, not an IAM OIDC provider's ARN, which the EKS User Guide's IRSA trust policy names " +
		"(\"Assign IAM roles to Kubernetes service accounts\")"},
	{"resource/secrets-key", "parliament", "RESOURCE_STAR", "in a KMS key policy Resource \"*\" means the key " +
		"itself (AWS KMS Developer Guide, \"Key policies\"); the statements are the default key policy's " +
		"administrators and the cluster role's use of the key"},
	// The deployer's policy (`fleet preflight -policy`): what a role that creates whole clusters needs.
	{"deployer/", "parliament", "UNKNOWN_ACTION", "parliament 1.6.4's catalogue predates EKS Capabilities: " +
		"eks:CreateCapability, DescribeCapability, UpdateCapability and DeleteCapability are in the Service " +
		"Authorization Reference (Amazon EKS, \"Actions defined by Amazon EKS\"); every other action of the table is " +
		"in the catalogue"},
	{"deployer/", "parliament", "RESOURCE_STAR", "the policy is a start on every resource (most of the resources " +
		"have no name before the plan makes them); an account that scopes deployers narrows it, and preflight " +
		"simulates the narrowed role on the resources the plan names (docs/aws.md)"},
	{"deployer/", "cloudsplaining", "PrivilegeEscalation", "a deployer makes roles, their policies and launch " +
		"templates for the clusters' nodes and add-ons: it can grant itself what it grants them, as any identity " +
		"that runs `pulumi up` of a cluster can (docs/aws.md)"},
	{"deployer/", "cloudsplaining", "ResourceExposure", "the same: the fleet writes the roles', queue's, key's " +
		"and bucket's policies"},
	{"deployer/", "cloudsplaining", "InfrastructureModification", "making the VPC, the clusters and their roles " +
		"is the deployer's job"},

	// Inherited from the add-ons' upstream policies.
	{"ack_emrcontainers@", "parliament", "RESOURCE_STAR", inherited},
	{"ack_emrcontainers@", "cloudsplaining", "DataExfiltration", inherited + " (s3:GetObject on the job's logs and artifacts)"},
	{"ack_emrcontainers@", "cloudsplaining", "InfrastructureModification", inherited},
	{"ack_prometheusservice@", "parliament", "RESOURCE_STAR", inherited},
	{"ack_prometheusservice@", "cloudsplaining", "ServiceWildcard", inherited + " (aps:*)"},
	{"ack_prometheusservice@", "cloudsplaining", "InfrastructureModification", inherited},
	{"aws_for_fluentbit@", "parliament", "RESOURCE_MISMATCH", inherited + "; logs:DescribeLogGroups takes no " +
		"log group, so the statement scoped to the fleet's log group does not grant it, as upstream"},
	{"aws_fsx_csi_driver@", "parliament", "RESOURCE_MISMATCH", inherited},
	{"aws_gateway_api_controller@", "parliament", "RESOURCE_STAR", inherited},
	{"aws_gateway_api_controller@", "parliament", "RESOURCE_POLICY_PRIVILEGE_ESCALATION", inherited + ": " +
		"s3:PutBucketPolicy and logs:PutResourcePolicy on *, for the access logs' destinations. The add-on is " +
		"account-wide: a Fleet refuses it unless addonSettings.policyArns gives a narrower policy or " +
		"acceptAccountWide takes this one"},
	{"aws_gateway_api_controller@", "cloudsplaining", "ResourceExposure", inherited + " (the same, and VPC " +
		"Lattice auth policies)"},
	{"aws_gateway_api_controller@", "cloudsplaining", "ServiceWildcard", inherited + " (vpc-lattice:*)"},
	{"aws_gateway_api_controller@", "cloudsplaining", "InfrastructureModification", inherited},
	// The Gateway API controller's policy as the fleet narrows it (addonSettings.gatewayApiController): what stays
	// of upstream's, and the destinations' own grants.
	{"narrowed", "parliament", "RESOURCE_POLICY_PRIVILEGE_ESCALATION", "s3:PutBucketPolicy on the access log " +
		"destinations the user named only (no other bucket): VPC Lattice's log delivery needs its caller to write the " +
		"destination bucket's policy (CloudWatch Logs User Guide, \"Logs sent to Amazon S3\")"},
	{"narrowed", "parliament", "RESOURCE_STAR", inherited + " (vpc-lattice:* and the EC2, log delivery and tag reads on *)"},
	{"narrowed", "cloudsplaining", "ResourceExposure", inherited + " (VPC Lattice auth policies, which the controller " +
		"writes from IAMAuthPolicy objects; no bucket's policy any more)"},
	{"narrowed", "cloudsplaining", "ServiceWildcard", inherited + " (vpc-lattice:*)"},
	{"narrowed", "cloudsplaining", "InfrastructureModification", inherited},
	{"aws_load_balancer_controller@", "parliament", "RESOURCE_STAR", inherited},
	{"aws_load_balancer_controller@", "parliament", "UNKNOWN_ACTION", inherited + "; parliament 1.6.4's IAM " +
		"database predates elasticloadbalancing:ModifyIpPools"},
	{"aws_load_balancer_controller@", "parliament", "UNKNOWN_CONDITION_FOR_ACTION", inherited + "; the " +
		"elasticloadbalancing:CreateAction condition on AddTags is the controller's tag-on-create guard"},
	{"aws_load_balancer_controller@", "cloudsplaining", "InfrastructureModification", inherited},
	{"cert_manager@", "parliament", "UNKNOWN_CONDITION_FOR_ACTION", inherited + "; the condition is " +
		"ForAllValues:StringEquals, true when a request (ListResourceRecordSets) has no record types"},
	{"cluster_autoscaler@", "parliament", "RESOURCE_STAR", inherited + "; the statement is conditioned on the " +
		"cluster's Auto Scaling group tags"},
	{"external_dns@", "parliament", "RESOURCE_STAR", inherited},
	{"karpenter@", "parliament", "RESOURCE_MISMATCH", inherited + "; each statement scopes one resource type of " +
		"the action (instance, fleet, launch template, image), as upstream splits them"},
	{"karpenter@", "parliament", "RESOURCE_STAR", inherited + "; conditioned on the cluster's tags"},
	{"velero@", "parliament", "RESOURCE_STAR", inherited},
}
