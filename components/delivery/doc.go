// Package delivery is StackDelivery (fleet:index:StackDelivery): the fleet's own Pulumi stacks delivered by
// GitOps on the hub. The Pulumi Kubernetes Operator (PKO v2) reconciles one pulumi.com/v1 Stack per update
// stage, Argo CD syncs each stage's Stack from the stage's own branch (one Application per stage, with PKO's Stack
// health check in argocd-cm), and Kargo promotes a commit of the Pulumi program through a graph of stages (a
// Warehouse on the program repository; update stages and approval gates; fan-out and fan-in). Pulumi writes each
// stage's Stack template on the manifests branch and creates the stage's branch; Kargo's promotions render the
// template with the promoted commit into that branch. Pulumi and Kargo never write the same thing.
//
// The objects are written against PKO v2.9.0 (operator/api/pulumi/shared/stack_types.go), Kargo v1.11.2
// (api/v1alpha1 and the promotion step schemas of pkg/promotion/runner/builtin/schemas) and Argo CD v3
// (argoproj.io/v1alpha1 Application).
package delivery
