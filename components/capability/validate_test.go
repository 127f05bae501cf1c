package capability

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	many := make([]CapabilityIdentity, 1001)
	for i := range many {
		many[i] = CapabilityIdentity{ID: "u", Type: "SSO_USER"}
	}
	cases := map[string]struct {
		reason  string
		edit    func(a *ArgoCDCapabilityArgs)
		preview bool
		want    []string
	}{
		"valid": {reason: "the example inputs pass", edit: func(*ArgoCDCapabilityArgs) {}},
		"every problem at once": {
			reason: "each field breaking an EKS rule is named with its allowed form, all in one error",
			edit: func(a *ArgoCDCapabilityArgs) {
				a.ClusterName, a.CapabilityName, a.Region = "-hub", "argo cd", "Oregon"
				a.RoleArn, a.AssumeRoleArn = "argocd", "arn:aws:iam::111122223333:user/me"
				a.ArgoCD = CapabilityArgoCD{IdentityCenter: CapabilityIdentityCenter{InstanceArn: "ssoins-1", Region: "west"},
					Namespace: "Argo_CD", EndpointPrefix: "-x", NetworkAccess: &CapabilityNetworkAccess{VpceIds: []string{"vpc-1"}},
					RbacRoleMappings: []CapabilityRoleMapping{{Role: "OWNER", Identities: []CapabilityIdentity{{Type: "USER"}}},
						{Role: "ADMIN"}, {Role: "ADMIN", Identities: []CapabilityIdentity{{ID: "g", Type: "SSO_GROUP"}}}}}
				a.Tags = map[string]string{"aws:team": "x"}
			},
			want: []string{
				`clusterName: "-hub" is not an EKS cluster name`,
				`capabilityName: "argo cd" is not a capability name`,
				`region: "Oregon" is not an AWS region name`,
				`roleArn: "argocd" is not an IAM role ARN`,
				`assumeRoleArn: "arn:aws:iam::111122223333:user/me" is not an IAM role ARN`,
				`argoCd.awsIdc.idcInstanceArn: "ssoins-1" is not an IAM Identity Center instance ARN`,
				`argoCd.awsIdc.idcRegion: "west" is not an AWS region name`,
				`argoCd.namespace: "Argo_CD" is not a DNS-1123 label`,
				`argoCd.endpointPrefix: "-x" is not a DNS-1123 label`,
				`argoCd.networkAccess.vpceIds[0]: "vpc-1" is not a VPC endpoint ID`,
				`argoCd.rbacRoleMappings[0].role: "OWNER" is not an Argo CD role`,
				`argoCd.rbacRoleMappings[0].identities[0].id: is required`,
				`argoCd.rbacRoleMappings[0].identities[0].type: "USER" is not an identity type`,
				`argoCd.rbacRoleMappings[1].identities: is empty`,
				`argoCd.rbacRoleMappings[2].role: ADMIN is mapped already by rbacRoleMappings[1]`,
				`tags["aws:team"]: keys starting with aws: are reserved for AWS`,
			},
		},
		"too many identities": {
			reason: "a capability maps at most 1000 identities (EKS User Guide)",
			edit: func(a *ArgoCDCapabilityArgs) {
				a.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "VIEWER", Identities: many}}
			},
			want: []string{"argoCd.rbacRoleMappings: map 1001 identities; a capability maps at most 1000"},
		},
		"unknown in a preview": {
			reason:  "a role's ARN is unknown until the role exists: a preview does not refuse it",
			edit:    func(a *ArgoCDCapabilityArgs) { a.RoleArn, a.ClusterName = "", "" },
			preview: true,
		},
		"empty when created": {
			reason: "the same empty values are refused once known",
			edit:   func(a *ArgoCDCapabilityArgs) { a.RoleArn, a.ClusterName = "", "" },
			want:   []string{"clusterName: is required", `roleArn: "" is not an IAM role ARN`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := args("argocd")
			tc.edit(&a)
			err := a.Validate(tc.preview)
			var got []string
			if err != nil {
				for _, line := range strings.Split(err.Error(), "\n")[1:] {
					got = append(got, strings.TrimPrefix(line, "  - "))
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%s: got %d problems, want %d:\n%s", tc.reason, len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("%s: problem %d\n got: %s\nwant: %s...", tc.reason, i, got[i], w)
				}
			}
		})
	}
}

func TestDiff(t *testing.T) {
	cases := map[string]struct {
		reason string
		edit   func(a *ArgoCDCapabilityArgs)
		want   map[string]string
	}{
		"nothing":        {reason: "the same inputs", edit: func(*ArgoCDCapabilityArgs) {}, want: map[string]string{}},
		"defaults given": {reason: "the defaults spelt out are no change", edit: func(a *ArgoCDCapabilityArgs) { a.CapabilityName, a.ArgoCD.Namespace = "argocd", "argocd" }, want: map[string]string{}},
		"region unset":   {reason: "an empty region is the one recorded", edit: func(a *ArgoCDCapabilityArgs) { a.Region = "" }, want: map[string]string{}},
		"identity order": {
			reason: "identities compare as sets",
			edit: func(a *ArgoCDCapabilityArgs) {
				a.ArgoCD.RbacRoleMappings[0].Identities = []CapabilityIdentity{{ID: "b", Type: "SSO_USER"}, {ID: "a", Type: "SSO_GROUP"}}
			},
			want: map[string]string{},
		},
		"immutable": {
			reason: "what UpdateCapability cannot change replaces the capability",
			edit: func(a *ArgoCDCapabilityArgs) {
				a.ClusterName, a.CapabilityName, a.Region = "other", "gitops", "eu-west-1"
				a.ArgoCD.IdentityCenter.Region, a.ArgoCD.Namespace, a.ArgoCD.EndpointPrefix = "us-east-1", "gitops", "fleet"
			},
			want: map[string]string{"clusterName": "replace", "capabilityName": "replace", "region": "replace",
				"argoCd.awsIdc": "replace", "argoCd.namespace": "replace", "argoCd.endpointPrefix": "replace"},
		},
		"in place": {
			reason: "what UpdateCapability, TagResource and the plugin's own calls change updates",
			edit: func(a *ArgoCDCapabilityArgs) {
				a.RoleArn, a.AssumeRoleArn, a.Tags = roleARN("other"), roleARN("deployer"), map[string]string{"a": "b"}
				a.ArgoCD.NetworkAccess = &CapabilityNetworkAccess{VpceIds: []string{"vpce-0123456789abcdef0"}}
				a.ArgoCD.RbacRoleMappings = nil
			},
			want: map[string]string{"roleArn": "update", "assumeRoleArn": "update", "tags": "update",
				"argoCd.networkAccess": "update", "argoCd.rbacRoleMappings": "update"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			old := args("argocd")
			old.Region = testRegion
			old.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "ADMIN", Identities: []CapabilityIdentity{{ID: "a", Type: "SSO_GROUP"}, {ID: "b", Type: "SSO_USER"}}}}
			news := old
			news.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "ADMIN", Identities: old.ArgoCD.RbacRoleMappings[0].Identities}}
			tc.edit(&news)
			if d := cmp.Diff(tc.want, kinds(diff(old, news))); d != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, d)
			}
		})
	}
}

func TestMappingChanges(t *testing.T) {
	m := func(role string, ids ...string) CapabilityRoleMapping {
		r := CapabilityRoleMapping{Role: role}
		for _, id := range ids {
			r.Identities = append(r.Identities, CapabilityIdentity{ID: id, Type: "SSO_GROUP"})
		}
		return r
	}
	cases := map[string]struct {
		reason            string
		old, news         []CapabilityRoleMapping
		wantAdd, wantGone []CapabilityRoleMapping
	}{
		"added":     {reason: "a new role is added", news: []CapabilityRoleMapping{m("ADMIN", "a")}, wantAdd: []CapabilityRoleMapping{m("ADMIN", "a")}},
		"removed":   {reason: "a role no longer mapped is removed", old: []CapabilityRoleMapping{m("ADMIN", "a")}, wantGone: []CapabilityRoleMapping{m("ADMIN", "a")}},
		"changed":   {reason: "other identities send the role's whole new mapping", old: []CapabilityRoleMapping{m("ADMIN", "a"), m("VIEWER", "v")}, news: []CapabilityRoleMapping{m("VIEWER", "v"), m("ADMIN", "a", "b")}, wantAdd: []CapabilityRoleMapping{m("ADMIN", "a", "b")}},
		"unchanged": {reason: "the same mappings in another order send nothing", old: []CapabilityRoleMapping{m("ADMIN", "a"), m("VIEWER", "v")}, news: []CapabilityRoleMapping{m("VIEWER", "v"), m("ADMIN", "a")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			add, gone := mappingChanges(tc.old, tc.news)
			if d := cmp.Diff(tc.wantAdd, add); d != "" {
				t.Errorf("%s: addOrUpdate (-want +got):\n%s", tc.reason, d)
			}
			if d := cmp.Diff(tc.wantGone, gone); d != "" {
				t.Errorf("%s: remove (-want +got):\n%s", tc.reason, d)
			}
		})
	}
}
