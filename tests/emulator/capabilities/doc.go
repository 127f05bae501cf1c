// Package capabilities is the offline cloud's EKS Capabilities API (eks.<region>.amazonaws.com, restJson1, as the
// AWS SDK for Go v2 service/eks v1.105.5 calls it): CreateCapability, DescribeCapability, ListCapabilities,
// UpdateCapability, DeleteCapability, DescribeUpdate of a capability's updates, and TagResource and UntagResource
// of a capability; for fleet status, DescribeCluster (from the emulated cluster's record), ListInsights (the
// insights a test set, SetInsights) and DescribeClusterVersions (EKS's release calendar, dated now); for fleet
// preflight, ListClusters. A region made Unoffered answers the Capabilities API's calls with
// UnknownOperationException. It answers as the EKS API reference and User Guide document: names of 1 to 100 letters,
// digits, hyphens and underscores; one capability of each type per cluster (ResourceInUseException); the cluster
// must exist (ResourceNotFoundException); the role must exist, in the cluster's account, trusting
// capabilities.eks.amazonaws.com with sts:AssumeRole and sts:TagSession (InvalidParameterException, in the words
// AWS answers); RETAIN is the only delete propagation policy; a capability is CREATING, then ACTIVE, UPDATING
// while an update applies, and DELETING before it is gone, each transition after Settle.
//
// Capabilities are records of the shared store (type Type), so a test lists them like any other resource. A test
// double: product code never imports it.
package capabilities
