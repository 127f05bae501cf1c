// Package admission holds the hub's admission guards: Kubernetes ValidatingAdmissionPolicies
// (admissionregistration.k8s.io/v1, GA in Kubernetes 1.30) with their bindings, written as plain values so that
// the contract test can run them through Kubernetes' own admission code, and registered with the official
// pulumi-kubernetes types. GitOpsBridge guards the cluster secrets Git can register; StackDelivery guards the
// pulumi.com Stacks the manifests repository can deliver; Tenant guards each tenant's namespaces on its clusters,
// and keeps those guards from every writer but the stack (roles, bindings and kube-system's controller accounts).
// Every guard renders its exemptions from one typed set (Exemptions), and every component lists its guards (List) in
// the fleet's table (Guards), from which docs/security.md's table is generated and against which the contract tests
// check that each guard has attack tests.
package admission
