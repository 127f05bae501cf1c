package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// fsxCSIDriverPolicy follows terraform-aws-eks-blueprints-addons' FSx for Lustre CSI driver policy.
func fsxCSIDriverPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(
		iampolicy.Allow("AllowCreateServiceLinkedRoles", []string{"iam:CreateServiceLinkedRole", "iam:AttachRolePolicy",
			"iam:PutRolePolicy"}, []string{c.arn("iam", "", "*", "role/aws-service-role/s3.data-source.lustre.fsx.amazonaws.com/*")}),
		iampolicy.Allow("AllowCreateServiceLinkedRole", []string{"iam:CreateServiceLinkedRole"},
			[]string{c.arn("iam", "", c.AccountID, "role/*")}).
			When("StringLike", "iam:AWSServiceName", []string{"fsx.amazonaws.com"}),
		iampolicy.Allow("AllowListBuckets", []string{"s3:ListBucket"}, []string{c.arn("s3", "", "", "*")}),
		iampolicy.Allow("ManageFileSystems", []string{"fsx:CreateFileSystem", "fsx:DeleteFileSystem", "fsx:UpdateFileSystem"},
			[]string{c.regional("fsx", "file-system/*")}),
		iampolicy.Allow("DescribeAndTag", []string{"fsx:DescribeFileSystems", "fsx:TagResource"}, []string{c.regional("fsx", "*")}),
	)
}

// veleroPolicy follows velero-plugin-for-aws's README: EBS snapshots in the region, and objects of the
// backup bucket only (object tagging included, which Velero uses for backup metadata), and only while the
// bucket is in this account (s3:ResourceAccount), so a bucket name taken over elsewhere receives nothing.
func veleroPolicy(c PolicyContext) iampolicy.Document {
	bucket := c.arn("s3", "", "", c.BucketName)
	return iampolicy.New(
		iampolicy.Allow("Snapshots", []string{"ec2:DescribeVolumes", "ec2:DescribeSnapshots", "ec2:CreateTags",
			"ec2:CreateVolume", "ec2:CreateSnapshot", "ec2:DeleteSnapshot"}, []string{"*"}).
			When("StringEquals", "aws:RequestedRegion", c.Region),
		iampolicy.Allow("BackupObjects", []string{"s3:GetObject", "s3:DeleteObject", "s3:PutObject", "s3:PutObjectTagging",
			"s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"}, []string{bucket + "/*"}).
			When("StringEquals", "s3:ResourceAccount", c.AccountID),
		iampolicy.Allow("BackupBucket", []string{"s3:ListBucket"}, []string{bucket}).
			When("StringEquals", "s3:ResourceAccount", c.AccountID),
	)
}
