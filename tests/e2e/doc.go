// Package e2e runs the fleet example through the real Pulumi CLI and engine, the real pulumi-resource-fleet,
// pulumi-eks and Pulumi Kubernetes plugins and the offline cloud, with a real Kubernetes control plane behind every
// EKS cluster, each test in a run of its own reached through tests/fleettest (the servers, not the stack's state, say
// what is in a cluster). It checks what a platform engineer relies on: the fleet comes up in the right regions, a
// second preview and a refresh change nothing, secrets stay encrypted in state, spokes register into the hub, the
// servers enforce the guards, Pod Security and quotas, day-2 edits plan exactly what they should, destroy drains the
// clusters and leaves nothing behind, bad config fails before anything is created, and the TypeScript, Python and
// Java SDKs drive the same fleet. `make test` builds what it needs first (`make offline`).
package e2e
