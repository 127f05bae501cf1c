// Package ledger is ClusterLedger (fleet:index:ClusterLedger), a Fleet's record of what identifies each of its
// clusters (region, account role, VPC CIDR): it refuses changes that would replace a cluster unless allowed,
// and allocates and keeps VPC CIDRs from a pool. It is a custom resource of the fleet plugin that lives only
// in the stack's state.
package ledger
