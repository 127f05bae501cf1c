// Package status is the state of a fleet at a glance, for `fleet status` (provider/cmd/fleet): per cluster what its
// stack says (Fleet's clusters output: region, role, environment, Kubernetes version, node groups, the add-ons
// enabled with their versions and roles, decommission, shard), what Argo CD on the hub says of each add-on's
// Application (sync and health), what EKS says (status, versions, upgrade insights, a managed hub's capabilities)
// and what a refresh preview finds drifted; rendered as a table for a terminal, as JSON, or as one self-contained
// HTML page with a cluster x add-on matrix. A source that could not be read is listed as unreachable and what it
// would have said is unknown, never healthy.
package status
