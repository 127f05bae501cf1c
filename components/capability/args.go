package capability

// ArgoCDCapabilityArgs are the inputs of an ArgoCDCapability. The rules are the EKS API's (CreateCapability,
// UpdateCapability in the AWS SDK for Go v2 service/eks v1.105.5) and the EKS User Guide's ("Create an Argo CD
// capability", "Capability IAM role").
type ArgoCDCapabilityArgs struct {
	// ClusterName is the EKS cluster the capability runs for (the hub). Changing it replaces the capability.
	// Required.
	ClusterName string `pulumi:"clusterName"`
	// CapabilityName names the capability within its cluster: 1 to 100 letters, digits, hyphens and underscores
	// (EKS CreateCapability; CloudFormation's AWS::EKS::Capability gives the length). A cluster has at most one
	// capability of each type. Changing it replaces the capability. Default: "argocd".
	CapabilityName string `pulumi:"capabilityName,optional"`
	// Region is the cluster's AWS region. Changing it replaces the capability. Default: the plugin's ambient
	// region (AWS_REGION, or the AWS profile's).
	Region string `pulumi:"region,optional"`
	// RoleArn is the IAM role the capability acts as (arn:<partition>:iam::<account>:role/<path><name>), in the
	// cluster's account, trusting the service principal capabilities.eks.amazonaws.com with sts:AssumeRole and
	// sts:TagSession (the trust policy the EKS User Guide gives every capability role). EKS gives it an access entry on this cluster itself. Updated in place.
	// Required.
	RoleArn string `pulumi:"roleArn"`
	// ArgoCD is the Argo CD configuration. Required.
	ArgoCD CapabilityArgoCD `pulumi:"argoCd"`
	// Tags are the capability's AWS tags: at most 50, keys at most 128 characters, values at most 256, no
	// "aws:" prefix (EKS's tag rules). Updated in place. Default: none.
	Tags map[string]string `pulumi:"tags,optional"`
	// AssumeRoleArn is the IAM role ARN (arn:<partition>:iam::<12-digit account>:role/<path><name>) the plugin
	// assumes to call the EKS API, the one of the cluster's aws provider when it assumes one. Changing it changes only
	// how later calls authenticate. Default: the ambient credentials.
	AssumeRoleArn string `pulumi:"assumeRoleArn,optional"`
}

// CapabilityArgoCD is the capability's Argo CD configuration (EKS's ArgoCdConfigRequest).
type CapabilityArgoCD struct {
	// IdentityCenter is the IAM Identity Center instance Argo CD's users sign in with (EKS's awsIdc), the only
	// sign-in the managed Argo CD offers. Changing it replaces the capability (UpdateCapability cannot change it).
	// Required.
	IdentityCenter CapabilityIdentityCenter `pulumi:"awsIdc"`
	// Namespace is where Argo CD reads its Applications, ApplicationSets, AppProjects and cluster secrets on the
	// cluster: a DNS-1123 label. Changing it replaces the capability. Default: "argocd" (EKS's default).
	Namespace string `pulumi:"namespace,optional"`
	// EndpointPrefix is the first label of the Argo CD server's host name (serverUrl): a DNS-1123 label, at most
	// 63 characters. Changing it replaces the capability (EKS cannot change it after creation). Default: one AWS
	// chooses.
	EndpointPrefix string `pulumi:"endpointPrefix,optional"`
	// NetworkAccess limits the Argo CD server to VPC endpoints (public access is then blocked). Updated in place.
	// Default: none (the server is public).
	NetworkAccess *CapabilityNetworkAccess `pulumi:"networkAccess,optional"`
	// RbacRoleMappings give Identity Center users and groups an Argo CD role, at most one mapping per role and at
	// most 1000 identities in all (EKS User Guide, "Configure Argo CD permissions"). Updated in place: the update
	// sends the mappings added or changed and the roles removed. Default: none (no one signs in).
	RbacRoleMappings []CapabilityRoleMapping `pulumi:"rbacRoleMappings,optional"`
}

// CapabilityIdentityCenter is an IAM Identity Center instance (EKS's ArgoCdAwsIdcConfigRequest).
type CapabilityIdentityCenter struct {
	// InstanceArn is the instance's ARN: arn:<partition>:sso:::instance/ssoins-<16 characters>. Required.
	InstanceArn string `pulumi:"idcInstanceArn"`
	// Region is the instance's region. Default: the cluster's region.
	Region string `pulumi:"idcRegion,optional"`
}

// CapabilityNetworkAccess lists the VPC endpoints the Argo CD server is reached through (EKS's
// ArgoCdNetworkAccessConfigRequest).
type CapabilityNetworkAccess struct {
	// VpceIds are interface VPC endpoint IDs, vpce-<8 or 17 hex digits>. Default: none.
	VpceIds []string `pulumi:"vpceIds,optional"`
}

// CapabilityRoleMapping gives identities an Argo CD role (EKS's ArgoCdRoleMapping).
type CapabilityRoleMapping struct {
	// Role is the Argo CD role: ADMIN, EDITOR or VIEWER. Required.
	Role string `pulumi:"role"`
	// Identities are the Identity Center users and groups given the role, at least one. Required.
	Identities []CapabilityIdentity `pulumi:"identities"`
}

// CapabilityIdentity is an IAM Identity Center user or group (EKS's SsoIdentity).
type CapabilityIdentity struct {
	// ID is the user's or group's ID in the Identity Center identity store. Required.
	ID string `pulumi:"id"`
	// Type is SSO_USER or SSO_GROUP. Required.
	Type string `pulumi:"type"`
}

// ArgoCDCapabilityState is the capability as EKS describes it: its inputs and what EKS reports.
type ArgoCDCapabilityState struct {
	ArgoCDCapabilityArgs
	// Arn is the capability's ARN.
	Arn string `pulumi:"arn"`
	// Status is EKS's status: CREATING, CREATE_FAILED, UPDATING, DELETING, DELETE_FAILED, ACTIVE or DEGRADED.
	Status string `pulumi:"status"`
	// Version is the Argo CD version EKS runs, for example "3.1.8-eks-1".
	Version string `pulumi:"version"`
	// ServerURL is the Argo CD server's URL (its API and UI; webhooks go to <serverUrl>/api/webhook).
	ServerURL string `pulumi:"serverUrl"`
	// IdentityCenterApplicationArn is the Identity Center application EKS manages for the capability.
	IdentityCenterApplicationArn string `pulumi:"idcManagedApplicationArn"`
	// HealthIssues are the issues EKS reports (code AccessDenied or ClusterUnreachable, and a message); empty
	// when healthy. Refreshed by `pulumi refresh`.
	HealthIssues []CapabilityHealthIssue `pulumi:"healthIssues"`
	// DeletePropagationPolicy is what becomes of the Kubernetes objects the capability manages when it is deleted:
	// RETAIN, the only policy EKS accepts.
	DeletePropagationPolicy string `pulumi:"deletePropagationPolicy"`
}

// CapabilityHealthIssue is one issue of a capability's health (EKS's CapabilityIssue).
type CapabilityHealthIssue struct {
	// Code is AccessDenied or ClusterUnreachable.
	Code string `pulumi:"code"`
	// Message says what is wrong.
	Message string `pulumi:"message"`
}
