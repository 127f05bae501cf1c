// Package charts serves Helm chart repositories from local chart directories, in the offline network: the real
// Kubernetes provider installs the charts the fleet pins (Argo CD's from https://argoproj.github.io/argo-helm) from
// an index.yaml and chart archives as a chart repository serves them, made here from the upstream chart's files.
package charts
