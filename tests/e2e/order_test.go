package e2e

import "github.com/gitops-fleet/pulumi-fleet/tests/fleettest"

// The tests that take longest start first (fleettest.Order): a few run at a time, and a long one started last would
// leave the other runs idle at the end. Measured on a 2-core machine, three at a time, in seconds: TestDay2 ~540,
// TestDelivery ~180, TestDevFleet, TestShards and TestShardsThroughGit ~150; the others under 120.
func init() {
	fleettest.Order("TestDay2", "TestDelivery", "TestDevFleet", "TestShards", "TestShardsThroughGit",
		"TestArgoCDSyncsAddons", "TestSwitchToGitDelivery", "TestDeliveryOnRealServers", "TestManagedHub",
		"TestJavaProjectWithPackageAdd")
}
