package fleetcluster

import (
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/util/validation"
)

var (
	// Kubernetes minor versions as EKS names them.
	versionPattern = regexp.MustCompile(`^1\.\d{2}$`)
	// EC2 instance types: "<family>.<size>" ("m6i.large", "c7gn.16xlarge", "u-6tb1.metal").
	instanceTypePattern = regexp.MustCompile(`^[a-z0-9-]+\.[a-z0-9]+$`)
)

const (
	maxNodeGroupName = 63    // EKS CreateNodegroup API
	maxRoleName      = 64    // IAM CreateRole API
	minDiskSize      = 20    // GiB: the EKS-optimized AMIs need 20 GiB
	maxDiskSize      = 16384 // GiB: the gp3 maximum
)

// Validate checks arguments that already carry their defaults (see withDefaults) and returns a
// *ValidationError listing every problem, or nil. explicit are the arguments as the caller gave them, to
// tell an explicit setting from a default. Inputs that are outputs of other resources are checked when known.
func Validate(args, explicit FleetClusterArgs) error {
	var ps problems.List
	validateIdentity(&ps, args)
	validateNetwork(&ps, args, explicit)
	validateEndpoint(&ps, args)
	for i, arn := range args.SecretsKeyAdministratorArns {
		if !iamPrincipalARN.pattern.MatchString(arn) {
			ps.Add(problems.Index("secretsKeyAdministratorArns", i), "%s", iamPrincipalARN.problem(arn))
		}
	}
	if len(args.SecretsKeyAdministratorArns) > 0 && !*args.SecretsEncryption {
		ps.Add("secretsKeyAdministratorArns", "is set but secretsEncryption is false: there is no key to administer")
	}
	for i, ng := range args.NodeGroups {
		validateNodeGroup(&ps, problems.Index("nodeGroups", i), ng)
	}
	checkUnique(&ps, "nodeGroups", "name", args.NodeGroups, func(n NodeGroup) string { return n.Name })
	validateAccess(&ps, args)
	validateAddons(&ps, args)
	awsnames.Tags(&ps, "tags", args.Tags)
	validateRoleNames(&ps, args)
	return ps.Err(TypeToken)
}

func validateIdentity(ps *problems.List, a FleetClusterArgs) {
	CheckClusterName(ps, "clusterName", a.ClusterName)
	if !awsnames.RegionPattern.MatchString(a.Region) {
		ps.Add("region", "%q is not an AWS region name; expected the form us-east-1", a.Region)
	}
	for _, msg := range validation.IsValidLabelValue(a.Environment) {
		ps.Add("environment", "%q is not usable as a Kubernetes label value (it labels the Argo CD cluster secret): %s",
			a.Environment, msg)
	}
	if a.Environment == "" {
		ps.Add("environment", "must not be empty")
	}
	if !versionPattern.MatchString(a.Version) {
		ps.Add("version", "%q is not a Kubernetes minor version; expected the form 1.33", a.Version)
	}
}

func validateNetwork(ps *problems.List, a, explicit FleetClusterArgs) {
	if a.VpcId != nil {
		if explicit.VpcCidr != "" || explicit.AvailabilityZoneCount != 0 || explicit.NatGatewayStrategy != "" {
			ps.Add("vpcId", "an existing VPC excludes vpcCidr, availabilityZoneCount and natGatewayStrategy, "+
				"which shape a VPC the component builds")
		}
		if a.PrivateSubnetIds == nil {
			ps.Add("privateSubnetIds", "is required with vpcId: the private subnets of the existing VPC")
		}
		return
	}
	if a.PrivateSubnetIds != nil || a.PublicSubnetIds != nil {
		ps.Add("privateSubnetIds", "subnet IDs need vpcId; without it the component builds the VPC and its subnets")
	}
	validateVpcCidr(ps, a.VpcCidr)
	if a.AvailabilityZoneCount < 2 || a.AvailabilityZoneCount > 6 {
		ps.Add("availabilityZoneCount", "%d is out of range; expected 2-6 (EKS needs subnets in at least two zones)",
			a.AvailabilityZoneCount)
	}
	if !slices.Contains(natGatewayStrategies, a.NatGatewayStrategy) {
		ps.Add("natGatewayStrategy", "%q is not one of %s (private subnets need a NAT gateway for egress)",
			a.NatGatewayStrategy, strings.Join(natGatewayStrategies, ", "))
	}
}

func validateVpcCidr(ps *problems.List, cidr string) {
	p, err := netip.ParsePrefix(cidr)
	switch {
	case err != nil:
		ps.Add("vpcCidr", "%q is not a CIDR; expected an IPv4 network such as 10.0.0.0/16", cidr)
	case !p.Addr().Is4():
		ps.Add("vpcCidr", "%q is not IPv4; the VPC's primary CIDR must be IPv4", cidr)
	case p.Masked() != p:
		ps.Add("vpcCidr", "%q has host bits set; expected the network address %s", cidr, p.Masked())
	case p.Bits() < 16 || p.Bits() > 24:
		ps.Add("vpcCidr", "%q has a /%d prefix; expected /16 (largest VPC AWS allows) to /24", cidr, p.Bits())
	}
}

func validateEndpoint(ps *problems.List, a FleetClusterArgs) {
	if !*a.EndpointPublicAccess && len(a.PublicAccessCidrs) > 0 {
		ps.Add("publicAccessCidrs", "is set but endpointPublicAccess is false")
	}
	if *a.EndpointPublicAccess && len(a.PublicAccessCidrs) == 0 && !hubEgress(a) {
		ps.Add("publicAccessCidrs", "is required when endpointPublicAccess is true: name the networks that may reach "+
			"the public API endpoint, such as 203.0.113.0/24 (0.0.0.0/0, the whole internet, only when given explicitly)")
	}
	for i, c := range a.PublicAccessCidrs {
		if p, err := netip.ParsePrefix(c); err != nil || !p.Addr().Is4() || p.Masked() != p {
			ps.Add(problems.Index("publicAccessCidrs", i), "%q is not an IPv4 network in CIDR form such as 203.0.113.0/24", c)
		}
	}
	for i, t := range a.EnabledClusterLogTypes {
		if !slices.Contains(ClusterLogTypes, t) {
			ps.Add(problems.Index("enabledClusterLogTypes", i), "%q is not one of %s", t, strings.Join(ClusterLogTypes, ", "))
		}
	}
}

func validateNodeGroup(ps *problems.List, field string, ng NodeGroup) {
	checkName(ps, field+".name", ng.Name, maxNodeGroupName, " (EKS CreateNodegroup)")
	if len(ng.InstanceTypes) == 0 {
		ps.Add(field+".instanceTypes", "must list at least one EC2 instance type, such as m6i.large")
	}
	for i, t := range ng.InstanceTypes {
		if !instanceTypePattern.MatchString(t) {
			ps.Add(problems.Index(field+".instanceTypes", i), "%q is not an EC2 instance type such as m6i.large", t)
		}
	}
	if ng.MinSize < 0 || ng.MinSize > ng.DesiredSize || ng.DesiredSize > ng.MaxSize || ng.MaxSize < 1 {
		ps.Add(field, "sizes min=%d desired=%d max=%d must satisfy 0 <= minSize <= desiredSize <= maxSize "+
			"and maxSize >= 1 (EKS scaling config)", ng.MinSize, ng.DesiredSize, ng.MaxSize)
	}
	if !slices.Contains(capacityTypes, ng.CapacityType) {
		ps.Add(field+".capacityType", "%q is not one of %s", ng.CapacityType, strings.Join(capacityTypes, ", "))
	}
	if ng.DiskSize < minDiskSize || ng.DiskSize > maxDiskSize {
		ps.Add(field+".diskSize", "%d GiB is out of range; expected %d-%d GiB", ng.DiskSize, minDiskSize, maxDiskSize)
	}
	if !slices.Contains(AmiTypes, ng.AmiType) {
		ps.Add(field+".amiType", "%q is not one of %s", ng.AmiType, strings.Join(AmiTypes, ", "))
	}
	if ng.MaxUnavailablePercentage < 1 || ng.MaxUnavailablePercentage > 100 {
		ps.Add(field+".maxUnavailablePercentage", "%d: want 1 to 100 (EKS node group update config)", ng.MaxUnavailablePercentage)
	}
	validateLabels(ps, field+".labels", ng.Labels)
	for i, t := range ng.Taints {
		tf := problems.Index(field+".taints", i)
		for _, msg := range validation.IsQualifiedName(t.Key) {
			ps.Add(tf+".key", "%q is not a Kubernetes qualified name: %s", t.Key, msg)
		}
		for _, msg := range validation.IsValidLabelValue(t.Value) {
			ps.Add(tf+".value", "%q is not a valid taint value: %s", t.Value, msg)
		}
		if !slices.Contains(taintEffects, t.Effect) {
			ps.Add(tf+".effect", "%q is not one of %s", t.Effect, strings.Join(taintEffects, ", "))
		}
	}
}

func validateLabels(ps *problems.List, field string, labels map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		for _, msg := range validation.IsQualifiedName(k) {
			ps.Add(problems.Key(field, k), "key is not a Kubernetes qualified name: %s", msg)
		}
		for _, msg := range validation.IsValidLabelValue(labels[k]) {
			ps.Add(problems.Key(field, k), "%q is not a valid label value: %s", labels[k], msg)
		}
	}
}

func validateAccess(ps *problems.List, a FleetClusterArgs) {
	if !slices.Contains(authenticationModes, a.AuthenticationMode) {
		ps.Add("authenticationMode", "%q is not one of %s", a.AuthenticationMode, strings.Join(authenticationModes, ", "))
	}
	configMap := strings.Contains(a.AuthenticationMode, "CONFIG_MAP")
	api := strings.HasPrefix(a.AuthenticationMode, "API")
	if !configMap && (len(a.RoleMappings) > 0 || len(a.UserMappings) > 0) {
		ps.Add("roleMappings", "aws-auth mappings need authenticationMode CONFIG_MAP or API_AND_CONFIG_MAP, not %q",
			a.AuthenticationMode)
	}
	if !api && (len(a.AccessEntries) > 0 || a.GitOpsAccess != nil) {
		ps.Add("accessEntries", "access entries (and gitopsAccess) need authenticationMode API or "+
			"API_AND_CONFIG_MAP, not %q", a.AuthenticationMode)
	}
	nodeRole := roleName(a.ClusterName, a.Region, nodeRolePurpose)
	for i, m := range a.RoleMappings {
		f := problems.Index("roleMappings", i)
		checkARN(ps, f+".roleArn", m.RoleArn, iamRoleARN)
		if v, ok := problems.Known(m.RoleArn); ok && iamRoleARN.pattern.MatchString(v) {
			checkMappedRole(ps, f+".roleArn", v, nodeRole)
		}
		validateMapping(ps, f, m.Username, m.Groups)
	}
	for i, m := range a.UserMappings {
		f := problems.Index("userMappings", i)
		checkARN(ps, f+".userArn", m.UserArn, iamUserARN)
		validateMapping(ps, f, m.Username, m.Groups)
	}
	for i, e := range a.AccessEntries {
		f := problems.Index("accessEntries", i)
		checkName(ps, f+".name", e.Name, maxNodeGroupName, "")
		if a.GitOpsAccess != nil && e.Name == SpokeAccessEntryName {
			ps.Add(f+".name", "%q is reserved for the entry gitopsAccess creates", e.Name)
		}
		checkARN(ps, f+".principalArn", e.PrincipalArn, iamPrincipalARN)
		for j, g := range e.KubernetesGroups {
			if p, ok := reservedPrefix(g); ok {
				ps.Add(problems.Index(f+".kubernetesGroups", j), "%q is reserved: EKS rejects groups starting with %s", g, p)
			}
		}
		for j, p := range e.AccessPolicies {
			pf := problems.Index(f+".accessPolicies", j)
			if !accessPolicyARN.pattern.MatchString(p.PolicyArn) {
				ps.Add(pf+".policyArn", "%s", accessPolicyARN.problem(p.PolicyArn))
			}
			for k, ns := range p.Namespaces {
				for _, msg := range validation.IsDNS1123Label(ns) {
					ps.Add(problems.Index(pf+".namespaces", k), "%q is not a Kubernetes namespace name: %s", ns, msg)
				}
			}
		}
	}
	checkUnique(ps, "accessEntries", "name", a.AccessEntries, func(e AccessEntry) string { return e.Name })
	if g := a.GitOpsAccess; g != nil {
		switch {
		case (g.HubRoleArn == nil) == (g.CapabilityRoleArn == nil):
			ps.Add("gitopsAccess", "give exactly one of hubRoleArn (a self-managed hub's management role) and "+
				"capabilityRoleArn (a managed hub's capability role)")
		case g.HubRoleArn != nil:
			checkARN(ps, "gitopsAccess.hubRoleArn", g.HubRoleArn, iamRoleARN)
		default:
			checkARN(ps, "gitopsAccess.capabilityRoleArn", g.CapabilityRoleArn, iamRoleARN)
		}
		if g.AccessPolicyArn != "" && !accessPolicyARN.pattern.MatchString(g.AccessPolicyArn) {
			ps.Add("gitopsAccess.accessPolicyArn", "%s", accessPolicyARN.problem(g.AccessPolicyArn))
		}
	}
}

// reservedPrefixes are the user name and group prefixes EKS reserves for itself (EKS access entries: "can't
// start with system:, eks:, aws:, amazon:, or iam:"); an aws-auth mapping into them impersonates EKS or the
// control plane (system:masters, system:nodes, eks:...).
var reservedPrefixes = []string{"system:", "eks:", "aws:", "amazon:", "iam:"}

func reservedPrefix(name string) (string, bool) {
	for _, p := range reservedPrefixes {
		if strings.HasPrefix(strings.ToLower(name), p) {
			return p, true
		}
	}
	return "", false
}

func validateMapping(ps *problems.List, field, username string, groups []string) {
	if username == "" {
		ps.Add(field+".username", "must name the Kubernetes user the principal maps to")
	}
	if p, ok := reservedPrefix(username); ok {
		ps.Add(field+".username", "%q starts with %s, which EKS reserves; map to a user name of your own", username, p)
	}
	for i, g := range groups {
		if p, ok := reservedPrefix(g); ok {
			ps.Add(problems.Index(field+".groups", i), "%q starts with %s, which EKS reserves (system:masters is "+
				"cluster admin: grant that with an access entry and AmazonEKSClusterAdminPolicy, which can be audited "+
				"and revoked)", g, p)
		}
	}
}

// checkMappedRole refuses aws-auth role mappings that cannot work or take over the nodes' entry: a role ARN with
// a path (aws-auth compares the ARN the authenticator derives from the session, which has no path) and the
// cluster's node role (pulumi-eks writes its system:nodes entry from the instance roles).
func checkMappedRole(ps *problems.List, field, arn, nodeRole string) {
	resource := arn[strings.Index(arn, ":role/")+len(":role/"):]
	switch {
	case strings.Contains(resource, "/"):
		ps.Add(field, "%q has a path; aws-auth matches role ARNs without it: map arn:...:role/%s", arn,
			resource[strings.LastIndex(resource, "/")+1:])
	case resource == nodeRole:
		ps.Add(field, "%q is the cluster's node role, whose entry FleetCluster keeps itself", arn)
	}
}

// validateRoleNames checks every IAM role name the component derives from the cluster name and region.
func validateRoleNames(ps *problems.List, a FleetClusterArgs) {
	purposes := []string{nodeRolePurpose}
	if a.GitOpsAccess != nil && a.GitOpsAccess.CapabilityRoleArn == nil {
		purposes = append(purposes, spokeRolePurpose)
	}
	for _, addon := range enabledAddons(a.Addons) {
		if addon.Identity != nil || addon.Needs(addons.InterruptionQueue) {
			purposes = append(purposes, irsaRolePurpose(addon.Name))
		}
		if addon.Needs(addons.NodeInstanceProfile) {
			purposes = append(purposes, irsaRolePurpose(addon.Name)+"-node")
		}
	}
	for _, p := range purposes {
		if n := roleName(a.ClusterName, a.Region, p); len(n) > maxRoleName {
			ps.Add("clusterName", "derived IAM role name %q is %d characters; IAM allows %d: shorten the cluster name",
				n, len(n), maxRoleName)
		}
	}
}

// CheckClusterName reports, at field, a name EKS's CreateCluster would refuse (1-100 letters, digits, '-' and '_',
// starting with a letter or digit).
func CheckClusterName(ps *problems.List, field, name string) {
	checkName(ps, field, name, awsnames.MaxClusterName, " (EKS CreateCluster)")
}

// checkName reports a name that is not 1-max letters, digits, '-' and '_' starting with a letter or digit,
// the EKS rule for cluster and node group names; source names the rule's origin in the message.
func checkName(ps *problems.List, field, name string, max int, source string) {
	if len(name) > max || !awsnames.ClusterNamePattern.MatchString(name) {
		ps.Add(field, "%q must be 1-%d letters, digits, '-' and '_', starting with a letter or digit%s",
			name, max, source)
	}
}

// checkUnique reports values of a list field that occur more than once.
func checkUnique[T any](ps *problems.List, field, attr string, items []T, value func(T) string) {
	seen := map[string]int{}
	for i, it := range items {
		v := value(it)
		if first, dup := seen[v]; dup {
			ps.Add(fmt.Sprintf("%s[%d].%s", field, i, attr), "%q is already used by %s[%d]", v, field, first)
			continue
		}
		seen[v] = i
	}
}

// ValidationError is the error Validate and NewFleetCluster return for invalid inputs.
type ValidationError = problems.Error

// Resolve is args with every unset field at its default, as NewFleetCluster resolves them for a component named
// name in stack: what Validate checks (with args as the explicit arguments), and applies no default again. Fleet
// resolves and checks each of its clusters with the two before building any.
func Resolve(args FleetClusterArgs, name, stack string) FleetClusterArgs {
	return withDefaults(args, name, stack)
}
