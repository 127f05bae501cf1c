package addons

import "slices"

// The cluster-wide GitOps Bridge metadata keys (terraform-aws-eks-blueprints gitops patterns): every cluster
// secret carries them as annotations.
const (
	ClusterNameKey       = "aws_cluster_name"
	RegionKey            = "aws_region"
	AccountIDKey         = "aws_account_id"
	VpcIDKey             = "aws_vpc_id"
	KubernetesVersionKey = "kubernetes_version"
	EnvironmentKey       = "environment"
)

// ClusterKeys are the cluster-wide metadata keys, sorted.
var ClusterKeys = []string{AccountIDKey, ClusterNameKey, RegionKey, VpcIDKey, EnvironmentKey, KubernetesVersionKey}

// LabelKeys are metadata keys that are labels too, because ApplicationSets select on them: the aws/
// cert-manager and Velero sets require aws_cluster_name to exist, and the OSS cert-manager set requires it not
// to (addons-aws-oss-cert-manager-appset.yaml, addons-cert-manager-appset.yaml).
var LabelKeys = []string{ClusterNameKey}

// RepoKeys are the repository keys every ApplicationSet of the template reads (addons_repo_url,
// addons_repo_revision for the values source; addons_repo_basepath for the value files).
var RepoKeys = []string{"addons_repo_basepath", "addons_repo_revision", "addons_repo_url"}

// Keys external-dns's ApplicationSet reads from FleetCluster's external_dns settings.
const (
	// ExternalDNSDomainFiltersKey holds the domain filters as a YAML flow list, ["example.com"].
	ExternalDNSDomainFiltersKey = "external_dns_domain_filters"
	// ExternalDNSPolicyKey holds the record policy, "upsert-only" or "sync".
	ExternalDNSPolicyKey = "external_dns_policy"
)

// Metadata key suffixes of the identity and the resources.
const (
	IAMRoleArnSuffix         = "_iam_role_arn"
	NamespaceSuffix          = "_namespace"
	LogGroupNameSuffix       = "_log_group_name"
	QueueNameSuffix          = "_sqs_queue_name"
	QueueURLSuffix           = "_sqs_queue_url"
	BucketNameSuffix         = "_backup_s3_bucket_name"
	BucketPrefixSuffix       = "_backup_s3_bucket_prefix"
	NodeRoleNameSuffix       = "_node_iam_role_name"
	InstanceProfileKeySuffix = "_node_instance_profile_name"
)

// Keys are the metadata keys FleetCluster writes for the add-on, sorted: the identity's role ARN, namespace
// and service accounts, one or two per resource, and SettingKeys.
func (a Addon) Keys() []string {
	var keys []string
	if id := a.Identity; id != nil {
		p := id.Prefix(a.Name)
		keys = append(keys, p+IAMRoleArnSuffix, p+NamespaceSuffix)
		for _, sa := range id.ServiceAccounts {
			keys = append(keys, p+"_"+sa.Key)
		}
	}
	for _, r := range a.Resources {
		switch r {
		case LogGroup:
			keys = append(keys, a.Name+LogGroupNameSuffix)
		case InterruptionQueue:
			keys = append(keys, a.Name+QueueNameSuffix, a.Name+QueueURLSuffix)
		case BackupBucket:
			keys = append(keys, a.Name+BucketNameSuffix, a.Name+BucketPrefixSuffix)
		case NodeInstanceProfile:
			keys = append(keys, a.Name+NodeRoleNameSuffix, a.Name+InstanceProfileKeySuffix)
		}
	}
	keys = append(keys, a.SettingKeys...)
	slices.Sort(keys)
	return keys
}
