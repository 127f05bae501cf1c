// Package awsconfig loads the AWS SDK configuration the plugin's own resources call AWS with (ClusterDrain's
// Tagging API, ArgoCDCapability's EKS API): the ambient credentials and settings of the plugin's process, in a
// region, through a role when one is given.
package awsconfig
