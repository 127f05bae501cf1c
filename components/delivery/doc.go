// Package delivery is StackDelivery (fleet:index:StackDelivery): the fleet's own Pulumi stacks delivered by
// GitOps on the hub. The Pulumi Kubernetes Operator (PKO v2) reconciles one pulumi.com/v1 Stack per stage, Argo
// CD syncs each stage's Stack manifest from Git (one Application per stage, with PKO's Stack health check in
// argocd-cm), and Kargo promotes a commit of the Pulumi program from stage to stage (a Warehouse on the program
// repository, Stages chained from the first, promotion steps that write spec.commit into the stage's manifest,
// approval gates as RBAC). Pulumi writes the initial manifests to GitHub; from then on Git is the source of truth.
//
// The objects are written against PKO v2.9.0 (operator/api/pulumi/shared/stack_types.go), Kargo v1.11.2
// (api/v1alpha1 and the promotion step schemas of pkg/promotion/runner/builtin/schemas) and Argo CD v3
// (argoproj.io/v1alpha1 Application).
package delivery
