// Package awsx emulates the awsx VPC component (awsx:ec2:Vpc), whose implementation is not published where this
// machine can reach it. Construct registers what awsx documents a VPC to be made of, as real pulumi-aws resources
// (which the aws emulator then serves): the VPC, an internet gateway, a public and a private subnet per
// availability zone with their route tables, and NAT gateways with Elastic IPs per the NAT strategy. It returns
// the outputs awsx documents: vpcId, publicSubnetIds, privateSubnetIds, isolatedSubnetIds, vpc, subnets, ...
package awsx
