package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gitops-fleet/pulumi-fleet/components/drain"
	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/kubernetes"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// devClusters are the clusters of examples/fleet/Pulumi.dev.yaml and their regions.
var devClusters = map[string]string{"hub": "us-east-1", "spoke-use2": "us-east-2", "spoke-usw2": "us-west-2"}

// TestDevFleet is the user's job on the dev stack: up, then preview and refresh change nothing, the spokes are
// registered in the hub, nothing secret is in plaintext, and destroy leaves the cloud empty.
func TestDevFleet(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	stack := fleetStack(t, env, "dev")
	up, err := stack.Up(ctx, optup.ProgressStreams(progress(t, env, "up")))
	if err != nil {
		t.Fatalf("up: %v", err)
	}
	clusters := clusterOutputs(t, up.Outputs)

	t.Run("every cluster's AWS resources are in its region", func(t *testing.T) {
		byCluster := map[string]int{}
		for _, r := range records(t, env, "aws", "") {
			owner := ownerOf(urnName(r.URN))
			if owner == "" {
				t.Errorf("%s %s belongs to no cluster", r.Type, urnName(r.URN))
				continue
			}
			byCluster[owner]++
			if want := devClusters[owner]; r.Scope != want {
				t.Errorf("%s %s (cluster %s) was created in %q, want %s", r.Type, urnName(r.URN), owner, r.Scope, want)
			}
		}
		eks := records(t, env, "aws", "aws:eks/cluster:Cluster")
		for name, region := range devClusters {
			if byCluster[name] == 0 {
				t.Errorf("cluster %s has no AWS resources in %s", name, region)
			}
			if !slices.ContainsFunc(eks, func(r emulator.Record) bool { return r.ID == name && r.Scope == region }) {
				t.Errorf("no EKS cluster %s in %s", name, region)
			}
		}
	})

	t.Run("the tenants are onboarded onto the clusters they select, and only there", func(t *testing.T) {
		want := map[string][]string{"payments": {"spoke-use2", "spoke-usw2"}, "payments-batch": {"spoke-use2", "spoke-usw2"},
			"search": {"spoke-usw2"}}
		tenants, _ := up.Outputs["tenants"].Value.(map[string]any)
		for tenant, namespace := range map[string]string{"payments": "payments", "search": "search"} {
			summary, _ := tenants[tenant].(map[string]any)
			if got := fmt.Sprint(summary["clusters"]); got != fmt.Sprint(want[namespace]) {
				t.Errorf("tenants output: %s on %s, want %v", tenant, got, want[namespace])
			}
		}
		where := map[string][]string{}
		for _, r := range records(t, env, "kubernetes", "kubernetes:core/v1:Namespace") {
			state, err := r.Plain()
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprint(state["metadata"].(map[string]any)["name"])
			for c, out := range clusters {
				if out.Endpoint == r.Scope && want[name] != nil {
					where[name] = append(where[name], c)
				}
			}
		}
		for ns := range where {
			slices.Sort(where[ns])
		}
		if !maps.EqualFunc(where, want, slices.Equal) {
			t.Errorf("tenant namespaces by cluster: %v, want %v", where, want)
		}
	})

	t.Run("preview after up expects no changes", func(t *testing.T) {
		if _, err := stack.Preview(ctx, optpreview.ExpectNoChanges(), optpreview.ProgressStreams(progress(t, env, "preview"))); err != nil {
			t.Errorf("preview --expect-no-changes: %v", err)
		}
	})

	t.Run("refresh changes nothing", func(t *testing.T) {
		res, err := stack.Refresh(ctx, optrefresh.ProgressStreams(progress(t, env, "refresh")))
		if err != nil {
			t.Fatalf("refresh: %v", err)
		}
		changes := res.Summary.ResourceChanges
		if changes == nil || len(*changes) != 1 || (*changes)["same"] == 0 {
			t.Errorf("refresh changes = %v, want only \"same\"", changes)
		}
	})

	t.Run("the spokes' cluster secrets are in the hub's argocd namespace with awsAuthConfig and no token", func(t *testing.T) {
		hub := clusters["hub"].Endpoint
		for _, spoke := range []string{"spoke-use2", "spoke-usw2"} {
			config := clusterSecretConfig(t, env, hub, "argocd/"+spoke)
			auth, _ := config["awsAuthConfig"].(map[string]any)
			if auth["clusterName"] != spoke || !strings.Contains(fmt.Sprint(auth["roleARN"]), ":role/gitops-fleet/spoke/") {
				t.Errorf("secret argocd/%s awsAuthConfig = %v, want the spoke's name and spoke role", spoke, auth)
			}
			for _, credential := range []string{"bearerToken", "password", "username", "keyData", "certData"} {
				if strings.Contains(fmt.Sprint(config), credential) {
					t.Errorf("secret argocd/%s config carries %s: %v", spoke, credential, config)
				}
			}
		}
	})

	t.Run("the hub's Argo CD may reach every spoke's API endpoint", func(t *testing.T) {
		var hubIPs []string
		for _, r := range records(t, env, "aws", "aws:ec2/eip:Eip") {
			if r.Scope == devClusters["hub"] {
				state, err := r.Plain()
				if err != nil {
					t.Fatal(err)
				}
				hubIPs = append(hubIPs, fmt.Sprint(state["publicIp"])+"/32")
			}
		}
		if len(hubIPs) == 0 {
			t.Fatal("the hub has no NAT addresses")
		}
		for _, r := range records(t, env, "aws", "aws:eks/cluster:Cluster") {
			if r.ID == "hub" {
				continue
			}
			state, err := r.Plain()
			if err != nil {
				t.Fatal(err)
			}
			vpc, _ := state["vpcConfig"].(map[string]any)
			cidrs := fmt.Sprint(vpc["publicAccessCidrs"])
			for _, ip := range hubIPs {
				if vpc["endpointPublicAccess"] != true || !strings.Contains(cidrs, ip) {
					t.Errorf("spoke %s: public endpoint %v for %s, want on for the hub's %s", r.ID,
						vpc["endpointPublicAccess"], cidrs, ip)
				}
			}
		}
	})

	t.Run("kubeconfigs are never in plaintext in the state", func(t *testing.T) {
		text, _ := exported(t, env, stack, false)
		for _, marker := range []string{"get-token", "current-context", "client.authentication.k8s.io"} {
			if n := strings.Count(text, marker); n > 0 {
				t.Errorf("stack export has %d plaintext %q (a kubeconfig)", n, marker)
			}
		}
	})

	t.Run("destroy drains every cluster, the hub last, and leaves no resources in the cloud or the stack", func(t *testing.T) {
		for name, region := range devClusters {
			if err := putWorkloads(env, name, region); err != nil {
				t.Fatal(err)
			}
		}
		var steps []step
		ch, done := make(chan events.EngineEvent), make(chan struct{})
		go collect(ch, &steps, done)
		_, err := stack.Destroy(ctx, optdestroy.EventStreams(ch), optdestroy.ProgressStreams(progress(t, env, "destroy")))
		<-done
		if err != nil {
			t.Fatalf("destroy: %v", err)
		}
		hubDrain := first(steps, drain.TypeToken, "::hub-drain", false)
		hubDrained := last(steps, drain.TypeToken, "::hub-drain", true)
		for name := range devClusters {
			drained := last(steps, drain.TypeToken, "::"+name+"-drain", true)
			if cluster := first(steps, "aws:eks/cluster:Cluster", "::"+name+"-cluster-eksCluster", false); drained < 0 || cluster < drained {
				t.Errorf("%s's EKS cluster deleted at event %d, its drain ended at %d", name, cluster, drained)
			}
			if name != "hub" && (hubDrain < 0 || drained > hubDrain) {
				t.Errorf("%s's drain ended at event %d, the hub's began at %d: the hub drains last", name, drained, hubDrain)
			}
		}
		if hubDrained < 0 {
			t.Error("the hub was not drained")
		}
		for name, region := range devClusters {
			if got, want := taggedARNs(t, env, region), []string{aws.ARN("ec2", region, "volume/vol-0archive")}; !slices.Equal(got, want) {
				t.Errorf("%s's region %s holds %v after the destroy, want its retained volume only", name, region, got)
			}
		}
		for _, pkg := range []string{"aws", "kubernetes", "github"} {
			if left := notRetained(records(t, env, pkg, "")); len(left) > 0 {
				t.Errorf("%d %s resources left after destroy, first %s %s", len(left), pkg, left[0].Type, left[0].ID)
			}
		}
		if kept := len(records(t, env, "aws", "aws:s3/bucketV2:BucketV2")); kept != 2 {
			t.Errorf("the two spokes' Velero buckets hold backups and are retained; %d are left", kept)
		}
		if _, dep := exported(t, env, stack, false); len(dep.Resources) != 0 {
			t.Errorf("the stack still has %d resources", len(dep.Resources))
		}
	})
}

// TestProdFleetKeepsSecrets runs the prod stack (Git delivery as pull requests) with a canary GitHub token in
// the stack config: it reaches the state, only ever encrypted.
func TestProdFleetKeepsSecrets(t *testing.T) {
	ctx := context.Background()
	env := newEnv(t)
	stack := fleetStack(t, env, "prod")
	const canary = "ghp_CANARY0fleet0e2e0token0never0in0plaintext"
	if err := stack.SetConfig(ctx, "github:token", auto.ConfigValue{Value: canary, Secret: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := stack.Up(ctx, optup.ProgressStreams(progress(t, env, "up"))); err != nil {
		t.Fatalf("up: %v", err)
	}
	t.Cleanup(func() { _, _ = stack.Destroy(ctx) })

	text, _ := exported(t, env, stack, false)
	if strings.Contains(text, canary) {
		t.Error("the GitHub token is in plaintext in `pulumi stack export`")
	}
	if strings.Contains(text, "get-token") {
		t.Error("a kubeconfig is in plaintext in `pulumi stack export`")
	}
	revealed, _ := exported(t, env, stack, true)
	if !strings.Contains(revealed, canary) {
		t.Error("the canary is not in the state at all (export --show-secrets), so its absence proves nothing")
	}

	prs := records(t, env, "github", "github:index/repositoryPullRequest:RepositoryPullRequest")
	files := records(t, env, "github", "github:index/repositoryFile:RepositoryFile")
	if len(prs) != 4 || len(files) != 5 {
		t.Errorf("prod delivered %d files in %d pull requests, want one of each per cluster (3) and the payments "+
			"tenant's pull request with its two spokes' files", len(files), len(prs))
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.ID)
		if f.Scope != "gitops-fleet" {
			t.Errorf("file %s under owner %s, want gitops-fleet", f.ID, f.Scope)
		}
	}
	slices.Sort(paths)
	if want := []string{"fleet-registry/clusters/prod/hub.yaml", "fleet-registry/clusters/prod/spoke-use2.yaml",
		"fleet-registry/clusters/prod/spoke-usw2.yaml", "fleet-registry/tenants/payments/spoke-use2.yaml",
		"fleet-registry/tenants/payments/spoke-usw2.yaml"}; !slices.Equal(paths, want) {
		t.Errorf("files %v, want %v", paths, want)
	}
	// The tenant's objects are in Git only: nothing is written into a spoke.
	if ns := records(t, env, "kubernetes", "kubernetes:core/v1:Namespace"); slices.ContainsFunc(ns, func(r emulator.Record) bool {
		return strings.Contains(r.URN, "fleet:index:Tenant")
	}) {
		t.Error("with git, Pulumi wrote a tenant's namespace into a spoke")
	}

	// Git is the source of truth: no cluster secret is written into the hub (a closed pull request registers
	// nothing); the hub's registry Application syncs the merged ones from clusters/prod/ of the registry.
	if secrets := records(t, env, "kubernetes", "kubernetes:core/v1:Secret"); len(secrets) != 0 {
		t.Errorf("Pulumi wrote %d secrets into the hub, first %s", len(secrets), secrets[0].ID)
	}
	sets := records(t, env, "kubernetes", "kubernetes:argoproj.io/v1alpha1:ApplicationSet")
	if !slices.ContainsFunc(sets, func(r emulator.Record) bool { return strings.HasSuffix(r.ID, "/payments-platform") }) {
		t.Error("no ApplicationSet payments-platform on the hub to sync the tenant's folder")
	}
	apps := records(t, env, "kubernetes", "kubernetes:argoproj.io/v1alpha1:Application")
	if len(apps) != 1 {
		t.Fatalf("want one registry Application on the hub, got %d", len(apps))
	}
	state, err := apps[0].Plain()
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := state["spec"].(map[string]any)
	source, _ := spec["source"].(map[string]any)
	want := map[string]any{"repoURL": "https://github.com/gitops-fleet/fleet-registry.git", "targetRevision": "main",
		"path": "clusters/prod"}
	if diff := cmp.Diff(want, source); diff != "" || !strings.HasSuffix(apps[0].ID, "cluster-registry-prod") {
		t.Errorf("registry Application %s source (-want +got):\n%s", apps[0].ID, diff)
	}
}

// clusterOutput is the part of one entry of the example's `clusters` output the tests read.
type clusterOutput struct {
	Endpoint string
}

func clusterOutputs(t *testing.T, outs auto.OutputMap) map[string]clusterOutput {
	t.Helper()
	data, err := json.Marshal(outs["clusters"].Value)
	if err != nil {
		t.Fatal(err)
	}
	var cs map[string]clusterOutput
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(cs)); !slices.Equal(got, slices.Sorted(maps.Keys(devClusters))) {
		t.Fatalf("clusters output has %v", got)
	}
	return cs
}

// ownerOf is the cluster a resource belongs to, from its name ("spoke-use2-node-role" -> "spoke-use2").
func ownerOf(name string) string {
	for _, tenant := range []string{"payments", "search"} { // the dev stack's tenants: <tenant>-<cluster>-...
		name = strings.TrimPrefix(name, tenant+"-")
	}
	best := ""
	for c := range devClusters {
		if (name == c || strings.HasPrefix(name, c+"-")) && len(c) > len(best) {
			best = c
		}
	}
	return best
}

// clusterSecretConfig is the decoded `config` of the Argo CD cluster secret id in the cluster at server.
func clusterSecretConfig(t *testing.T, env *offline.Env, server, id string) map[string]any {
	t.Helper()
	for _, r := range records(t, env, "kubernetes", "kubernetes:core/v1:Secret") {
		if r.ID != id {
			continue
		}
		if r.Scope != server {
			t.Errorf("secret %s is in cluster %s, want the hub %s", id, r.Scope, server)
		}
		state, err := r.Plain()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := state["stringData"].(map[string]any)
		var config map[string]any
		if err := json.Unmarshal([]byte(fmt.Sprint(data["config"])), &config); err != nil {
			t.Fatalf("secret %s config: %v", id, err)
		}
		return config
	}
	t.Fatalf("no secret %s in any cluster (kubernetes scopes: %v)", id, scopes(t, env))
	return nil
}

func scopes(t *testing.T, env *offline.Env) []string {
	var out []string
	for _, r := range records(t, env, "kubernetes", "") {
		if !slices.Contains(out, r.Scope) && r.Scope != kubernetes.InCluster {
			out = append(out, r.Scope)
		}
	}
	return out
}
