// Package mocks is the offline cloud for pulumi.WithMocks tests of the components: it records every
// resource a program registers (type, name, parent, provider, region, inputs), answers the invokes the
// components make (caller identity, partition, region) and returns stable IDs and ARNs.
//
// pulumi-eks's Cluster returns references to the AWS resources its plugin creates. A mock can only
// resolve references to resources it has registered, so Cloud registers stand-ins for them (marked
// StandIn) with the outputs EKS would report. Product code never imports this package.
package mocks
