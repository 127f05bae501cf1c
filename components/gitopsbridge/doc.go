// Package gitopsbridge builds GitOpsBridge (fleet:index:GitOpsBridge): the Argo CD cluster secret that
// carries a cluster's infrastructure metadata as labels (enable_<addon>) and annotations (aws_cluster_name,
// aws_region, ...), Argo CD itself on a hub, spoke registration without static credentials, ApplicationSet
// bootstrap and delivery of the secret manifest to Git. On a hub it also fences each path from Git: an Argo CD
// project per path (project.go; the add-ons' and workloads' ApplicationSets in namespaces of their own, so their
// Applications reach one project each) and the API server's admission guards on cluster secrets (guard.go) and on
// Applications and projects (appguard.go); and it lists what Argo CD's identities may write on the hub, since only
// RBAC keeps the guards themselves (rbac.go: the server's cluster role; the application controller's, narrowed to
// the fleet's paths with a Role per namespace, controllerroles.go, unless the hub runs add-ons).
//
// It depends on no FleetCluster type: any cluster whose facts are given to it can be registered.
package gitopsbridge
