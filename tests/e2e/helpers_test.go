package e2e

import (
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// newEnv is a test's offline run (fleettest.New): real control planes behind its EKS clusters, the real Kubernetes
// provider, its own backend, cloud, Git and Argo CD.
func newEnv(t *testing.T) *fleettest.Env { return fleettest.New(t, fleettest.Options{}) }

// retainedTypes are the types FleetCluster retains on delete: Velero's bucket and its settings hold backups.
var retainedTypes = []string{"aws:s3/bucketV2:BucketV2", "aws:s3/bucketVersioningV2:BucketVersioningV2",
	"aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock", "aws:s3/bucketOwnershipControls:BucketOwnershipControls",
	"aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2"}

// notRetained are the records of types FleetCluster does not retain on delete.
func notRetained(rs []emulator.Record) []emulator.Record {
	var out []emulator.Record
	for _, r := range rs {
		if !slices.Contains(retainedTypes, r.Type) {
			out = append(out, r)
		}
	}
	return out
}
