// Package gitopsbridge builds GitOpsBridge (fleet:index:GitOpsBridge): the Argo CD cluster secret that
// carries a cluster's infrastructure metadata as labels (enable_<addon>) and annotations (aws_cluster_name,
// aws_region, ...), Argo CD itself on a hub, spoke registration without static credentials, ApplicationSet
// bootstrap and delivery of the secret manifest to Git.
//
// It depends on no FleetCluster type: any cluster whose facts are given to it can be registered.
package gitopsbridge
