// Package authenticator pins sigs.k8s.io/aws-iam-authenticator v0.7.18 (`make kube`): its server is each offline
// cluster's webhook token authenticator, as on EKS, checking the presigned STS tokens the fleet's kubeconfigs make
// against the offline STS and mapping identities from the cluster's access entries (its DynamicFile backend) and
// aws-auth ConfigMap (its EKSConfigMap backend).
//
// v0.7.18 is the newest release the Go module proxy serves (it refuses v0.7.19, v0.7.20 and v0.8.0 to v0.11.0), and
// it is built on Kubernetes 1.36 (its go.mod asks for k8s.io v0.36.0), the servers' release. It is built in the tools
// workspace (../tools.work), on the control plane's Kubernetes modules, and the product's token package
// (components/drain) is the same release (TestOneDependencySet).
package authenticator
