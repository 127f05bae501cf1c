// Package rollout takes a new add-ons repository revision to a fleet wave by wave (`fleet rollout`): it moves the
// clusters of the lowest wave that does not run the revision yet to it (their addonsRepoRevision in the stack
// config), runs `up`, waits until every add-on Application of those clusters on the hub's Argo CD compares at the
// revision Synced and Healthy, bakes, and goes on with the next wave. When a wave fails its gate (more failed
// clusters than the policy allows, or the wait runs out), the clusters it changed go back to their last good
// revision with another `up`, later waves never change, and the run ends with a *WaveFailed naming the cluster and Argo
// CD's message.
//
// The stack config is the record: each cluster's addonsRepoRevision is what it runs, and gitops-fleet:rollout
// (Record) holds the revision under way, every cluster's last good revision, the wave reached and the outcome. A run
// killed at any point resumes from it: a wave whose clusters already carry the revision is not changed again, only
// gated; a rollout that failed is not retried until it is asked for again (Options.Retry).
//
// A Kubernetes version (Options.Field KubernetesVersion) goes the same way through the clusters' version, gated on EKS
// (an upgrade insight in ERROR holds a wave before it changes; after its `up` each cluster must be ACTIVE at the
// version, its add-ons Synced and Healthy where they are); a wave that fails stops the rollout but is not downgraded
// (EKS refuses a downgrade through UpdateClusterVersion; its own rollback takes back the control plane only), and the
// failure says so.
package rollout
