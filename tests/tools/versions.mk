# The pinned tools of the offline runs and the tests, one table: the Makefile includes it, the harness reads it
# (tests/tools.Versions), tests/README.md shows it (make docs), and TestVersionsMatchModules checks each version against
# the go.mod of the tool's folder, tests/tools/<folder>. Each entry: a comment `<folder>: what`, then the version.

# cli: the Pulumi CLI (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
PULUMI_VERSION := 3.259.0
# kube: kube-apiserver, kube-controller-manager, kube-scheduler and kubectl (k8s.io/kubernetes)
KUBE_VERSION := v1.36.1
# kube: etcd, the version that Kubernetes release pins (go.etcd.io/etcd/server/v3)
ETCD_VERSION := 3.6.8
# kwok: kwok, the clusters' kubelets, and kwokctl, which starts the control planes (sigs.k8s.io/kwok)
KWOK_VERSION := v0.8.0
# authenticator: aws-iam-authenticator, the API servers' EKS token webhook (sigs.k8s.io/aws-iam-authenticator)
AUTHENTICATOR_VERSION := v0.7.18
# kubeprovider: the Pulumi Kubernetes provider, as the version it reports (github.com/pulumi/pulumi-kubernetes)
KUBE_PROVIDER_VERSION := 4.33.0
# argocd: Argo CD's controllers and repo server on the offline hubs (github.com/argoproj/argo-cd/v3)
ARGOCD_VERSION := v3.5.7
# argocd: the Helm that Argo CD's repo server renders charts with (helm.sh/helm/v4)
HELM_VERSION := v4.2.1
# gotestsum: runs `go test` for make test and keeps its events for the timing table (gotest.tools/gotestsum)
GOTESTSUM_VERSION := v1.13.0
# iamlint: parliament, the IAM policy linter tests/iamlint runs (PyPI; iamlint/requirements.txt pins it and its dependencies)
PARLIAMENT_VERSION := 1.6.4
# iamlint: cloudsplaining, the IAM risk scanner tests/iamlint runs (PyPI; iamlint/requirements.txt)
CLOUDSPLAINING_VERSION := 0.9.1
