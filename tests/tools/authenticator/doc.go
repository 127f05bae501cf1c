// Package authenticator pins sigs.k8s.io/aws-iam-authenticator v0.6.13 (`make kube`): its server is each offline
// cluster's webhook token authenticator, as on EKS, checking the presigned STS tokens the fleet's kubeconfigs make
// against the offline STS and mapping identities from the cluster's access entries (its DynamicFile backend) and
// aws-auth ConfigMap (its EKSConfigMap backend).
package authenticator
