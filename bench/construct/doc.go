// Package construct measures building the fleet's components in process, under the mocks of tests/mocks
// (no engine, no plugins): FleetCluster and GitOpsBridge for every cluster of a generated fleet, with time and
// allocations per cluster.
package construct
