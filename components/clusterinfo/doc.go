// Package clusterinfo holds ClusterInfo (fleet:index:ClusterInfo): the facts of a built Kubernetes cluster
// that FleetCluster produces as its clusterInfo output and GitOpsBridge takes as its cluster input, so that
// the one plugs into the other with no glue and neither depends on the other.
package clusterinfo
