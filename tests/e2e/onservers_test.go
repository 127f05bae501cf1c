package e2e

import (
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// argoCDUser is the Kubernetes username of Argo CD's service account sa in Argo CD's namespace: who its pods are
// to the hub's API server (and whom a test impersonates to write as them).
func argoCDUser(sa string) string {
	return "system:serviceaccount:" + gitopsbridge.DefaultNamespace + ":" + sa
}
