// Package addons is the GitOps Bridge add-on contract: one typed row per add-on that says which
// ApplicationSet of the GitOps Bridge control-plane template installs it, the cluster-secret labels that
// ApplicationSet selects on, every metadata annotation its template reads, the version the pinned template
// installs, the AWS identity the add-on needs (namespace, service accounts, one policy per range of the
// add-on's versions after the upstream project's document at that version, and the version from which it
// takes EKS Pod Identity credentials) and the AWS resources it needs. Validation, IAM, metadata, schema docs,
// the add-on table (docs/addons.md) and the contract tests are all derived from this table.
package addons
