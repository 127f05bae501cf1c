// Package fleet builds Fleet (fleet:index:Fleet): a whole multi-region fleet of EKS clusters managed by one
// Argo CD hub, from typed data (usually stack config). It resolves its input once into a plan (plan.go: every
// default, tenant selection, the hub's Argo CD settings and capacity), checks that plan as a whole (one hub, unique names,
// non-overlapping VPC CIDRs, every cluster's own FleetCluster and GitOpsBridge rules) before any resource is
// registered, keeps each cluster's identity in a ClusterLedger (fleet:index:ClusterLedger) that allocates
// VPC CIDRs from a pool and refuses changes that would replace a cluster, then composes FleetCluster and
// GitOpsBridge: the hub first, then every spoke, with one aws provider per (region, account role) and one
// Kubernetes provider for the hub shared by every spoke's cluster secret.
package fleet
