// Package fleetstack is the fleet example's Pulumi program as a package function, so that it runs both under
// `pulumi up` (examples/fleet/main.go with the Go language host) and as an Automation API inline program
// (`make demo`, tests/e2e).
//
// The stack config (namespace gitops-fleet) is the input of one Fleet: the clusters (name, region, role
// hub|spoke, environment, VPC CIDR, node groups, add-ons and their settings), fleet-wide defaults, the GitOps
// repositories and, optionally, Git delivery of the cluster secrets. The Fleet checks the whole fleet before
// any resource is registered, then builds the hub and registers every spoke into it.
//
// It uses the generated Go SDK (sdk/go/fleet), exactly as a `pulumi package add` user would: the components run
// in the pulumi-resource-fleet plugin.
package fleetstack
