package capability

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/google/go-cmp/cmp"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
)

// TestLifecycle creates, refreshes, updates in place and deletes a capability against the offline EKS API.
func TestLifecycle(t *testing.T) {
	eks := startEKS(t, map[string]string{"argocd": TrustPolicy().JSON(), "argocd-2": TrustPolicy().JSON()})
	r, c := ArgoCDCapability{}, ctx(t)
	in := args("argocd")
	in.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "ADMIN", Identities: []CapabilityIdentity{{ID: "platform", Type: "SSO_GROUP"}}},
		{Role: "VIEWER", Identities: []CapabilityIdentity{{ID: "dev", Type: "SSO_GROUP"}}}}
	in.Tags = map[string]string{"team": "platform", "stage": "prod"}

	created, err := r.Create(c, infer.CreateRequest[ArgoCDCapabilityArgs]{Name: "hub", Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	s := created.Output
	if created.ID != "hub:argocd" || s.Status != "ACTIVE" || s.Version != capabilities.Version || s.Region != testRegion ||
		!strings.HasPrefix(s.ServerURL, "https://") || !strings.Contains(s.Arn, ":capability/hub/argocd/argocd/") ||
		s.DeletePropagationPolicy != "RETAIN" || s.IdentityCenterApplicationArn == "" || len(s.HealthIssues) != 0 {
		t.Fatalf("created %s: %+v", created.ID, s)
	}

	// A refresh reads a mapping changed in the console; the next diff undoes it in place.
	read, err := r.Read(c, infer.ReadRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: created.ID, Inputs: in, State: s})
	if err != nil || read.ID != created.ID {
		t.Fatalf("read: %v %q", err, read.ID)
	}
	if d := cmp.Diff(s, read.State); d != "" {
		t.Fatalf("refresh of an unchanged capability changed its state (-created +read):\n%s", d)
	}

	news := in
	news.RoleArn = roleARN("argocd-2")
	news.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "ADMIN", Identities: []CapabilityIdentity{{ID: "sre", Type: "SSO_GROUP"}}},
		{Role: "EDITOR", Identities: []CapabilityIdentity{{ID: "dev", Type: "SSO_GROUP"}}}}
	news.ArgoCD.NetworkAccess = &CapabilityNetworkAccess{VpceIds: []string{"vpce-0123456789abcdef0"}}
	news.Tags = map[string]string{"team": "sre"}
	d, err := r.Diff(c, infer.DiffRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: created.ID, State: s, Inputs: news})
	if err != nil || d.DeleteBeforeReplace {
		t.Fatalf("diff: %v %+v", err, d)
	}
	if got, want := kinds(d.DetailedDiff), map[string]string{"roleArn": "update", "argoCd.rbacRoleMappings": "update",
		"argoCd.networkAccess": "update", "tags": "update"}; !cmp.Equal(got, want) {
		t.Fatalf("diff kinds (-want +got):\n%s", cmp.Diff(want, got))
	}
	updated, err := r.Update(c, infer.UpdateRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: created.ID, State: s, Inputs: news})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Output.Status != "ACTIVE" || updated.Output.Arn != s.Arn {
		t.Fatalf("updated: %+v", updated.Output)
	}
	got, _ := eks.recorded(t, "argocd")
	argo := got["configuration"].(map[string]any)["argoCd"].(map[string]any)
	want := map[string]any{
		"roleArn": roleARN("argocd-2"), "tags": map[string]any{"team": "sre"},
		"networkAccess": map[string]any{"vpceIds": []any{"vpce-0123456789abcdef0"}},
		// VIEWER removed, ADMIN's identities replaced, EDITOR added: the deltas EKS applies.
		"rbacRoleMappings": []any{
			map[string]any{"role": "ADMIN", "identities": []any{map[string]any{"id": "sre", "type": "SSO_GROUP"}}},
			map[string]any{"role": "EDITOR", "identities": []any{map[string]any{"id": "dev", "type": "SSO_GROUP"}}}},
	}
	if d := cmp.Diff(want, map[string]any{"roleArn": got["roleArn"], "tags": got["tags"],
		"networkAccess": argo["networkAccess"], "rbacRoleMappings": argo["rbacRoleMappings"]}); d != "" {
		t.Fatalf("EKS after the update (-want +got):\n%s", d)
	}

	if _, err := r.Delete(c, infer.DeleteRequest[ArgoCDCapabilityState]{ID: created.ID, State: updated.Output}); err != nil {
		t.Fatal(err)
	}
	if _, found := eks.recorded(t, "argocd"); found {
		t.Fatal("the capability outlived its deletion")
	}
	gone, err := r.Read(c, infer.ReadRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: created.ID, Inputs: news, State: updated.Output})
	if err != nil || gone.ID != "" {
		t.Fatalf("read of a deleted capability: %v %q (want no ID)", err, gone.ID)
	}
}

// TestImport reads every input of a capability from its ID.
func TestImport(t *testing.T) {
	startEKS(t, map[string]string{"argocd": TrustPolicy().JSON()})
	r, c := ArgoCDCapability{}, ctx(t)
	in := args("argocd")
	in.CapabilityName, in.ArgoCD.Namespace, in.ArgoCD.EndpointPrefix = "gitops", "gitops", "fleet"
	in.ArgoCD.RbacRoleMappings = []CapabilityRoleMapping{{Role: "ADMIN", Identities: []CapabilityIdentity{{ID: "u-1", Type: "SSO_USER"}}}}
	in.Tags = map[string]string{"team": "platform"}
	if _, err := r.Create(c, infer.CreateRequest[ArgoCDCapabilityArgs]{Inputs: in}); err != nil {
		t.Fatal(err)
	}
	read, err := r.Read(c, infer.ReadRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: "hub:gitops"})
	if err != nil {
		t.Fatal(err)
	}
	in.Region = testRegion
	in.ArgoCD.IdentityCenter.Region = testRegion // EKS reports the instance's region, the cluster's by default
	if d := cmp.Diff(in, read.Inputs); d != "" {
		t.Fatalf("imported inputs (-want +got):\n%s", d)
	}
	if read.State.ServerURL != "https://fleet.eks-capabilities.us-west-2.amazonaws.com" {
		t.Fatalf("server URL %q", read.State.ServerURL)
	}
	if _, err := r.Read(c, infer.ReadRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: "hub"}); err == nil ||
		!strings.Contains(err.Error(), "<clusterName>:<capabilityName>") {
		t.Fatalf("a bad import ID: %v", err)
	}
}

// TestCreateFails: what EKS refuses and a capability that fails to start surface with EKS's own words.
func TestCreateFails(t *testing.T) {
	wrongTrust := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"eks.amazonaws.com"},` +
		`"Action":["sts:AssumeRole"]}]}`
	cases := map[string]struct {
		reason string
		setup  func(e offlineEKS)
		args   func() ArgoCDCapabilityArgs
		want   []string
		init   bool // created, but not ACTIVE: the state is kept
	}{
		"role trusts another service": {
			reason: "EKS checks the role's trust policy names its principal with both actions",
			args:   func() ArgoCDCapabilityArgs { return args("eks-role") },
			want:   []string{"InvalidParameterException", "capabilities.eks.amazonaws.com"},
		},
		"no such role": {
			reason: "the role must exist",
			args:   func() ArgoCDCapabilityArgs { return args("missing") },
			want:   []string{"InvalidParameterException", "does not exist"},
		},
		"no such cluster": {
			reason: "the cluster must exist",
			args: func() ArgoCDCapabilityArgs {
				a := args("argocd")
				a.ClusterName = "spoke"
				return a
			},
			want: []string{"ResourceNotFoundException", "spoke"},
		},
		"second Argo CD": {
			reason: "a cluster has at most one capability of each type",
			setup: func(e offlineEKS) {
				if _, err := (ArgoCDCapability{}).Create(ctx(t), infer.CreateRequest[ArgoCDCapabilityArgs]{Inputs: args("argocd")}); err != nil {
					t.Fatal(err)
				}
			},
			args: func() ArgoCDCapabilityArgs {
				a := args("argocd")
				a.CapabilityName = "second"
				return a
			},
			want: []string{"ResourceInUseException", "already has a capability of type ARGOCD"},
		},
		"fails to start": {
			reason: "a capability EKS cannot start is CREATE_FAILED with its health issues, and recorded",
			setup: func(e offlineEKS) {
				e.api.FailCreate(testCluster, capabilities.Issue{Code: "AccessDenied", Message: "role cannot be assumed"})
			},
			args: func() ArgoCDCapabilityArgs { return args("argocd") },
			want: []string{`capability "argocd" of cluster "hub" is CREATE_FAILED: AccessDenied: role cannot be assumed`},
			init: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := startEKS(t, map[string]string{"argocd": TrustPolicy().JSON(), "eks-role": wrongTrust})
			if tc.setup != nil {
				tc.setup(e)
			}
			resp, err := ArgoCDCapability{}.Create(ctx(t), infer.CreateRequest[ArgoCDCapabilityArgs]{Inputs: tc.args()})
			msg := fmt.Sprint(err)
			var initFailed infer.ResourceInitFailedError
			if errors.As(err, &initFailed) {
				msg = strings.Join(initFailed.Reasons, "\n")
			}
			if err == nil || (resp.ID != "") != tc.init {
				t.Fatalf("%s: err %v, ID %q", tc.reason, err, resp.ID)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%s: error %q lacks %q", tc.reason, msg, w)
				}
			}
		})
	}
}

func kinds(d map[string]p.PropertyDiff) map[string]string {
	out := map[string]string{}
	for k, v := range d {
		out[k] = map[p.DiffKind]string{p.Update: "update", p.UpdateReplace: "replace"}[v.Kind]
	}
	return out
}
