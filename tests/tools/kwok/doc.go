// Package kwok pins kwok and kwokctl v0.8.0 (`make kube`): kwokctl runs each offline cluster's control plane from
// the binaries tests/tools/kube builds, and kwok plays the kubelets of the clusters' nodes, so Deployments, Jobs and
// Helm's waits complete with no container runtime.
package kwok
