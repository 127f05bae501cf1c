// Package charts serves Helm chart repositories from local chart directories, in the offline network: the real
// Kubernetes provider installs the charts the fleet pins (Argo CD's from https://argoproj.github.io/argo-helm) from
// an index.yaml and chart archives as a chart repository serves them, made here from the upstream chart's files,
// and the charts pinned as OCI artifacts (PKO's and Kargo's, oci://ghcr.io/...) from an in-memory OCI registry
// (go-containerregistry's) they are pushed into as `helm push` stores them.
package charts
