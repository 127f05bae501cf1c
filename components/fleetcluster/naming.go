package fleetcluster

import (
	"fmt"
	"strings"
)

// regionWords abbreviates the direction words of AWS region names (us-east-1 -> use1, ap-southeast-2 -> apse2).
var regionWords = map[string]string{
	"east": "e", "west": "w", "north": "n", "south": "s", "central": "c",
	"northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
}

// RegionCode is the short form of an AWS region used in IAM role names, which are global to an account:
// "us-east-1" -> "use1", "eu-central-2" -> "euc2", "us-gov-west-1" -> "usgovw1". Words it does not know are
// kept whole, so the code stays unique.
func RegionCode(region string) string {
	parts := strings.Split(region, "-")
	var b strings.Builder
	for i, p := range parts {
		if short, ok := regionWords[p]; ok && i > 0 {
			b.WriteString(short)
		} else {
			b.WriteString(p)
		}
	}
	return b.String()
}

// roleName is the IAM role name of one of the cluster's roles: "<cluster>-<region code>-<purpose>", unique
// per cluster and region within an account. IAM role names are at most 64 characters (IAM CreateRole API);
// Validate checks every name the component derives.
func roleName(clusterName, region, purpose string) string {
	return fmt.Sprintf("%s-%s-%s", clusterName, RegionCode(region), purpose)
}

// Role purposes, the last part of each role name.
const (
	nodeRolePurpose  = "node"
	spokeRolePurpose = "gitops-spoke"
)

// irsaRolePurpose is the purpose of an add-on's IRSA role; add-on names use '_', role names read better with '-'.
func irsaRolePurpose(addon string) string {
	return strings.ReplaceAll(addon, "_", "-")
}

// childName names a child resource of the component: "<component>-<part>".
func childName(component, part string) string {
	return component + "-" + part
}
