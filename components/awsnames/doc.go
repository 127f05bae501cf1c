// Package awsnames holds the AWS naming rules more than one component checks its inputs against: EKS cluster
// names, region names, IAM role ARNs and tags, each with the API that sets it.
package awsnames
