// Package fleetstack is the fleet example's Pulumi program as a package function, so that it runs both under
// `pulumi up` (examples/fleet/main.go with the Go language host) and as an Automation API inline program
// (`make demo`, tests/e2e).
//
// The stack config (namespace gitops-fleet) lists the clusters of a fleet (name, region, environment, VPC CIDR,
// role hub|spoke, node groups, add-ons), the GitOps repositories and, optionally, Git delivery of the cluster
// secrets. Run builds the hub first (FleetCluster, then GitOpsBridge with Argo CD); every spoke gets its
// gitopsAccess.hubRoleArn from the hub's Argo CD management role and registers into the hub with the hub's
// kubeconfig. The whole config is checked before any resource is registered.
//
// It uses the generated Go SDK (sdk/go/fleet), exactly as a `pulumi package add` user would: the components run
// in the pulumi-resource-fleet plugin.
package fleetstack
