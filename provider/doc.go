// Package provider serves FleetCluster and GitOpsBridge to every Pulumi language: a thin pulumi-go-provider
// (infer) registration of the components, with the package metadata the schema and the SDKs carry. No
// resource logic lives here.
package provider
