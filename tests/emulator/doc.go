// Package emulator is the offline cloud the end-to-end tests and `make demo` run against: Pulumi resource
// provider plugins (pulumi-resource-aws, -kubernetes, -github, -awsx) that answer the engine's Check, Diff,
// Create, Read, Update, Delete and Invoke calls from a store on disk (one JSON file per resource) instead of AWS, a Kubernetes API
// server or GitHub. Where a run has real control planes (package controlplane), an EKS cluster's creation starts one
// and the real Kubernetes provider stands in for pulumi-resource-kubernetes.
//
// It is a test double: product code never imports it. Every plugin process of a run shares the store named
// by $FLEET_EMULATOR_STORE (a directory with one file per resource), so a test can list what exists after an operation.
// Resource IDs and ARNs are generated, ARNs carry the provider's region and the fixed account [Account].
//
// A [Service] describes one emulated API: its package name, the invokes it answers and the per-type
// behaviour ([Kind]) of its resources. [New] turns a Service into a pulumi-go-provider [p.Provider].
package emulator
