// Package aws emulates the AWS APIs pulumi-aws, pulumi-eks and the fleet components call: IAM, EC2 networking,
// EKS, KMS, and the identity, region, partition, availability-zone and policy-document functions. Resources
// live in the region of the provider that created them; the account is always emulator.Account.
package aws
