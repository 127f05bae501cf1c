// Package account is the offline cloud's account-wide AWS APIs that `fleet preflight` calls as the deployer, over
// the offline network (tests/emulator/network): IAM's policy simulator (SimulatePrincipalPolicy) and GetRole at
// iam.amazonaws.com; Service Quotas' GetServiceQuota and GetAWSDefaultServiceQuota at
// servicequotas.<region>.amazonaws.com; and EC2's DescribeVpcs, DescribeAddresses, DescribeNatGateways and
// DescribeSubnets at ec2.<region>.amazonaws.com, answered from the store's records of the region. Protocols are
// those of the AWS SDK for Go v2 clients (service/iam v1.65.0, service/servicequotas v1.43.12, service/ec2
// v1.344.3): IAM's and EC2's query protocols (form in, XML out), Service Quotas' JSON 1.1.
//
// The simulator evaluates the deployer's identity policies (SetDeployerPolicy; AdministratorAccess until set) as the
// IAM User Guide's "Policy evaluation logic" does within one account: an explicit Deny wins, then an Allow, else
// implicitDeny. Action and NotAction match case-insensitively with * and ? wildcards, Resource and NotResource
// case-sensitively; a statement with a Condition is not applied, as IAM's simulator given no context keys finds
// none of them. Quotas are AWS's defaults (the VPC, EC2 and EKS quota pages) until SetQuota applies one.
//
// A test double: product code never imports it.
package account
