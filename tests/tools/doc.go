// Package tools is the table of the pinned tools the offline runs and the tests build (versions.mk), read by the
// harness. Each tool is a module of its own in a folder here (its go.mod pins the tool and what it builds with, kept out
// of the product's go.mod); `make offline` builds them into bin/, each once per change of its go.sum. So that make test
// compiles a package once, the tools built from Kubernetes, Argo CD and aws-iam-authenticator share one workspace with
// the contract tests (tools.work), and the CLI requires the versions the product does of what they share
// (TestOneDependencySet); the Kubernetes provider, which compiles only against its own Pulumi release, cannot.
package tools
