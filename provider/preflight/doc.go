// Package preflight checks an AWS account before a fleet's `pulumi up` into it, for `fleet preflight`
// (provider/cmd/fleet): it reads the stack's plan (the engine events of `pulumi preview`) and asks AWS, as the
// deployer, what would stop the plan or make it cost more than expected. Every finding is reported at once:
//   - permissions: the IAM actions the plan's creates, updates and deletes need (Actions, one row per resource
//     type), simulated for the deployer with iam:SimulatePrincipalPolicy;
//   - quotas: the service quotas a fleet meets first (VPCs, Elastic IPs, NAT gateways per Availability Zone and EKS
//     clusters per region), against what the region holds now plus what the plan adds;
//   - versions: each planned EKS cluster's Kubernetes version against EKS's support calendar
//     (DescribeClusterVersions): not offered, past extended support, in extended support (six times the standard
//     price) or within provider/status.SupportWarningDays of it;
//   - capabilities: whether EKS serves the Capabilities API in a managed hub's region.
//
// A check it cannot make (the deployer may not call an API) is a finding of its own, never a pass. Why a command
// and not a check at preview: the components cannot see the whole plan, nor should every preview call IAM's
// simulator and Service Quotas, which a deployer that can `up` need not be allowed to call.
package preflight
