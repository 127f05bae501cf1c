// Package e2e runs the fleet example through the real Pulumi CLI and engine, the real pulumi-resource-fleet and
// pulumi-eks plugins and the offline cloud (tests/offline), and checks what a platform engineer relies on: the
// fleet comes up in the right regions, a second preview and a refresh change nothing, secrets stay encrypted in
// state, spokes register into the hub, destroy leaves nothing behind, bad config fails before anything is
// created, and the TypeScript and Python SDKs drive the same fleet. `make test` builds what it needs first
// (`make offline`).
package e2e
