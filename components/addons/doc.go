// Package addons is the GitOps Bridge add-on contract: one typed row per add-on that says which
// ApplicationSet of the GitOps Bridge control-plane template installs it, the cluster-secret labels that
// ApplicationSet selects on, every metadata annotation its template reads, the AWS identity the add-on needs
// (IRSA namespace, service accounts, least-privilege policy after the upstream project's published one) and
// the AWS resources it needs. Validation, IAM, metadata, schema docs, the README table and the contract test
// are all derived from this table.
package addons
