// Package provider serves Fleet, FleetCluster, GitOpsBridge, StackDelivery, Tenant and their resources to every Pulumi
// language: a thin pulumi-go-provider (infer) registration of the components and the ledger resource, with the
// package metadata the schema and the SDKs carry. No resource logic lives here.
package provider
