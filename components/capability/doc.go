// Package capability builds ArgoCDCapability (fleet:index:ArgoCDCapability): Argo CD as an EKS Capability, the
// managed Argo CD AWS runs for a cluster (the EKS API's CreateCapability with type ARGOCD), and the IAM role it
// acts as. Unlike the upstream resource it waits for the capability to be ACTIVE, reports its status, version,
// server URL and health issues, and updates in place what the EKS API updates in place.
package capability
