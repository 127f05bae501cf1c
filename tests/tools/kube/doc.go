// Package kube pins the Kubernetes control plane the offline clusters run (`make kube`): kube-apiserver,
// kube-controller-manager, kube-scheduler and kubectl from k8s.io/kubernetes v1.36.1, and etcd v3.6.8, the version
// that Kubernetes release pins: the minor of the Kubernetes admission code the contract tests judge the fleet's
// guards with (tests/contract requires the same k8s.io/kubernetes), so that a guard the contract tests admit is the
// guard the servers enforce. k8s.io/kubernetes is not meant to be required as a module: its go.mod points the staging
// modules (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0, so go.mod replaces each with v0.36.1.
package kube
