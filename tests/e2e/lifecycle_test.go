package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/workloads"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
)

// vap and vapBinding are the types of a ValidatingAdmissionPolicy and its binding.
const (
	vap        = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
	vapBinding = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
)

// fleetUpdate is what an added or removed cluster updates beside its own resources: the Fleet's ClusterLedger
// recording it, the hub's Argo CD project default (the add-ons' Applications), whose destinations are the fleet's
// spokes by name, and the hub's cluster-secret guard, which pins each spoke's secret.
var fleetUpdate = map[string]int{"fleet:index:ClusterLedger": 1, "kubernetes:argoproj.io/v1alpha1:AppProject": 1,
	vap: 1}

// guardType and hubGuard are the hub's cluster-secret guard: it pins every spoke's secret, labels and annotations
// included, so a change of a spoke's registration updates it too.
const (
	guardType = vap
	hubGuard  = "hub-cluster-secrets-policy"
)

// podIdentityAssociation is the type of an EKS Pod Identity association.
const podIdentityAssociation = "aws:eks/podIdentityAssociation:PodIdentityAssociation"

// day2Config is a hub and one spoke with one add-on each, on Kubernetes 1.33.
func day2Config() fleettest.Config {
	repo := map[string]any{"url": "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
		"revision": "main", "path": "bootstrap/control-plane/addons"}
	group := map[string]any{"name": "system", "instanceTypes": []string{"m6i.large"}, "minSize": 1, "desiredSize": 2, "maxSize": 3}
	return fleettest.Config{
		"aws:region":                "us-east-1",
		"gitops-fleet:repositories": map[string]any{"addons": repo},
		"gitops-fleet:defaults": map[string]any{"version": "1.33", "nodeGroups": []any{group},
			"addons": map[string]bool{"metrics_server": true}, "drain": map[string]any{"timeout": "20s"}},
		"gitops-fleet:clusters": []any{
			map[string]any{"name": "hub", "region": "us-east-1", "role": "hub"},
			map[string]any{"name": "spoke-a", "region": "us-east-2", "role": "spoke"},
		},
	}
}

// of tells whether urn belongs to the named cluster: its FleetCluster or GitOpsBridge, or a child of either.
func of(urn, cluster string) bool {
	return strings.HasSuffix(urn, "::"+cluster) || strings.Contains(urn, "::"+cluster+"-") ||
		strings.HasSuffix(urn, "::"+cluster+"-cluster-secret")
}

// clusters is the config's cluster list.
func clusters(cfg fleettest.Config) []any { return cfg["gitops-fleet:clusters"].([]any) }

// cluster is the config entry of the named cluster.
func cluster(cfg fleettest.Config, name string) map[string]any {
	for _, c := range clusters(cfg) {
		if c := c.(map[string]any); c["name"] == name {
			return c
		}
	}
	panic("no cluster " + name + " in the config")
}

// TestDay2 drives one fleet through the changes its users make, each previewed (the exact plan by operation
// and type) before `up` and settled (`preview --expect-no-changes`) after.
func TestDay2(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	l := env.Configured("day2", day2Config())
	l.Up("up")
	l.Settled()

	t.Run("add a spoke: only its resources and its secret in the hub", func(t *testing.T) {
		l := l.For(t)
		l.Config()["gitops-fleet:clusters"] = append(clusters(l.Config()),
			map[string]any{"name": "spoke-b", "region": "us-west-2", "role": "spoke"})
		steps := l.Preview("preview")
		p := steps.Plan()
		if ops := slices.Sorted(maps.Keys(p)); !slices.Equal(ops, []string{"create", "update"}) ||
			!maps.Equal(p["update"], fleetUpdate) {
			t.Errorf("operations %v, want creates, and updates of the ledger, the add-ons project and the guard only: %v", ops, p)
		}
		created := steps.URNs("create")
		for _, u := range created {
			if !of(u, "spoke-b") && !strings.HasSuffix(u, "pulumi:providers:aws::aws-us-west-2") {
				t.Errorf("adding spoke-b creates %s", u)
			}
		}
		if !slices.ContainsFunc(created, func(u string) bool { return strings.HasSuffix(u, "::spoke-b-cluster-secret") }) {
			t.Error("the plan has no cluster secret for spoke-b")
		}
		if got := l.Up("up").Steps.URNs("create"); !slices.Equal(got, created) {
			t.Errorf("up created other resources than planned:\n%s", cmp.Diff(created, got))
		}
		l.SettledByNext() // the toggle's exact plan
		// spoke-b's workloads, and what the add-on controllers made for them, which its removal drains.
		putWorkloadsOnServer(t, env, "spoke-b", "us-west-2")
	})

	t.Run("toggle an add-on: its identity and the secret's labels and annotations", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		cluster(l.Config(), "spoke-b")["addons"] = map[string]bool{"external_secrets": true}
		// external-secrets 0.9.13, the template's, takes Pod Identity credentials: its role is bound with an
		// association too (identity podIdentity by default).
		// The hub's guard pins spoke-b's secret: its new labels and annotations update it in the same run. The secret
		// itself is updated in place, not replaced (deleted first), which would unregister spoke-b from Argo CD for a
		// moment (clusterinfo.NewKubernetesProvider).
		steps := l.Plan("preview", fleettest.Plan{
			"create": {"aws:iam/role:Role": 1, "aws:iam/rolePolicy:RolePolicy": 1, podIdentityAssociation: 1},
			"update": {"kubernetes:core/v1:Secret": 1, guardType: 1},
		})
		for _, u := range append(steps.URNs("create"), steps.URNs("update")...) {
			if !of(u, "spoke-b") && !strings.HasSuffix(u, "::"+hubGuard) {
				t.Errorf("enabling external_secrets on spoke-b touches %s", u)
			}
		}
		l.Up("up")
		l.SettledByNext() // the switch to IRSA's exact plan
		// Argo CD syncs the add-on into spoke-b, its CRDs with it: the SecretStore kind, which a tenant's namespaces
		// on spoke-b get one of (a stand-in CRD, external-secrets.io/v1beta1 as 0.9.13 serves it: the add-on's chart
		// is not here, nor does Argo CD run).
		openCRD(context.Background(), t, env.ClusterIn("us-west-2", "spoke-b").Dynamic(),
			schema.GroupVersionResource{Group: "external-secrets.io", Version: "v1beta1", Resource: "secretstores"},
			"SecretStore", "Namespaced")
	})

	t.Run("switch a cluster to IRSA and back: associations and trust policies, in place", func(t *testing.T) {
		l := l.For(t)
		cluster(l.Config(), "spoke-b")["identity"] = "irsa"
		l.Plan("preview-to-irsa", fleettest.Plan{"delete": {podIdentityAssociation: 1}, "update": {"aws:iam/role:Role": 1}})
		l.Up("up")
		l.SettledByNext() // the way back's exact plan

		delete(cluster(l.Config(), "spoke-b"), "identity")
		steps := l.Plan("preview-to-pod-identity", fleettest.Plan{"create": {podIdentityAssociation: 1}, "update": {"aws:iam/role:Role": 1}})
		for _, u := range append(steps.URNs("create"), steps.URNs("update")...) {
			if !of(u, "spoke-b") || !(strings.HasSuffix(u, "::spoke-b-irsa-external-secrets") ||
				strings.HasSuffix(u, "::spoke-b-pod-identity-external-secrets-sa")) {
				t.Errorf("switching spoke-b's identity touches %s", u)
			}
		}
		l.Up("up")
		_, dep := l.Export(false)
		var agent, assoc string
		var deps []string
		for _, r := range dep.Resources {
			switch u := string(r.URN); {
			case strings.HasSuffix(u, "::spoke-b-eks-pod-identity-agent"):
				agent = u
			case strings.HasSuffix(u, "::spoke-b-pod-identity-external-secrets-sa"):
				assoc = u
				for _, d := range r.Dependencies {
					deps = append(deps, string(d))
				}
			}
		}
		if assoc == "" || agent == "" || !slices.Contains(deps, agent) {
			t.Errorf("the association %q must follow the eks-pod-identity-agent add-on %q, which serves its credentials; "+
				"it depends on %v", assoc, agent, deps)
		}
		l.SettledByNext() // the resize's exact plan
	})

	t.Run("resize a node group: one in-place update", func(t *testing.T) {
		l.For(t).Apply(fleettest.Change{
			Edit: func(c fleettest.Config) {
				cluster(c, "spoke-a")["nodeGroups"] = []any{map[string]any{"name": "system", "instanceTypes": []string{"m6i.large"},
					"minSize": 1, "desiredSize": 3, "maxSize": 5}}
			},
			WantPlan:      fleettest.Plan{"update": {"aws:eks/nodeGroup:NodeGroup": 1}},
			SettledByNext: true, // Session Manager's exact plan
		})
	})

	t.Run("toggle Session Manager on a cluster's nodes: one attachment of its node role", func(t *testing.T) {
		l := l.For(t)
		attachment := map[string]int{"aws:iam/rolePolicyAttachment:RolePolicyAttachment": 1}
		l.Apply(fleettest.Change{
			Edit:          func(c fleettest.Config) { cluster(c, "spoke-a")["nodeSessionManager"] = true },
			WantPlan:      fleettest.Plan{"create": attachment},
			SettledByNext: true, // its removal's exact plan
			CheckPreview: func(steps fleettest.Steps) {
				if got := steps.URNs("create"); len(got) != 1 || !strings.HasSuffix(got[0], "::spoke-a-node-role-AmazonSSMManagedInstanceCore") {
					t.Errorf("on: creates %v, want spoke-a's node role's Session Manager attachment", got)
				}
			},
		})
		l.Apply(fleettest.Change{
			Edit:          func(c fleettest.Config) { delete(cluster(c, "spoke-a"), "nodeSessionManager") },
			WantPlan:      fleettest.Plan{"delete": attachment},
			SettledByNext: true, // the tenant's exact plan
		})
	})

	t.Run("add a tenant on one spoke, then remove it: its objects, identities and access only", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		l.Config()["gitops-fleet:tenants"] = []any{map[string]any{
			"name": "payments", "clusters": map[string]any{"clusters": []string{"spoke-a"}},
			"owners": []any{map[string]any{"arn": "arn:aws:iam::111122223333:role/payments", "groups": []string{"payments"}}},
			"namespaces": []any{map[string]any{"name": "payments", "serviceAccounts": []any{map[string]any{
				"name": "ledger", "managedPolicyArns": []string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}}}}},
		}}
		want := fleettest.Plan{
			"create": {
				"fleet:index:Tenant": 1, "pulumi:providers:kubernetes": 1, "kubernetes:argoproj.io/v1alpha1:AppProject": 1,
				"kubernetes:core/v1:Namespace": 1, "kubernetes:core/v1:ResourceQuota": 1, "kubernetes:core/v1:LimitRange": 1,
				"kubernetes:networking.k8s.io/v1:NetworkPolicy": 4, "kubernetes:core/v1:ServiceAccount": 1,
				"aws:iam/role:Role": 1, "aws:iam/rolePolicyAttachment:RolePolicyAttachment": 1, podIdentityAssociation: 1,
				"aws:eks/accessEntry:AccessEntry": 1, "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": 1,
				// its namespaces', SecretStores', Services' and ExternalSecrets' pins, its fences' (quotas, limit
				// ranges, network policies) and the five that keep them (role bindings, roles, kube-system's pods,
				// token Secrets and token requests)
				"fleet:index:TenantGuard": 1, vap: 12, vapBinding: 12,
			},
			// The owner's access entry (through the EKS component) and the network policy agent, now that a tenant
			// lives on spoke-a (vpc-cni's configuration).
			"update": {"eks:index:Cluster": 1, "aws:eks/addon:Addon": 1},
		}
		steps := l.Plan("preview", want)
		for _, u := range steps.URNs("update") {
			if !strings.HasSuffix(u, "::spoke-a-cluster") && !strings.HasSuffix(u, "::spoke-a-vpc-cni") {
				t.Errorf("adding the tenant updates %s", u)
			}
		}
		l.Up("up")
		l.SettledByNext() // the quota's exact plan
		if !(env.ClusterIn("us-east-2", "spoke-a").Namespace("payments") != nil) {
			t.Error("no payments namespace on spoke-a's API server")
		}

		tenantCfg := func() map[string]any { return l.Config()["gitops-fleet:tenants"].([]any)[0].(map[string]any) }
		namespaces := func() []any { return tenantCfg()["namespaces"].([]any) }

		// A quota change is one update in place, and the quota fence's, which pins the new spec.
		namespaces()[0].(map[string]any)["quota"] = map[string]any{"requestsCpu": "8"}
		l.Plan("preview-quota", fleettest.Plan{"update": {"kubernetes:core/v1:ResourceQuota": 1, vap: 1}})
		l.Up("up")
		l.Settled()

		// A second namespace: its objects, the project's destinations, the guard's namespaces and the owner's
		// access scope (through the EKS component; how EKS applies a new scope is the aws provider's business, so
		// the association's own step is not asserted).
		tenantCfg()["namespaces"] = append(namespaces(), map[string]any{"name": "payments-batch"})
		p := l.Preview("preview").Plan()
		delete(p["update"], "aws:eks/accessPolicyAssociation:AccessPolicyAssociation")
		delete(p, "replace")
		delete(p, "create-replacement")
		delete(p, "delete-replaced")
		wantNS := fleettest.Plan{
			"create": {"kubernetes:core/v1:Namespace": 1, "kubernetes:core/v1:ResourceQuota": 1, "kubernetes:core/v1:LimitRange": 1,
				"kubernetes:networking.k8s.io/v1:NetworkPolicy": 4},
			"update": {"kubernetes:argoproj.io/v1alpha1:AppProject": 1, "fleet:index:TenantGuard": 1, "eks:index:Cluster": 1,
				// the namespaces policy (the new namespace's level), the three fences (its objects) and the seven
				// bindings of the tenant's namespaces (the five that keep them bind every namespace or kube-system)
				vap: 4, vapBinding: 7},
		}
		if diff := cmp.Diff(wantNS, p); diff != "" {
			t.Errorf("adding a namespace: plan (-want +got):\n%s", diff)
		}
		l.Up("up")
		l.SettledByNext() // the next cluster's exact plan

		// One more cluster: the tenant's objects, identity, access and guard there, and the project's destinations.
		tenantCfg()["clusters"] = map[string]any{"clusters": []string{"spoke-a", "spoke-b"}}
		l.Plan("preview-cluster", fleettest.Plan{
			"create": {
				"pulumi:providers:kubernetes": 1, "kubernetes:core/v1:Namespace": 2, "kubernetes:core/v1:ResourceQuota": 2,
				"kubernetes:core/v1:LimitRange": 2, "kubernetes:networking.k8s.io/v1:NetworkPolicy": 8,
				// spoke-b runs external-secrets: each namespace gets a SecretStore, its service account and role.
				"kubernetes:external-secrets.io/v1beta1:SecretStore": 2, "kubernetes:core/v1:ServiceAccount": 3,
				"aws:iam/role:Role": 3, "aws:iam/rolePolicy:RolePolicy": 2,
				"aws:iam/rolePolicyAttachment:RolePolicyAttachment": 1, podIdentityAssociation: 1,
				"aws:eks/accessEntry:AccessEntry": 1, "aws:eks/accessPolicyAssociation:AccessPolicyAssociation": 1,
				"fleet:index:TenantGuard": 1, vap: 12, vapBinding: 12,
			},
			"update": {"kubernetes:argoproj.io/v1alpha1:AppProject": 1, "eks:index:Cluster": 1, "aws:eks/addon:Addon": 1},
		})
		l.Up("up")
		l.Settled()
		// Back to one namespace on spoke-a: nothing holds claims yet, so the guards let the objects go.
		tenantCfg()["clusters"] = map[string]any{"clusters": []string{"spoke-a"}}
		tenantCfg()["namespaces"] = namespaces()[:1]
		delete(namespaces()[0].(map[string]any), "quota")
		l.Up("up")
		l.SettledByNext() // the removal's exact plan

		// The tenant's data: a claim in its namespace. Removing the tenant is refused while preventDeletion (the
		// default) is recorded, and nothing of it goes.
		if _, err := env.ClusterIn("us-east-2", "spoke-a").Typed().CoreV1().PersistentVolumeClaims("payments").Create(
			context.Background(), &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "ledger-data"},
				Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceStorage: resource.MustParse("1Gi")}}}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		tenants := l.Config()["gitops-fleet:tenants"]
		delete(l.Config(), "gitops-fleet:tenants")
		// Removing it deletes what adding it created, and reverts the updates.
		l.Plan("preview-removal", fleettest.Plan{"delete": want["create"], "update": want["update"]})
		log, err := l.TryUp("up-tenant-refused")
		if err == nil || !strings.Contains(log, "payments/ledger-data") || !strings.Contains(log, "preventDeletion: false") {
			t.Fatalf("want the removal refused naming payments/ledger-data and preventDeletion: false, got %v", err)
		}
		if !(env.ClusterIn("us-east-2", "spoke-a").Namespace("payments") != nil) {
			t.Error("a refused removal deleted the tenant's namespace")
		}

		// preventDeletion: false, recorded by an up of its own (the guard's update), then the removal goes through.
		l.Config()["gitops-fleet:tenants"] = tenants
		tenants.([]any)[0].(map[string]any)["preventDeletion"] = false
		if p := l.Preview("preview").Plan(); p["update"]["fleet:index:TenantGuard"] != 1 || len(p["delete"]) > 0 {
			t.Errorf("restoring the tenant with preventDeletion: false plans %v, want the guard's update and no delete", p)
		}
		l.Up("up")
		delete(l.Config(), "gitops-fleet:tenants")
		l.Up("up")
		l.SettledByNext() // the upgrade's exact plan
		if env.ClusterIn("us-east-2", "spoke-a").Namespace("payments") != nil {
			t.Error("the tenant's namespace is still on spoke-a's API server after its removal")
		}
	})

	t.Run("upgrade Kubernetes: control plane, then add-ons, then node groups", func(t *testing.T) {
		l.For(t).Apply(fleettest.Change{
			Edit: func(c fleettest.Config) { cluster(c, "spoke-a")["version"] = "1.34" },
			WantPlan: fleettest.Plan{"update": {
				"aws:eks/cluster:Cluster":     1,
				"aws:eks/addon:Addon":         4,
				"aws:eks/nodeGroup:NodeGroup": 1,
				"eks:index:Cluster":           1, // pulumi-eks's component: its version input
				"kubernetes:core/v1:Secret":   1, // kubernetes_version label and annotation
				guardType:                     1, // which the hub's guard pins
			}},
			CheckUp: func(steps fleettest.Steps) {
				controlPlane := steps.Last("aws:eks/cluster:Cluster", "::spoke-a-cluster-eksCluster", true)
				group := steps.First("aws:eks/nodeGroup:NodeGroup", "::spoke-a-ng-system", false)
				groupDone := steps.Last("aws:eks/nodeGroup:NodeGroup", "::spoke-a-ng-system", true)
				if controlPlane < 0 || group < 0 {
					t.Fatalf("no control plane or node group update in the events")
				}
				for _, agent := range []string{"vpc-cni", "kube-proxy", "eks-pod-identity-agent"} {
					start := steps.First("aws:eks/addon:Addon", "::spoke-a-"+agent, false)
					end := steps.Last("aws:eks/addon:Addon", "::spoke-a-"+agent, true)
					if !(controlPlane < start && end < group) {
						t.Errorf("%s updated at events %d-%d: want after the control plane (%d) and before the node group (%d)",
							agent, start, end, controlPlane, group)
					}
				}
				if coredns := steps.First("aws:eks/addon:Addon", "::spoke-a-coredns", false); coredns < groupDone {
					t.Errorf("coredns updated at event %d, before the node group finished (%d): its pods need the nodes", coredns, groupDone)
				}
				for _, s := range steps {
					if strings.Contains(s.Op, "replace") || s.Op == "delete" {
						t.Errorf("the upgrade %ss %s", s.Op, s.URN)
					}
				}
			},
		})
	})

	t.Run("a refused replacement: a new vpcCidr changes nothing", func(t *testing.T) {
		l := l.For(t)
		cluster(l.Config(), "spoke-a")["vpcCidr"] = "10.99.0.0/16"
		err := l.TryPreview("preview-refused")
		if err == nil || !strings.Contains(err.Error(), "clusters[1].vpcCidr") || !strings.Contains(err.Error(), "allowReplacement") {
			t.Fatalf("want the ledger to refuse clusters[1].vpcCidr naming allowReplacement, got %v", err)
		}
		if _, err := l.TryUp("up-refused"); err == nil {
			t.Fatal("up of a new vpcCidr succeeded")
		}
		delete(cluster(l.Config(), "spoke-a"), "vpcCidr")
		l.Settled()
	})

	t.Run("remove a spoke that was not decommissioned: refused in preview, nothing touched", func(t *testing.T) {
		l := l.For(t)
		all := clusters(l.Config())
		l.Config()["gitops-fleet:clusters"] = all[:2]
		err := l.TryPreview("preview-removal-refused")
		if err == nil || !strings.Contains(err.Error(), `removing cluster "spoke-b"`) || !strings.Contains(err.Error(), "decommission: true") {
			t.Fatalf("want the ledger to refuse removing spoke-b, naming decommission: true, got %v", err)
		}
		l.Config()["gitops-fleet:clusters"] = all
		l.SettledByNext() // the decommission's exact plan
	})

	t.Run("decommission a spoke: its secret's label and the ledger's record only", func(t *testing.T) {
		l := l.For(t)
		cluster(l.Config(), "spoke-b")["decommission"] = true
		steps := l.Plan("preview", fleettest.Plan{"update": {"kubernetes:core/v1:Secret": 1, "fleet:index:ClusterLedger": 1, guardType: 1}})
		for _, u := range steps.URNs("update") {
			if !strings.HasSuffix(u, "::spoke-b-cluster-secret") && !strings.HasSuffix(u, "::fleet-ledger") &&
				!strings.HasSuffix(u, "::"+hubGuard) {
				t.Errorf("decommissioning spoke-b updates %s", u)
			}
		}
		l.Up("up")
		outs := l.Outputs()
		clusters, _ := outs["clusters"].Value.(map[string]any)
		tagged, _ := clusters["spoke-b"].(map[string]any)["stillTagged"].([]any)
		_, made := spokeWorkloads("spoke-b", "us-west-2")
		if len(tagged) != len(made) {
			t.Errorf("the summary shows %d resources still tagged to spoke-b, want the %d its controllers made: %v", len(tagged), len(made), tagged)
		}
		if _, ok := clusters["spoke-a"].(map[string]any)["stillTagged"]; ok {
			t.Error("the summary shows what is still tagged to spoke-a, which is not decommissioned")
		}
		l.Settled()
	})

	t.Run("remove a spoke with a leftover: the drain fails naming it, and nothing of the cluster goes", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		if err := workloads.Put(env.Cloud().Store(), nil, []workloads.Tagged{leftover}); err != nil {
			t.Fatal(err)
		}
		l.Config()["gitops-fleet:clusters"] = clusters(l.Config())[:2]
		steps := l.Preview("preview")
		p := steps.Plan()
		if ops := slices.Sorted(maps.Keys(p)); !slices.Equal(ops, []string{"delete", "update"}) ||
			!maps.Equal(p["update"], fleetUpdate) || p["delete"][drain.TypeToken] != 1 {
			t.Errorf("operations %v, want deletes (spoke-b's drain among them), and updates of the ledger, the add-ons "+
				"project and the guard only: %v", ops, p)
		}
		for _, u := range steps.URNs("delete") {
			if !of(u, "spoke-b") && !strings.HasSuffix(u, "pulumi:providers:aws::aws-us-west-2") {
				t.Errorf("removing spoke-b deletes %s", u)
			}
		}
		log, err := l.TryUp("up-leftover")
		if err == nil || !strings.Contains(log, leftover.ARN) || !strings.Contains(log, "drain.force") {
			t.Fatalf("want the drain to fail naming %s and drain.force, got %v", leftover.ARN, err)
		}
		_, dep := l.Export(false)
		for _, want := range []string{"::spoke-b-drain", "::spoke-b-cluster-eksCluster", "::spoke-b-vpc",
			"::spoke-b-cluster-secret", "::spoke-b-ng-system"} {
			if !slices.ContainsFunc(dep.Resources, func(r apitype.ResourceV3) bool { return strings.HasSuffix(string(r.URN), want) }) {
				t.Errorf("a failed drain deleted %s", want)
			}
		}
		if len(env.Cloud().Records("aws", "aws:eks/cluster:Cluster")) != 3 {
			t.Error("a failed drain let spoke-b's EKS cluster go from the cloud")
		}
		names := workloadsOnServer(t, env, "spoke-b", "us-west-2")
		if want := []string{"persistentvolumeclaims/archive", "persistentvolumes/pv-archive", "persistentvolumes/pv-data",
			"services/internal"}; !slices.Equal(names, want) {
			t.Errorf("spoke-b holds %v after the drain, want %v: the drain deletes Ingresses, LoadBalancer Services, "+
				"claims on Delete volumes and node pools, nothing else", names, want)
		}
		if got := taggedARNs(t, env, "us-west-2"); !slices.Equal(got, []string{retainedVolume, leftover.ARN}) {
			t.Errorf("us-west-2 holds %v, want the leftover and the retained volume only", got)
		}
	})

	t.Run("rerun with defaults.drain.force: the drain first, then the secret and add-on roles, then the cluster and VPC", func(t *testing.T) {
		l, env := l.For(t), env.For(t)
		l.Config()["gitops-fleet:defaults"].(map[string]any)["drain"] = map[string]any{"timeout": "20s", "force": true}
		p := l.Preview("preview").Plan()
		want := map[string]int{drain.TypeToken: 2, "pulumi:providers:fleet": 1}
		if ops := slices.Sorted(maps.Keys(p)); !slices.Equal(ops, []string{"delete", "update"}) || !maps.Equal(p["update"], want) {
			t.Errorf("operations %v, want spoke-b's deletes and updates of the fleet provider (drainForce) and the "+
				"other drains (force) only: %v", ops, p)
		}
		steps := l.Up("up").Steps
		drained := steps.Last(drain.TypeToken, "::spoke-b-drain", true)
		if drained < 0 {
			t.Fatal("no delete of spoke-b's drain in the events")
		}
		for _, then := range []struct{ typ, suffix string }{
			{"kubernetes:core/v1:Secret", "::spoke-b-cluster-secret"},
			{"aws:iam/role:Role", "::spoke-b-irsa-external-secrets"},
			{"aws:eks/nodeGroup:NodeGroup", "::spoke-b-ng-system"},
			{"aws:eks/cluster:Cluster", "::spoke-b-cluster-eksCluster"},
			{"aws:ec2/vpc:Vpc", "::spoke-b-vpc"},
		} {
			if i := steps.First(then.typ, then.suffix, false); i < drained {
				t.Errorf("%s%s deleted at event %d, before the drain ended (%d)", then.typ, then.suffix, i, drained)
			}
		}
		secret := steps.Last("kubernetes:core/v1:Secret", "::spoke-b-cluster-secret", true)
		cluster := steps.First("aws:eks/cluster:Cluster", "::spoke-b-cluster-eksCluster", false)
		if secret < 0 || cluster < 0 || secret > cluster {
			t.Errorf("the hub secret was deleted at event %d, the EKS cluster's delete began at %d", secret, cluster)
		}
		_, dep := l.Export(false)
		for _, r := range dep.Resources {
			if of(string(r.URN), "spoke-b") {
				t.Errorf("the state still holds %s", r.URN)
			}
		}
		all, err := env.Cloud().Store().List()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range all {
			if r.Scope == "us-west-2" && r.Package != workloads.Package {
				t.Errorf("the cloud still holds %s %s in us-west-2", r.Type, r.ID)
			}
		}
		if got := taggedARNs(t, env, "us-west-2"); !slices.Equal(got, []string{retainedVolume, leftover.ARN}) {
			t.Errorf("us-west-2 holds %v, want what the forced drain left (the leftover) and the retained volume", got)
		}
		l.Settled()
	})
}

// TestSwitchToGitDelivery moves a running fleet from direct to Git delivery of its cluster secrets. Deleting the
// secrets Pulumi wrote would unregister the clusters from Argo CD, and its ApplicationSets would delete their
// Applications and, through the resources finalizer, the add-ons on every cluster. So the switching run keeps
// the secrets, marked retain-on-delete, while it commits them to Git; the next run stops managing them without
// deleting them, and the hub's registry Application owns them from then on. The secrets stay on the hub's (real)
// API server throughout. A tenant's objects on the spoke move the same way: committed to its folder, kept on the
// spoke's server.
func TestSwitchToGitDelivery(t *testing.T) {
	t.Parallel()
	cfg := day2Config()
	cfg["gitops-fleet:tenants"] = []any{map[string]any{"name": "payments", "clusters": map[string]any{"clusters": []string{"spoke-a"}},
		"namespaces": []any{map[string]any{"name": "payments"}}}}
	env := newEnv(t)
	l := env.Configured("handover", cfg)
	l.Up("up")
	l.Settled()
	inHub := func() []string { return env.ClusterIn("us-east-1", "hub").ClusterSecrets() }
	want := []string{"hub", "spoke-a"}
	if got := inHub(); !slices.Equal(got, want) {
		t.Fatalf("cluster secrets in the hub before the switch: %v, want %v", got, want)
	}
	namespaceKept := func(when string) {
		if !(env.ClusterIn("us-east-2", "spoke-a").Namespace("payments") != nil) {
			t.Errorf("the tenant's namespace is gone from spoke-a's API server %s", when)
		}
	}
	namespaceKept("before the switch")
	// Nothing in a cluster is deleted: not a cluster secret, not a tenant's object.
	deletesInClusters := func(steps fleettest.Steps) []string {
		var out []string
		for _, s := range steps {
			if strings.HasPrefix(s.Type, "kubernetes:") && s.Type != "kubernetes:argoproj.io/v1alpha1:Application" &&
				(s.Op == "delete" || strings.Contains(s.Op, "replace")) {
				out = append(out, s.Op+" "+s.URN)
			}
		}
		return out
	}

	l.Config()["gitops-fleet:git"] = map[string]any{"owner": "gitops-fleet", "repository": "fleet-registry", "branch": "main"}
	l.Config()["github:token"] = "ghp_offline0pulumi0github0token"
	steps := l.Preview("preview")
	if d := deletesInClusters(steps); len(d) != 0 {
		t.Errorf("the switching run plans to delete objects in the clusters: %v", d)
	}
	if d := deletesInClusters(l.Up("up").Steps); len(d) != 0 {
		t.Errorf("the switching run deleted objects in the clusters: %v", d)
	}
	if got := inHub(); !slices.Equal(got, want) {
		t.Errorf("cluster secrets in the hub after the switching run: %v, want %v", got, want)
	}
	namespaceKept("after the switching run")
	committed := false
	for _, r := range env.Cloud().Records("github", "github:index/repositoryFile:RepositoryFile") {
		if state, err := r.Plain(); err == nil && state["file"] == "tenants/payments/spoke-a.yaml" {
			committed = strings.Contains(fmt.Sprint(state["content"]), "tenant-quota")
		}
	}
	if !committed {
		t.Error("the switching run did not commit the tenant's objects to tenants/payments/spoke-a.yaml")
	}

	l.Up("up") // Pulumi lets go of them
	if got := inHub(); !slices.Equal(got, want) {
		t.Errorf("cluster secrets in the hub after Pulumi let go: %v, want %v (retained, now the registry's)", got, want)
	}
	namespaceKept("after Pulumi let go of it")
	_, dep := l.Export(false)
	for _, r := range dep.Resources {
		if strings.HasSuffix(string(r.URN), "-cluster-secret") && r.Type == "kubernetes:core/v1:Secret" ||
			strings.HasSuffix(string(r.URN), "::payments-spoke-a-payments") {
			t.Errorf("Pulumi still manages %s with Git delivery", r.URN)
		}
	}
	l.SettledByNext() // the quota's exact plan

	// Day 2 with Git: a quota change is one commit to the tenant's file, and the update of the quota fence that pins
	// the new spec on the spoke (before the commit, which waits for the tenant's policies).
	l.Config()["gitops-fleet:tenants"].([]any)[0].(map[string]any)["namespaces"] = []any{map[string]any{"name": "payments",
		"quota": map[string]any{"requestsCpu": "6"}}}
	l.Plan("preview-quota", fleettest.Plan{"update": {"github:index/repositoryFile:RepositoryFile": 1, vap: 1}})
	l.Up("up")
	l.Settled()
}
