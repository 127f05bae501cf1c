package capability

import (
	"maps"
	"slices"

	p "github.com/pulumi/pulumi-go-provider"
)

// diff is what the inputs change of the capability state records, each property with how EKS applies it:
// clusterName, capabilityName, region, argoCd.awsIdc, argoCd.namespace and argoCd.endpointPrefix only by a new
// capability (CreateCapability sets them, UpdateCapability takes none of them); roleArn, argoCd.networkAccess and
// argoCd.rbacRoleMappings by UpdateCapability; tags by TagResource and UntagResource; assumeRoleArn only changes
// how the plugin calls EKS. An empty region is the region recorded at creation.
func diff(old, news ArgoCDCapabilityArgs) map[string]p.PropertyDiff {
	out := map[string]p.PropertyDiff{}
	set := func(changed bool, key string, kind p.DiffKind) {
		if changed {
			out[key] = p.PropertyDiff{Kind: kind, InputDiff: true}
		}
	}
	o, n := old.ArgoCD, news.ArgoCD
	set(old.ClusterName != news.ClusterName, "clusterName", p.UpdateReplace)
	set(old.name() != news.name(), "capabilityName", p.UpdateReplace)
	set(news.Region != "" && news.Region != old.Region, "region", p.UpdateReplace)
	set(o.IdentityCenter != n.IdentityCenter, "argoCd.awsIdc", p.UpdateReplace)
	set(o.namespace() != n.namespace(), "argoCd.namespace", p.UpdateReplace)
	set(o.EndpointPrefix != n.EndpointPrefix, "argoCd.endpointPrefix", p.UpdateReplace)
	set(old.RoleArn != news.RoleArn, "roleArn", p.Update)
	set(!slices.Equal(sorted(o.vpceIDs()), sorted(n.vpceIDs())), "argoCd.networkAccess", p.Update)
	add, remove := mappingChanges(o.RbacRoleMappings, n.RbacRoleMappings)
	set(len(add)+len(remove) > 0, "argoCd.rbacRoleMappings", p.Update)
	set(!maps.Equal(old.Tags, news.Tags), "tags", p.Update)
	set(old.AssumeRoleArn != news.AssumeRoleArn, "assumeRoleArn", p.Update)
	return out
}

// mappingChanges are UpdateCapability's role mapping deltas from old to news: the mappings of roles new or
// with other identities (addOrUpdateRoleMappings: EKS replaces a role's identities with these) and those of
// roles no longer mapped (removeRoleMappings). Identities compare as sets.
func mappingChanges(old, news []CapabilityRoleMapping) (addOrUpdate, remove []CapabilityRoleMapping) {
	was := map[string]CapabilityRoleMapping{}
	for _, m := range old {
		was[m.Role] = m
	}
	kept := map[string]bool{}
	for _, m := range news {
		kept[m.Role] = true
		if w, ok := was[m.Role]; !ok || !slices.Equal(identityKeys(w), identityKeys(m)) {
			addOrUpdate = append(addOrUpdate, m)
		}
	}
	for _, m := range old {
		if !kept[m.Role] {
			remove = append(remove, m)
		}
	}
	return addOrUpdate, remove
}

func identityKeys(m CapabilityRoleMapping) []string {
	var keys []string
	for _, id := range m.Identities {
		keys = append(keys, id.Type+"/"+id.ID)
	}
	return sorted(keys)
}

func (c CapabilityArgoCD) vpceIDs() []string {
	if c.NetworkAccess == nil {
		return nil
	}
	return c.NetworkAccess.VpceIds
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
