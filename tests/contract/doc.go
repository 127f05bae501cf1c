// Package contract holds the add-on contract test: after `up` of a fleet on the offline cloud it takes the
// hub's Argo CD cluster secrets and runs Argo CD's own code over them (util/db SecretToCluster, the
// ApplicationSet cluster and merge generators and template renderer of github.com/argoproj/argo-cd/v3 v3.5.7)
// with ApplicationSets written from the contract table (components/addons) in the selector and key shapes of
// the GitOps Bridge control-plane template. It also runs Argo CD's settings manager and Lua VM over StackDelivery's
// argocd-cm entry, the health check of pulumi.com/v1 Stacks. It is its own module so that Argo CD's dependencies and its pinned
// k8s.io versions stay out of the product's go.mod.
package contract
