// Package admission holds the hub's admission guards: Kubernetes ValidatingAdmissionPolicies
// (admissionregistration.k8s.io/v1, GA in Kubernetes 1.30) with their bindings, written as plain values so that
// the contract test can run them through Kubernetes' own admission code, and registered with the official
// pulumi-kubernetes types. GitOpsBridge guards the cluster secrets Git can register; StackDelivery guards the
// pulumi.com Stacks the manifests repository can deliver.
package admission
