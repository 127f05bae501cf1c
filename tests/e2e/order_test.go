package e2e

import "github.com/gitops-fleet/pulumi-fleet/tests/fleettest"

// The tests that take longest start first (fleettest.Order): two run at a time, and a long one started last would
// leave the other run idle at the end. Measured on a 2-core machine, two at a time, in seconds: TestDay2 ~450,
// TestDelivery, TestDevFleet and TestShards ~190, TestShardsThroughGit ~165; the others under 130.
func init() {
	fleettest.Order("TestDay2", "TestDelivery", "TestDevFleet", "TestShards", "TestShardsThroughGit",
		"TestArgoCDSyncsAddons", "TestSwitchToGitDelivery", "TestDeliveryOnRealServers", "TestManagedHub",
		"TestJavaProjectWithPackageAdd")
}
