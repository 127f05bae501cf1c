// Package components holds the Pulumi components of pulumi-fleet, one package each: fleetcluster
// (fleet:index:FleetCluster) and gitopsbridge (fleet:index:GitOpsBridge), plus problems, their shared
// input-error type.
package components
