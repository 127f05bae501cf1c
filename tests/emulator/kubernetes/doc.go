// Package kubernetes emulates the Kubernetes API servers behind pulumi-kubernetes: objects of any kind, Helm
// releases and Helm v4 Charts (the component only: no chart is rendered). An object lives in the cluster its
// provider's kubeconfig points at (the current context's server), so a test can ask which cluster holds which secret.
package kubernetes
