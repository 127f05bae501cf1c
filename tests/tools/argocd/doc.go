// Package argocd pins the Argo CD the offline hubs run as host processes (`make argocd`): the `argocd` binary of
// github.com/argoproj/argo-cd/v3 v3.5.7, which is the application controller, the ApplicationSet controller, the repo
// server and argocd-k8s-auth by the name it is started as, and Helm v4.2.1, the Helm Argo CD v3.5.7's image ships
// (hack/tool-versions.sh), which the repo server renders charts with.
//
// The hub's chart (argo-cd 10.1.1) pins Argo CD v3.4.4, which cannot be built here: every v3.4 and v3.5 release
// replaces its github.com/argoproj/argo-cd/gitops-engine with the copy in its own tree, which the module proxy does
// not serve, and the nearest gitops-engine it serves (2026-07-08) no longer has the signature v3.4.4 calls
// (util/kube: "too many arguments in call to k.ManageServerSideDiffDryRuns"). v3.5.7 builds with the gitops-engine
// of 2026-09-14, as the contract tests do (tests/contract/go.mod). Its CRDs are the chart's, from the hub's Helm
// release; v3.5's new status fields the v3.4 schema does not hold are pruned by the API server.
//
// go.mod copies argo-cd's own replace block (a dependency's replace directives do not apply). It builds in the
// workspace ../tools.work, on the contract tests' dependency versions. The whole binary is built: the hubs start its
// `argocd admin` too (the chart's redis-secret-init), which needs most of what the CLI and the API server compile.
package argocd
