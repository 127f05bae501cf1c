package awsconfig

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// Load is the AWS SDK's default configuration (environment, shared config and credentials files, instance
// roles: the chain the AWS CLI follows) in region, or in the ambient region (AWS_REGION, the profile's) when
// region is empty; through role (an IAM role ARN, assumed with sts:AssumeRole and renewed before it expires)
// when set. It fails when no region is known.
func Load(ctx context.Context, region, role string) (aws.Config, error) {
	var opts []func(*config.LoadOptions) error
	if region != "" {
		opts = append(opts, config.WithRegion(region))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("AWS credentials: %w", err)
	}
	if cfg.Region == "" {
		return aws.Config{}, fmt.Errorf("no AWS region: give the resource's region, or set AWS_REGION for the plugin")
	}
	if role != "" {
		cfg.Credentials = aws.NewCredentialsCache(stscreds.NewAssumeRoleProvider(sts.NewFromConfig(cfg), role))
	}
	return cfg, nil
}
