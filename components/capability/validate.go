package capability

import (
	"regexp"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/util/validation"
)

var (
	// EKS CreateCapability: letters, digits, hyphens and underscores; 1-100 characters (AWS::EKS::Capability).
	capabilityNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)
	// IAM Identity Center instance ARNs (SSO Admin API's InstanceArn pattern).
	instanceARNPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)*:sso:::instance/(sso)?ins-[a-zA-Z0-9-.]{16}$`)
	// Interface VPC endpoint IDs (EC2 CreateVpcEndpoint).
	vpceIDPattern = regexp.MustCompile(`^vpce-([0-9a-f]{8}|[0-9a-f]{17})$`)
)

// The EKS API's enums (service/eks types: ArgoCdRole, SsoIdentityType).
var (
	// Roles are the Argo CD roles a mapping gives.
	Roles = []string{"ADMIN", "EDITOR", "VIEWER"}
	// IdentityTypes are the kinds of Identity Center identities.
	IdentityTypes = []string{"SSO_USER", "SSO_GROUP"}
)

// maxIdentities is the number of identities one Argo CD capability maps (EKS User Guide, "Configure Argo CD
// permissions").
const maxIdentities = 1000

// Validate reports every input that breaks the EKS API's rules, all at once (a *problems.Error), as the resource's
// create and update do before calling EKS. In a preview an empty value may be an unknown one (a role's ARN before the
// role exists): it is checked when the capability is created.
func (a ArgoCDCapabilityArgs) Validate(preview bool) error {
	var ps problems.List
	switch {
	case a.ClusterName == "" && preview:
	case a.ClusterName == "":
		ps.Add("clusterName", "is required")
	case len(a.ClusterName) > awsnames.MaxClusterName || !awsnames.ClusterNamePattern.MatchString(a.ClusterName):
		ps.Add("clusterName", "%q is not an EKS cluster name: 1-%d letters, digits, hyphens and underscores, "+
			"starting with a letter or digit", a.ClusterName, awsnames.MaxClusterName)
	}
	CheckName(&ps, "capabilityName", a.CapabilityName)
	if a.Region != "" && !awsnames.RegionPattern.MatchString(a.Region) {
		ps.Add("region", "%q is not an AWS region name (for example us-east-1)", a.Region)
	}
	for _, f := range []struct{ field, value string }{{"roleArn", a.RoleArn}, {"assumeRoleArn", a.AssumeRoleArn}} {
		if (f.value != "" || f.field == "roleArn" && !preview) && !awsnames.RoleARNPattern.MatchString(f.value) {
			ps.Add(f.field, "%q is not an IAM role ARN; expected %s", f.value, awsnames.RoleARNForm)
		}
	}
	a.ArgoCD.check(&ps, "argoCd", preview)
	awsnames.Tags(&ps, "tags", a.Tags)
	return ps.Err(TypeToken)
}

func (c CapabilityArgoCD) check(ps *problems.List, field string, preview bool) {
	if (c.IdentityCenter.InstanceArn != "" || !preview) && !instanceARNPattern.MatchString(c.IdentityCenter.InstanceArn) {
		ps.Add(field+".awsIdc.idcInstanceArn", "%q is not an IAM Identity Center instance ARN; expected "+
			"arn:<partition>:sso:::instance/ssoins-<16 characters>", c.IdentityCenter.InstanceArn)
	}
	if r := c.IdentityCenter.Region; r != "" && !awsnames.RegionPattern.MatchString(r) {
		ps.Add(field+".awsIdc.idcRegion", "%q is not an AWS region name (for example us-east-1)", r)
	}
	for _, f := range []struct{ field, value string }{{"namespace", c.Namespace}, {"endpointPrefix", c.EndpointPrefix}} {
		if f.value == "" {
			continue
		}
		for _, msg := range validation.IsDNS1123Label(f.value) {
			ps.Add(field+"."+f.field, "%q is not a DNS-1123 label: %s", f.value, msg)
		}
	}
	if c.NetworkAccess != nil {
		for i, id := range c.NetworkAccess.VpceIds {
			if !vpceIDPattern.MatchString(id) {
				ps.Add(problems.Index(field+".networkAccess.vpceIds", i), "%q is not a VPC endpoint ID; expected "+
					"vpce- and 8 or 17 hex digits", id)
			}
		}
	}
	seen, identities := map[string]int{}, 0
	for i, m := range c.RbacRoleMappings {
		f := problems.Index(field+".rbacRoleMappings", i)
		switch j, dup := seen[m.Role]; {
		case !slices.Contains(Roles, m.Role):
			ps.Add(f+".role", "%q is not an Argo CD role of the capability; expected one of %v", m.Role, Roles)
		case dup:
			ps.Add(f+".role", "%s is mapped already by rbacRoleMappings[%d]; give each role one mapping", m.Role, j)
		}
		seen[m.Role] = i
		if len(m.Identities) == 0 {
			ps.Add(f+".identities", "is empty; give at least one user or group")
		}
		for k, id := range m.Identities {
			g := problems.Index(f+".identities", k)
			if id.ID == "" {
				ps.Add(g+".id", "is required: the user's or group's ID in the Identity Center identity store")
			}
			if !slices.Contains(IdentityTypes, id.Type) {
				ps.Add(g+".type", "%q is not an identity type; expected one of %v", id.Type, IdentityTypes)
			}
		}
		identities += len(m.Identities)
	}
	if identities > maxIdentities {
		ps.Add(field+".rbacRoleMappings", "map %d identities; a capability maps at most %d", identities, maxIdentities)
	}
}

// name is the capability's name, its default applied.
func (a ArgoCDCapabilityArgs) name() string {
	if a.CapabilityName == "" {
		return DefaultName
	}
	return a.CapabilityName
}

// namespace is Argo CD's namespace, its default applied.
func (c CapabilityArgoCD) namespace() string {
	if c.Namespace == "" {
		return DefaultNamespace
	}
	return c.Namespace
}

// Check adds a problem at field for each setting of c that breaks the EKS API's rules (a component's settings,
// all known).
func (c CapabilityArgoCD) Check(ps *problems.List, field string) { c.check(ps, field, false) }

// CheckName adds a problem at field when name is set and is not a capability name.
func CheckName(ps *problems.List, field, name string) {
	if name != "" && !capabilityNamePattern.MatchString(name) {
		ps.Add(field, "%q is not a capability name: 1-100 letters, digits, hyphens and underscores "+
			"(EKS CreateCapability)", name)
	}
}
