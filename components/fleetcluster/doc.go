// Package fleetcluster builds FleetCluster (fleet:index:FleetCluster): one production-grade EKS cluster in
// one region (VPC, control plane, managed node groups, access, IRSA roles for add-ons) and the
// infrastructure metadata that the GitOps Bridge writes into the Argo CD cluster secret.
//
// Use it from Go with NewFleetCluster, or from any language through the pulumi-resource-fleet plugin.
// Inputs are validated as a whole before any resource is registered (see Validate).
package fleetcluster
