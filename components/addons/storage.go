package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// fsxCSIDriverPolicies are the FSx for Lustre CSI driver's, as terraform-aws-eks-blueprints-addons writes it
// for the version it installs (chart 1.9.0, driver 1.2.0, since 2024-03).
var fsxCSIDriverPolicies = []Policy{{Versions: ">=1.2.0 <1.3.0", Inline: fsxCSIDriverPolicy,
	Source: "aws-ia/terraform-aws-eks-blueprints-addons main.tf (aws_fsx_csi_driver) at d78fb74"}}

// fsxCSIDriverPolicy follows terraform-aws-eks-blueprints-addons' FSx for Lustre CSI driver policy.
func fsxCSIDriverPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("AllowCreateServiceLinkedRoles", []string{"iam:CreateServiceLinkedRole", "iam:AttachRolePolicy",
			"iam:PutRolePolicy"}, []string{c.arn("iam", "", "*", "role/aws-service-role/s3.data-source.lustre.fsx."+c.dnsSuffix()+"/*")}),
		iampolicy.Allow("AllowCreateServiceLinkedRole", []string{"iam:CreateServiceLinkedRole"},
			[]string{c.arn("iam", "", c.AccountID, "role/*")}).
			When("StringLike", "iam:AWSServiceName", []string{"fsx.amazonaws.com"}),
		iampolicy.Allow("AllowListBuckets", []string{"s3:ListBucket"}, []string{c.arn("s3", "", "", "*")}),
		iampolicy.Allow("ManageFileSystems", []string{"fsx:CreateFileSystem", "fsx:DeleteFileSystem", "fsx:UpdateFileSystem"},
			[]string{c.regional("fsx", "file-system/*")}),
		iampolicy.Allow("DescribeAndTag", []string{"fsx:DescribeFileSystems", "fsx:TagResource"}, []string{c.regional("fsx", "*")}),
	)
}

// veleroDocs is where velero-plugin-for-aws, which makes Velero's AWS calls, publishes its policy.
const veleroDocs = "vmware-tanzu/velero-plugin-for-aws README.md"

// veleroPolicies are Velero's by Velero version (its chart's appVersion), through the plugin version the
// plugin's compatibility table pairs with it: plugin v1.0.0 to v1.10.1 (Velero v1.2 to v1.14) publish one
// document, v1.11.0 to v1.13.2 (Velero v1.15 to v1.17) add s3:PutObjectTagging (for the backup storage
// location's config.tagging).
var veleroPolicies = []Policy{
	{Versions: ">=1.2.0 <1.15.0", Inline: func(c PolicyContext) iampolicy.Document { return veleroPolicy(c, false) },
		Source: veleroDocs + " at v1.7.1, scoped to the backup bucket, account and region"},
	{Versions: ">=1.15.0 <1.18.0", Inline: func(c PolicyContext) iampolicy.Document { return veleroPolicy(c, true) },
		Source: veleroDocs + " at v1.11.0, scoped to the backup bucket, account and region"},
}

// veleroPolicy follows velero-plugin-for-aws's README: EBS snapshots in the region, and objects of the
// backup bucket only (object tagging too when tagging, for config.tagging), and only while the bucket is in
// this account (s3:ResourceAccount), so a bucket name taken over elsewhere receives nothing.
func veleroPolicy(c PolicyContext, tagging bool) iampolicy.Document {
	bucket := c.arn("s3", "", "", c.BucketName)
	objects := []string{"s3:GetObject", "s3:DeleteObject", "s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"}
	if tagging {
		objects = []string{"s3:GetObject", "s3:DeleteObject", "s3:PutObject", "s3:PutObjectTagging",
			"s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"}
	}
	return iampolicy.New(
		iampolicy.Allow("Snapshots", []string{"ec2:DescribeVolumes", "ec2:DescribeSnapshots", "ec2:CreateTags",
			"ec2:CreateVolume", "ec2:CreateSnapshot", "ec2:DeleteSnapshot"}, []string{"*"}).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("BackupObjects", objects, []string{bucket + "/*"}).
			When("StringEquals", "s3:ResourceAccount", c.AccountID),
		iampolicy.Allow("BackupBucket", []string{"s3:ListBucket"}, []string{bucket}).
			When("StringEquals", "s3:ResourceAccount", c.AccountID),
	)
}
