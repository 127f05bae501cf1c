package gitopsbridge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

const identityCenter = "arn:aws:sso:::instance/ssoins-0123456789abcdef"

// managedHubArgs registers "hub" in us-east-1 as a managed Argo CD hub.
func managedHubArgs() GitOpsBridgeArgs {
	a := hubArgs()
	a.Hub = &Hub{Mode: ModeManaged, Capability: &ManagedArgoCD{
		IdentityCenter: capability.CapabilityIdentityCenter{InstanceArn: identityCenter},
		RbacRoleMappings: []capability.CapabilityRoleMapping{{Role: "ADMIN",
			Identities: []capability.CapabilityIdentity{{ID: "platform", Type: "SSO_GROUP"}}}},
	}}
	return a
}

// TestManagedHub: a managed hub has the capability and its role instead of the Helm release, the management role
// and Pod Identity; its own secret names it by ARN; everything Argo CD reads comes after the capability.
func TestManagedHub(t *testing.T) {
	cloud, gb := build(t, "hub", managedHubArgs())
	for _, typ := range []string{releaseType, associationType, "kubernetes:rbac.authorization.k8s.io/v1:Role"} {
		if rs := cloud.OfType(typ); len(rs) > 0 {
			t.Errorf("a managed hub has %d %s (%s...)", len(rs), typ, rs[0].Name)
		}
	}
	cloud.MustGet(t, "kubernetes:core/v1:Namespace", "hub-namespace") // the self-managed hub's: a switch keeps it
	role := cloud.MustGet(t, "aws:iam/role:Role", "hub-argocd-capability")
	if got, want := role.Input("assumeRolePolicy"), capability.TrustPolicy().JSON(); got != want {
		t.Errorf("capability role trust = %v, want %s", got, want)
	}
	if n := len(cloud.OfType("aws:iam/rolePolicy:RolePolicy")) + len(cloud.OfType("aws:iam/rolePolicyAttachment:RolePolicyAttachment")); n > 0 {
		t.Errorf("the capability role has %d policies; an Argo CD capability needs none", n)
	}
	c := cloud.MustGet(t, capability.TypeToken, "hub-argocd")
	if !slices.Contains(c.Dependencies, mocks.URN(TypeToken, "kubernetes:core/v1:Namespace", "hub-namespace")) {
		t.Error("the capability is created before Argo CD's namespace")
	}
	want := map[string]any{"clusterName": "hub", "region": "us-east-1", "roleArn": "arn:aws:iam::123456789012:role/gitops-fleet/hub/hub-argocd-capability",
		"argoCd": map[string]any{"awsIdc": map[string]any{"idcInstanceArn": identityCenter}, "namespace": "argocd",
			"rbacRoleMappings": []any{map[string]any{"role": "ADMIN", "identities": []any{map[string]any{"id": "platform", "type": "SSO_GROUP"}}}}}}
	if d := cmp.Diff(want, c.InputsLike(want)); d != "" {
		t.Errorf("capability inputs (-want +got):\n%s", d)
	}
	secret := cloud.MustGet(t, secretType, "hub-cluster-secret")
	data := toStrings(t, secret.Input("stringData"))
	if data["server"] != "arn:aws:eks:us-east-1:123456789012:cluster/hub" || data["config"] != InClusterConfig() {
		t.Errorf("the hub's own secret = %v, want its cluster ARN and no credential", data)
	}
	// The hub's access for what the fleet's Applications deploy there, on the entry EKS made (not an entry of ours).
	access := cloud.MustGet(t, "aws:eks/accessPolicyAssociation:AccessPolicyAssociation", "hub-argocd-capability-access")
	wantAccess := map[string]any{"clusterName": "hub", "principalArn": want["roleArn"],
		"policyArn": "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy", "accessScope": map[string]any{"type": "cluster"}}
	if d := cmp.Diff(wantAccess, access.InputsLike(wantAccess)); d != "" {
		t.Errorf("the capability role's access on the hub (-want +got):\n%s", d)
	}
	if n := len(cloud.OfType("aws:eks/accessEntry:AccessEntry")); n > 0 {
		t.Errorf("a managed hub makes %d access entries of its own; EKS makes the capability's", n)
	}
	capabilityURN := mocks.URN(TypeToken, capability.TypeToken, "hub-argocd")
	if !slices.Contains(access.Dependencies, capabilityURN) {
		t.Error("the association is created before the capability, whose access entry it needs")
	}
	accessURN := mocks.URN(TypeToken, "aws:eks/accessPolicyAssociation:AccessPolicyAssociation", "hub-argocd-capability-access")
	for _, r := range cloud.Resources() {
		if strings.HasPrefix(r.Type, "kubernetes:") && !strings.HasPrefix(r.Type, "kubernetes:core/v1:Namespace") &&
			r.Type != "pulumi:providers:kubernetes" && !slices.Contains(r.Dependencies, capabilityURN) {
			t.Errorf("%s %s is not created after the capability (nor deleted before it)", r.Type, r.Name)
		}
		// What Argo CD acts on, on the hub, once written: the clusters it reaches and the Applications it syncs.
		if (r.Type == secretType || r.Type == "kubernetes:argoproj.io/v1alpha1:Application") &&
			!slices.Contains(r.Dependencies, accessURN) {
			t.Errorf("%s %s is not created after the capability's access on the hub (nor deleted before it)", r.Type, r.Name)
		}
	}
	if got := mocks.Await[string](t, gb.ManagementRoleArn); got != want["roleArn"] {
		t.Errorf("managementRoleArn = %q, want the capability's role", got)
	}
	if got := mocks.Await[string](t, gb.ArgoCdServerUrl); got != "https://hub.eks-capabilities.us-east-1.amazonaws.com" {
		t.Errorf("argocdServerUrl = %q", got)
	}
}

// TestManagedHubAccessPolicy: hub.capability.accessPolicyArn replaces the default cluster admin, still cluster-wide.
func TestManagedHubAccessPolicy(t *testing.T) {
	a := managedHubArgs()
	a.Hub.Capability.AccessPolicyArn = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy"
	cloud, _ := build(t, "hub", a)
	access := cloud.MustGet(t, "aws:eks/accessPolicyAssociation:AccessPolicyAssociation", "hub-argocd-capability-access")
	want := map[string]any{"policyArn": a.Hub.Capability.AccessPolicyArn, "accessScope": map[string]any{"type": "cluster"}}
	if d := cmp.Diff(want, access.InputsLike(want)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestManagedSpoke: a spoke of a managed hub registers by ARN with no role.
func TestManagedSpoke(t *testing.T) {
	a := spokeArgs()
	a.Cluster = cluster("spoke1", "us-west-2") // no spokeRoleArn: a managed hub needs none
	a.Spoke.HubMode = ModeManaged
	cloud, _ := build(t, "spoke1", a)
	data := toStrings(t, cloud.MustGet(t, secretType, "spoke1-cluster-secret").Input("stringData"))
	if want := map[string]string{"name": "spoke1", "server": "arn:aws:eks:us-west-2:123456789012:cluster/spoke1",
		"config": InClusterConfig()}; !cmp.Equal(want, data) {
		t.Errorf("spoke secret (-want +got):\n%s", cmp.Diff(want, data))
	}
	var cfg ClusterConfig
	if err := json.Unmarshal([]byte(data["config"]), &cfg); err != nil || cfg.AWSAuthConfig != nil || cfg.TLSClientConfig.Insecure {
		t.Errorf("config %s carries a credential or skips TLS", data["config"])
	}
}

func TestManagedValidation(t *testing.T) {
	cases := map[string]struct {
		reason string
		edit   func(a *GitOpsBridgeArgs)
		want   []string
	}{
		"mode":            {reason: "modes are an enum", edit: func(a *GitOpsBridgeArgs) { a.Hub.Mode = "aws" }, want: []string{`hub.mode: "aws" is not a hub mode`}},
		"no capability":   {reason: "managed needs the Identity Center instance", edit: func(a *GitOpsBridgeArgs) { a.Hub.Capability = nil }, want: []string{"hub.capability: is required with hub.mode managed"}},
		"capability only": {reason: "a self-managed hub refuses the capability's settings", edit: func(a *GitOpsBridgeArgs) { a.Hub.Mode = ModeSelfManaged }, want: []string{"hub.capability: applies to hub.mode managed only"}},
		"capability rules": {
			reason: "the capability's settings are checked as EKS checks them",
			edit: func(a *GitOpsBridgeArgs) {
				a.Hub.Capability.CapabilityName = "argo cd"
				a.Hub.Capability.IdentityCenter.InstanceArn = "ssoins-1"
				a.Hub.Capability.RbacRoleMappings[0].Role = "OWNER"
			},
			want: []string{`hub.capability.capabilityName: "argo cd"`, `hub.capability.awsIdc.idcInstanceArn: "ssoins-1"`,
				`hub.capability.rbacRoleMappings[0].role: "OWNER"`},
		},
		"access policy": {
			reason: "an access policy is named by its ARN, as EKS's AssociateAccessPolicy takes it",
			edit:   func(a *GitOpsBridgeArgs) { a.Hub.Capability.AccessPolicyArn = "AmazonEKSClusterAdminPolicy" },
			want:   []string{`hub.capability.accessPolicyArn: "AmazonEKSClusterAdminPolicy" is not a valid ARN; expected arn:<partition>:eks::aws:cluster-access-policy/<PolicyName>`},
		},
		"signature keys": {
			reason: "a managed hub cannot verify signatures: refused, not silently dropped",
			edit:   func(a *GitOpsBridgeArgs) { a.Hub.SignatureKeys = []string{"0123456789ABCDEF"} },
			want:   []string{"hub.signatureKeys: applies to mode selfManaged only"},
		},
		"controller sharding": {
			reason: "the managed Argo CD's controller is EKS's: past its limit the way out is more hubs",
			edit:   func(a *GitOpsBridgeArgs) { a.Hub.ControllerSharding = &ControllerSharding{Replicas: 2} },
			want:   []string{"hub.controllerSharding: applies to mode selfManaged only", "a hub of its own"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := managedHubArgs()
			tc.edit(&a)
			_, _, err := run("hub", a)
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %v lacks %q", tc.reason, err, w)
				}
			}
		})
	}
	a := spokeArgs()
	a.Spoke.HubMode = "eks"
	if _, _, err := run("spoke1", a); err == nil || !strings.Contains(err.Error(), `spoke.hubMode: "eks" is not a hub mode`) {
		t.Errorf("a bad spoke.hubMode: %v", err)
	}
}

// TestManagedRepositoryWarnings: each repository a managed hub bootstraps is named, with the namespace its
// ApplicationSets live in; a self-managed hub's are not.
func TestManagedRepositoryWarnings(t *testing.T) {
	a := managedHubArgs()
	a.AddonsRepo = &Repo{URL: "https://github.com/example/addons"}
	a.WorkloadsRepo = &Repo{URL: "https://github.com/example/workloads"}
	a.Namespace = DefaultNamespace
	got := ManagedRepositoryWarnings(a)
	if len(got) != 2 || !strings.HasPrefix(got[0], "addonsRepo: ") || !strings.Contains(got[0], "live in argocd-addons") ||
		!strings.HasPrefix(got[1], "workloadsRepo: ") || !strings.Contains(got[1], "live in argocd-workloads") {
		t.Errorf("warnings %q: want one for addonsRepo (argocd-addons) and one for workloadsRepo (argocd-workloads)", got)
	}
	a.Hub.Mode = ModeSelfManaged
	if got := ManagedRepositoryWarnings(a); got != nil {
		t.Errorf("a self-managed hub is warned: %q", got)
	}
}

func TestManagedWarnings(t *testing.T) {
	cases := map[string]struct {
		reason string
		hub    Hub
		want   []string
	}{
		"self-managed": {reason: "nothing to warn of", hub: Hub{Mode: ModeSelfManaged, HighAvailability: true}},
		"managed defaults": {reason: "the defaults GitOpsBridge fills in are no setting of the user's",
			hub: Hub{Mode: ModeManaged, ReleaseName: DefaultReleaseName, ChartVersion: DefaultChartVersion, ChartRepository: DefaultChartRepository}},
		"unsupported": {
			reason: "each feature the EKS User Guide lists as unsupported, and the chart's settings, named",
			hub: Hub{Mode: ModeManaged, ChartVersion: "9.0.0", HighAvailability: true, Values: map[string]any{
				"configs": map[string]any{"cmp": map[string]any{}, "params": map[string]any{},
					"cm": map[string]any{"resource.customizations.health.example.com_Widget": "x", "url": "https://argo"}},
				"notifications": map[string]any{"enabled": true},
				"repoServer":    map[string]any{"extraContainers": []any{}},
				"global":        map[string]any{},
			}, Bootstrap: []map[string]any{{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
				"source": map[string]any{"plugin": map[string]any{"name": "kustomize-sops"}}}}}}}},
			want: []string{
				"hub.chartVersion applies to mode selfManaged only",
				"hub.highAvailability applies to mode selfManaged only",
				"hub.values.configs.cmp: a config management plugin is not supported by the managed Argo CD (EKS User Guide, " + ComparisonGuide,
				"hub.values.repoServer.extraContainers: a config management plugin (a repo server sidecar) is not supported",
				"hub.values.notifications: the notifications controller is not supported",
				`hub.values.configs.cm["url"]: the managed Argo CD reads only resource.customizations.health.*`,
				"hub.values.configs.params: argocd-cmd-params-cm is not supported",
				"hub.values.global applies to mode selfManaged only",
				"hub.bootstrap[0]: a config management plugin source (spec.source.plugin) is not supported",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ManagedWarnings(tc.hub)
			if len(got) != len(tc.want) {
				t.Fatalf("%s: %d warnings, want %d:\n%s", tc.reason, len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("%s: warning %d\n got %s\nwant %s...", tc.reason, i, got[i], w)
				}
			}
		})
	}
}

// TestManagedRegistrations: a managed hub's guard takes spokes registered by ARN only, and no secret names the
// in-cluster server.
func TestManagedRegistrations(t *testing.T) {
	byARN := ClusterSecret{Name: "spoke1", Namespace: "argocd", ClusterName: "spoke1",
		Server: "arn:aws:eks:us-west-2:123456789012:cluster/spoke1", Config: InClusterConfig()}
	withRole := byARN
	withRole.Server, withRole.Config = "https://spoke1.example.com", SpokeConfig("spoke1", spokeRoleArn, "Q0E=")
	cases := map[string]struct {
		reason string
		s      ClusterSecret
		byARN  bool
		want   string
	}{
		"managed by ARN":       {reason: "a managed hub's spoke", s: byARN, byARN: true},
		"managed with a role":  {reason: "a self-managed spoke's secret in a managed hub", s: withRole, byARN: true, want: "is not a spoke's of a managed hub"},
		"self-managed by ARN":  {reason: "a managed spoke's secret in a self-managed hub", s: byARN, want: "config is not a spoke's"},
		"self-managed by role": {reason: "today's spoke", s: withRole},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var ps problems.List
			checkRegistered(&ps, "hub.registeredSecrets[0]", tc.s, "argocd", nil, tc.byARN)
			got := fmt.Sprint(ps.Err(TypeToken))
			if len(ps) == 0 {
				got = ""
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("%s: problems %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
	g := ClusterSecretGuard{Namespace: "argocd", ByARN: true, Registered: []ClusterSecret{byARN}}
	var found bool
	for _, v := range g.Policy().Validations {
		found = found || strings.Contains(v.Message, "the managed Argo CD does not take the in-cluster server")
	}
	if !found {
		t.Error("a managed hub's guard does not refuse the in-cluster server")
	}
}
