// Package components holds the Pulumi components of pulumi-fleet, one package each: fleet (fleet:index:Fleet,
// the whole fleet from typed data), fleetcluster (fleet:index:FleetCluster) and gitopsbridge
// (fleet:index:GitOpsBridge), which Fleet composes; delivery (fleet:index:StackDelivery, the fleet's own stacks
// delivered by GitOps: PKO, Argo CD, Kargo); ledger (fleet:index:ClusterLedger, Fleet's record of its
// clusters' identities); addons, the GitOps Bridge add-on contract table; clusterinfo, the cluster facts
// FleetCluster produces and GitOpsBridge takes; iampolicy, IAM policy documents; and problems, their shared
// input-error type.
package components
