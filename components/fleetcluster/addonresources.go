package fleetcluster

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/cloudwatch"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/iam"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/s3"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws/sqs"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// addonFacts are what an add-on's resources tell its policy and its metadata.
type addonFacts struct {
	queueArn, logGroupName, bucketName, bucketPrefix pulumi.StringOutput
	// keys are the metadata keys of the resources (components/addons Addon.Keys).
	keys pulumi.StringMap
}

// addonResources creates the AWS resources the add-on's contract row asks for.
func (b *builder) addonResources(a addons.Addon, nodeRole *iam.Role) (addonFacts, error) {
	empty := pulumi.String("").ToStringOutput()
	f := addonFacts{queueArn: empty, logGroupName: empty, bucketName: empty, bucketPrefix: empty, keys: pulumi.StringMap{}}
	s := b.settings
	for _, r := range a.Resources {
		switch r {
		case addons.LogGroup:
			lg, err := cloudwatch.NewLogGroup(b.ctx, b.addonChild(a, "logs"), &cloudwatch.LogGroupArgs{
				Name:            pulumi.String(s.AwsForFluentbit.LogGroupName),
				RetentionInDays: pulumi.Int(s.AwsForFluentbit.RetentionInDays),
				Tags:            b.tags(s.AwsForFluentbit.LogGroupName),
			}, b.resource()...)
			if err != nil {
				return f, err
			}
			f.logGroupName = lg.Name
			f.keys[a.Name+addons.LogGroupNameSuffix] = lg.Name
		case addons.InterruptionQueue:
			q, err := b.interruptionQueue(a)
			if err != nil {
				return f, err
			}
			f.queueArn = q.Arn
			f.keys[a.Name+addons.QueueNameSuffix], f.keys[a.Name+addons.QueueURLSuffix] = q.Name, q.Url
		case addons.BackupBucket:
			f.bucketPrefix = pulumi.String(s.Velero.BucketPrefix).ToStringOutput()
			f.bucketName = pulumi.String(s.Velero.BucketName).ToStringOutput()
			if s.Velero.BucketName == "" {
				bucket, err := b.backupBucket(a)
				if err != nil {
					return f, err
				}
				f.bucketName = bucket
			}
			f.keys[a.Name+addons.BucketNameSuffix], f.keys[a.Name+addons.BucketPrefixSuffix] = f.bucketName, f.bucketPrefix
		case addons.NodeInstanceProfile:
			name := roleName(b.args.ClusterName, b.args.Region, irsaRolePurpose(a.Name)+"-node")
			ip, err := iam.NewInstanceProfile(b.ctx, b.addonChild(a, "node"), &iam.InstanceProfileArgs{
				Name: pulumi.String(name), Role: nodeRole.Name, Tags: b.tags(name),
			}, b.resource()...)
			if err != nil {
				return f, err
			}
			f.keys[a.Name+addons.NodeRoleNameSuffix], f.keys[a.Name+addons.InstanceProfileKeySuffix] = nodeRole.Name, ip.Name
		}
	}
	for k, v := range s.metadata(a.Name) {
		f.keys[k] = pulumi.String(v)
	}
	return f, nil
}

// addonChild names a child of an add-on: "<component>-<add-on purpose>-<part>".
func (b *builder) addonChild(a addons.Addon, part string) string {
	return childName(b.name, irsaRolePurpose(a.Name)+"-"+part)
}

// interruptionQueue is an SQS queue (5-minute retention, SSE-SQS) that EventBridge and SQS may send to over
// TLS only, with one EventBridge rule and target per event of addons.InterruptionEvents (Karpenter's
// cloudformation.yaml; the Node Termination Handler's queue mode).
func (b *builder) interruptionQueue(a addons.Addon) (*sqs.Queue, error) {
	name := roleName(b.args.ClusterName, b.args.Region, irsaRolePurpose(a.Name))
	q, err := sqs.NewQueue(b.ctx, b.addonChild(a, "queue"), &sqs.QueueArgs{
		Name:                    pulumi.String(name),
		MessageRetentionSeconds: pulumi.Int(300),
		SqsManagedSseEnabled:    pulumi.Bool(true),
		Tags:                    b.tags(name),
	}, b.resource()...)
	if err != nil {
		return nil, err
	}
	if _, err := sqs.NewQueuePolicy(b.ctx, b.addonChild(a, "queue"), &sqs.QueuePolicyArgs{
		QueueUrl: q.Url,
		Policy: q.Arn.ApplyT(func(arn string) string {
			return InterruptionQueuePolicy(arn).JSON()
		}).(pulumi.StringOutput),
	}, b.resource()...); err != nil {
		return nil, err
	}
	for _, e := range addons.InterruptionEvents(a.Name) {
		pattern, _ := json.Marshal(map[string][]string{"source": {e.Source}, "detail-type": {e.DetailType}})
		rule, err := cloudwatch.NewEventRule(b.ctx, b.addonChild(a, e.Name), &cloudwatch.EventRuleArgs{
			Description:  pulumi.Sprintf("%s of EKS cluster %s: %s", a.Name, b.args.ClusterName, e.DetailType),
			EventPattern: pulumi.String(pattern),
			Tags:         b.tags(name + "-" + e.Name),
		}, b.resource()...)
		if err != nil {
			return nil, err
		}
		if _, err := cloudwatch.NewEventTarget(b.ctx, b.addonChild(a, e.Name), &cloudwatch.EventTargetArgs{
			Rule: rule.Name, Arn: q.Arn, TargetId: pulumi.String("InterruptionQueue"),
		}, b.resource()...); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// InterruptionQueuePolicy lets EventBridge and SQS send messages to the queue, and denies any access
// without TLS (Karpenter v1.14 cloudformation.yaml, KarpenterInterruptionQueuePolicy).
func InterruptionQueuePolicy(queueArn string) iampolicy.Document {
	send := iampolicy.Allow("SendEvents", []string{"sqs:SendMessage"}, []string{queueArn})
	send.Principal = map[string]any{"Service": []string{"events.amazonaws.com", "sqs.amazonaws.com"}}
	deny := iampolicy.Statement{Sid: "DenyHTTP", Effect: "Deny", Principal: map[string]any{"AWS": "*"}, Action: []string{"sqs:*"},
		Resource: []string{queueArn}}.When("Bool", "aws:SecureTransport", "false")
	return iampolicy.New(send, deny)
}

// bucketNameUnsafe are the characters of a cluster name S3 bucket names cannot hold.
var bucketNameUnsafe = regexp.MustCompile(`[^a-z0-9-]+`)

// backupBucket creates Velero's bucket: named <cluster>-velero-<random> (bucket names are global; S3 allows a
// prefix of at most 37 characters), SSE-S3 encryption, versioning, every public access blocked, and bucket
// owner enforced (no ACLs). It returns the bucket name. The bucket and its settings are retained when velero is
// disabled or the stack destroyed (RetainOnDelete): they hold the backups, and deleting a bucket that is not
// empty would fail the update anyway.
func (b *builder) backupBucket(a addons.Addon) (pulumi.StringOutput, error) {
	prefix := strings.Trim(bucketNameUnsafe.ReplaceAllString(strings.ToLower(b.args.ClusterName), "-"), "-")
	if len(prefix) > 29 {
		prefix = strings.Trim(prefix[:29], "-")
	}
	prefix += "-velero-"
	opts := b.resource(pulumi.RetainOnDelete(true))
	bucket, err := s3.NewBucketV2(b.ctx, b.addonChild(a, "bucket"), &s3.BucketV2Args{
		BucketPrefix: pulumi.String(prefix),
		Tags:         b.tags(b.args.ClusterName + "-velero"),
	}, opts...)
	if err != nil {
		return pulumi.StringOutput{}, err
	}
	if _, err := s3.NewBucketPublicAccessBlock(b.ctx, b.addonChild(a, "bucket"), &s3.BucketPublicAccessBlockArgs{
		Bucket: bucket.ID(), BlockPublicAcls: pulumi.Bool(true), BlockPublicPolicy: pulumi.Bool(true),
		IgnorePublicAcls: pulumi.Bool(true), RestrictPublicBuckets: pulumi.Bool(true),
	}, opts...); err != nil {
		return pulumi.StringOutput{}, err
	}
	if _, err := s3.NewBucketOwnershipControls(b.ctx, b.addonChild(a, "bucket"), &s3.BucketOwnershipControlsArgs{
		Bucket: bucket.ID(),
		Rule:   &s3.BucketOwnershipControlsRuleArgs{ObjectOwnership: pulumi.String("BucketOwnerEnforced")},
	}, opts...); err != nil {
		return pulumi.StringOutput{}, err
	}
	if _, err := s3.NewBucketVersioningV2(b.ctx, b.addonChild(a, "bucket"), &s3.BucketVersioningV2Args{
		Bucket:                  bucket.ID(),
		VersioningConfiguration: &s3.BucketVersioningV2VersioningConfigurationArgs{Status: pulumi.String("Enabled")},
	}, opts...); err != nil {
		return pulumi.StringOutput{}, err
	}
	if _, err := s3.NewBucketServerSideEncryptionConfigurationV2(b.ctx, b.addonChild(a, "bucket"),
		&s3.BucketServerSideEncryptionConfigurationV2Args{
			Bucket: bucket.ID(),
			Rules: s3.BucketServerSideEncryptionConfigurationV2RuleArray{&s3.BucketServerSideEncryptionConfigurationV2RuleArgs{
				ApplyServerSideEncryptionByDefault: &s3.BucketServerSideEncryptionConfigurationV2RuleApplyServerSideEncryptionByDefaultArgs{
					SseAlgorithm: pulumi.String("AES256"),
				},
			}},
		}, opts...); err != nil {
		return pulumi.StringOutput{}, err
	}
	return bucket.Bucket, nil
}
