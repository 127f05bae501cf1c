package capability

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
)

// client is the EKS API of the capability's region, and that region.
type client struct {
	*eks.Client
	region string
}

// connect is the EKS API of the capability's region (the ambient one when the input names none), with the
// ambient credentials, through assumeRoleArn when set.
func (a ArgoCDCapabilityArgs) connect(ctx context.Context) (client, error) {
	cfg, err := awsconfig.Load(ctx, a.Region, a.AssumeRoleArn)
	if err != nil {
		return client{}, err
	}
	return client{Client: eks.NewFromConfig(cfg), region: cfg.Region}, nil
}

// createInput is the CreateCapability request for a.
func (a ArgoCDCapabilityArgs) createInput() *eks.CreateCapabilityInput {
	c := a.ArgoCD
	argo := &types.ArgoCdConfigRequest{
		AwsIdc: &types.ArgoCdAwsIdcConfigRequest{IdcInstanceArn: aws.String(c.IdentityCenter.InstanceArn),
			IdcRegion: optional(c.IdentityCenter.Region)},
		Namespace:        aws.String(c.namespace()),
		EndpointPrefix:   optional(c.EndpointPrefix),
		RbacRoleMappings: roleMappings(c.RbacRoleMappings),
	}
	if c.NetworkAccess != nil {
		argo.NetworkAccess = &types.ArgoCdNetworkAccessConfigRequest{VpceIds: c.NetworkAccess.VpceIds}
	}
	return &eks.CreateCapabilityInput{
		ClusterName:             aws.String(a.ClusterName),
		CapabilityName:          aws.String(a.name()),
		Type:                    types.CapabilityTypeArgocd,
		RoleArn:                 aws.String(a.RoleArn),
		DeletePropagationPolicy: types.CapabilityDeletePropagationPolicyRetain,
		Configuration:           &types.CapabilityConfigurationRequest{ArgoCd: argo},
		Tags:                    a.Tags,
	}
}

// describe is the capability as EKS describes it; found is false when EKS has none of that name.
func (c client) describe(ctx context.Context, cluster, name string) (capability *types.Capability, found bool, err error) {
	out, err := c.DescribeCapability(ctx, &eks.DescribeCapabilityInput{ClusterName: aws.String(cluster),
		CapabilityName: aws.String(name)})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return out.Capability, true, nil
}

// state is what EKS reports of capability, over the inputs a.
func (a ArgoCDCapabilityArgs) state(capability *types.Capability, region string) ArgoCDCapabilityState {
	s := ArgoCDCapabilityState{ArgoCDCapabilityArgs: a, Arn: aws.ToString(capability.Arn),
		Status: string(capability.Status), Version: aws.ToString(capability.Version),
		DeletePropagationPolicy: string(capability.DeletePropagationPolicy), HealthIssues: []CapabilityHealthIssue{}}
	s.Region = region
	if conf := capability.Configuration; conf != nil && conf.ArgoCd != nil {
		s.ServerURL = aws.ToString(conf.ArgoCd.ServerUrl)
		if idc := conf.ArgoCd.AwsIdc; idc != nil {
			s.IdentityCenterApplicationArn = aws.ToString(idc.IdcManagedApplicationArn)
		}
	}
	if capability.Health != nil {
		for _, i := range capability.Health.Issues {
			s.HealthIssues = append(s.HealthIssues, CapabilityHealthIssue{Code: string(i.Code), Message: aws.ToString(i.Message)})
		}
	}
	return s
}

// argsOf are the inputs that give capability as EKS describes it: what an import records.
func argsOf(capability *types.Capability, region string) ArgoCDCapabilityArgs {
	a := ArgoCDCapabilityArgs{ClusterName: aws.ToString(capability.ClusterName),
		CapabilityName: aws.ToString(capability.CapabilityName), Region: region,
		RoleArn: aws.ToString(capability.RoleArn), Tags: capability.Tags}
	if conf := capability.Configuration; conf != nil && conf.ArgoCd != nil {
		argo := conf.ArgoCd
		if argo.AwsIdc != nil {
			a.ArgoCD.IdentityCenter = CapabilityIdentityCenter{InstanceArn: aws.ToString(argo.AwsIdc.IdcInstanceArn),
				Region: aws.ToString(argo.AwsIdc.IdcRegion)}
		}
		a.ArgoCD.Namespace, a.ArgoCD.EndpointPrefix = aws.ToString(argo.Namespace), aws.ToString(argo.EndpointPrefix)
		if argo.NetworkAccess != nil && len(argo.NetworkAccess.VpceIds) > 0 {
			a.ArgoCD.NetworkAccess = &CapabilityNetworkAccess{VpceIds: argo.NetworkAccess.VpceIds}
		}
		for _, m := range argo.RbacRoleMappings {
			rm := CapabilityRoleMapping{Role: string(m.Role)}
			for _, id := range m.Identities {
				rm.Identities = append(rm.Identities, CapabilityIdentity{ID: aws.ToString(id.Id), Type: string(id.Type)})
			}
			a.ArgoCD.RbacRoleMappings = append(a.ArgoCD.RbacRoleMappings, rm)
		}
	}
	return a
}

// roleMappings are the EKS API's form of mappings.
func roleMappings(mappings []CapabilityRoleMapping) []types.ArgoCdRoleMapping {
	var out []types.ArgoCdRoleMapping
	for _, m := range mappings {
		rm := types.ArgoCdRoleMapping{Role: types.ArgoCdRole(m.Role)}
		for _, id := range m.Identities {
			rm.Identities = append(rm.Identities, types.SsoIdentity{Id: aws.String(id.ID), Type: types.SsoIdentityType(id.Type)})
		}
		out = append(out, rm)
	}
	return out
}

// parseID splits an import ID, <clusterName>:<capabilityName>.
func parseID(id string) (cluster, name string, ok bool) {
	cluster, name, ok = strings.Cut(id, ":")
	return cluster, name, ok && cluster != "" && name != "" && !strings.Contains(name, ":")
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// issues are the health issues of a state, one per line, for an error.
func (s ArgoCDCapabilityState) issues() string {
	lines := []string{}
	for _, i := range s.HealthIssues {
		lines = append(lines, i.Code+": "+i.Message)
	}
	if len(lines) == 0 {
		return "EKS reports no health issue"
	}
	slices.Sort(lines)
	return strings.Join(lines, "; ")
}
