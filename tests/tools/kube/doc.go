// Package kube pins the Kubernetes control plane the offline clusters run (`make kube`): kube-apiserver,
// kube-controller-manager, kube-scheduler and kubectl from k8s.io/kubernetes v1.33.13, and etcd v3.5.21, the
// version that Kubernetes release pins. k8s.io/kubernetes is not meant to be required as a module: its go.mod
// points the staging modules (k8s.io/api, k8s.io/apiserver, ...) at v0.0.0, so go.mod replaces each with v0.33.13.
package kube
