package fleettest_test

import (
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// An end-to-end test: its own run, parallel with the others, everything reached by name.
func testSomething(t *testing.T) {
	t.Parallel()
	env := fleettest.New(t, fleettest.Options{})
	dev := env.Fleet("dev") // examples/fleet's stack dev
	dev.Up("up")
	secrets := env.Hub().ClusterSecrets()      // what the hub's real API server holds
	spoke := env.Cluster("spoke-usw2").Typed() // client-go, as the cluster's administrator
	argo := env.Hub().ArgoCD()                 // Argo CD's own controllers on the hub
	addons, sha := env.Git().AddonsRepository()
	roles := env.Cloud().Records("aws", "aws:iam/role:Role")
	_, _, _, _, _, _ = secrets, spoke, argo, addons, sha, roles
}

// A day-2 change: the test owns the stack's config; Apply previews the edit, checks its exact plan, runs up, then
// checks that a preview plans nothing.
func testResize(t *testing.T) {
	t.Parallel()
	env := fleettest.New(t, fleettest.Options{})
	l := env.Configured("day2", env.FleetConfig("dev"))
	l.Up("up")
	l.Apply(fleettest.Change{
		Edit: func(c fleettest.Config) {
			spoke := c["gitops-fleet:clusters"].([]any)[1].(map[string]any)
			spoke["nodeGroups"] = []any{map[string]any{"name": "system", "instanceTypes": []string{"m6i.large"},
				"minSize": 1, "desiredSize": 3, "maxSize": 5}}
		},
		WantPlan: fleettest.Plan{"update": {"aws:eks/nodeGroup:NodeGroup": 1}},
	})
}

// Example: the harness's two shapes of test (compiled by go test, run by the e2e tests they stand for).
func Example() {
	_, _ = testSomething, testResize
}
