// Package main builds the real pulumi-resource-kubernetes for offline runs: the Kubernetes objects the fleet writes
// go through the provider users run, to the real API servers behind the offline clusters (tests/controlplane).
package main
