package contract

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argoproj/argo-cd/v3/controller/sharding"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/db"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// shardedSecrets are the cluster secrets of a fleet whose hub's controller runs replicas: the hub's (in-cluster) and
// n spokes', each naming its replica as GitOpsBridge writes it (gitopsbridge.ShardOf).
func shardedSecrets(n, replicas int) []gitopsbridge.ClusterSecret {
	hub := gitopsbridge.ClusterSecret{Name: "hub", Namespace: argocdNamespace, ClusterName: "hub",
		Labels: gitopsbridge.Labels("hub", "prod", "1.33", 0, nil, nil), Server: gitopsbridge.InClusterServer,
		Config: gitopsbridge.InClusterConfig(), Shard: strconv.Itoa(gitopsbridge.ShardOf("hub", replicas))}
	out := []gitopsbridge.ClusterSecret{hub}
	for i := range n {
		name := fmt.Sprintf("spoke-%03d", i)
		out = append(out, gitopsbridge.ClusterSecret{Name: name, Namespace: argocdNamespace, ClusterName: name,
			Labels: gitopsbridge.Labels(name, "prod", "1.33", 3, map[string]bool{"karpenter": true}, nil),
			Server: "https://" + name + ".gr7.us-east-2.eks.amazonaws.com",
			Config: gitopsbridge.SpokeConfig(name, spokeRole, "Q0EgZGF0YQ=="),
			Shard:  strconv.Itoa(gitopsbridge.ShardOf(name, replicas))})
	}
	return out
}

// argoCluster is the cluster Argo CD reads from the fleet's secret s, the i-th of its list (util/db's
// SecretToCluster, the secret as the API server stores it, with a UID of its own).
func argoCluster(t *testing.T, i int, s gitopsbridge.ClusterSecret) *v1alpha1.Cluster {
	t.Helper()
	data := map[string][]byte{}
	for k, v := range s.StringData() {
		data[k] = []byte(v)
	}
	c, err := db.SecretToCluster(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: s.Name, Namespace: s.Namespace,
		Labels: s.Labels, UID: types.UID(fmt.Sprintf("uid-%d", i))}, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestControllerShardingPlacesEachSecret: Argo CD v3.5.7's own code reads a sharded fleet's cluster secrets
// (util/db's SecretToCluster) and shards them (controller/sharding's ClusterSharding, as each replica of the
// application controller runs it): with either algorithm the fleet sets, each cluster is managed by exactly the
// replica its secret names, the hub's in-cluster secret too.
func TestControllerShardingPlacesEachSecret(t *testing.T) {
	const replicas = 3
	var clusters v1alpha1.ClusterList
	want := map[string]int{}
	for i, s := range shardedSecrets(40, replicas) {
		c := argoCluster(t, i, s)
		if c.Shard == nil {
			t.Fatalf("Argo CD reads no shard from %s's secret", s.Name)
		}
		clusters.Items = append(clusters.Items, *c)
		want[c.Server], _ = strconv.Atoi(s.Shard)
	}
	for _, algorithm := range gitopsbridge.ShardingAlgorithms {
		perReplica := map[int]int{}
		for r := range replicas {
			cs := sharding.NewClusterSharding(nil, r, replicas, algorithm)
			cs.Init(&clusters, &v1alpha1.ApplicationList{})
			for i := range clusters.Items {
				c := &clusters.Items[i]
				if managed := cs.IsManagedCluster(c); managed != (want[c.Server] == r) {
					t.Errorf("%s: replica %d manages %s: %v; its secret names replica %d", algorithm, r, c.Name,
						managed, want[c.Server])
				} else if managed {
					perReplica[r]++
				}
			}
		}
		if perReplica[0]+perReplica[1]+perReplica[2] != len(clusters.Items) {
			t.Errorf("%s: the replicas manage %v of %d clusters", algorithm, perReplica, len(clusters.Items))
		}
	}
}

// TestClusterSecretGuardPinsTheShard: the hub's guard (Kubernetes' admission code) admits a sharded fleet's secrets
// as written, and refuses a registry commit that moves a cluster to another replica, drops its shard, or gives an
// unsharded registration one: a replica's load is the stack's to set.
func TestClusterSecretGuardPinsTheShard(t *testing.T) {
	secrets := shardedSecrets(2, 2)
	g := gitopsbridge.ClusterSecretGuard{Namespace: argocdNamespace,
		Deployer: gitopsbridge.DeployerUsername(deployerRole + "ci-run-1"), SecretWriters: []string{argocdServer},
		Registered: secrets}
	spoke := registrationObject(t, secrets[1])
	other := strconv.Itoa(1 - gitopsbridge.ShardOf(secrets[1].Name, 2))
	unsharded := secrets[2]
	unsharded.Shard = ""
	unshardedGuard := g
	unshardedGuard.Registered = []gitopsbridge.ClusterSecret{secrets[0], secrets[1], unsharded}
	for name, tc := range map[string]struct {
		guard gitopsbridge.ClusterSecretGuard
		user  string
		obj   map[string]any
		want  string // "" admitted, else part of the refusal
	}{
		"the hub's sharded secret, from Git":          {guard: g, user: controller, obj: synced(t, registrationObject(t, secrets[0]))},
		"a spoke's sharded secret, from Git":          {guard: g, user: controller, obj: synced(t, spoke)},
		"a spoke's sharded secret, from the deployer": {guard: g, user: deployerRole + "ci-run-2", obj: spoke},
		"a spoke moved to another replica": {guard: g, user: controller, want: "data differ",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "stringData")["shard"] = other })},
		"a spoke's shard dropped": {guard: g, user: controller, want: "data differ",
			obj: edited(t, spoke, func(o map[string]any) { delete(field(o, "stringData"), "shard") })},
		"a shard on an unsharded registration": {guard: unshardedGuard, user: controller, want: "data differ",
			obj: registrationObject(t, secrets[2])},
		"a shard and a project": {guard: g, user: controller, want: "exactly name, server and config",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "stringData")["project"] = "default" })},
	} {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, tc.guard.Policy(), tc.obj, nil, argocdNamespace, tc.user, secretKind, secretResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
}

// registrationObject is the manifest of s, parsed.
func registrationObject(t *testing.T, s gitopsbridge.ClusterSecret) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s.YAML()), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestShardedControllerChart: the argo-cd chart the hub pins (helm template, Helm v4 as `make argocd` builds it, over
// the upstream copy of the chart) turns a sharded hub's values (gitopsbridge.ChartValues) into what Argo CD's
// controller reads: a StatefulSet of 3 replicas, ARGOCD_CONTROLLER_REPLICAS "3", the sharding algorithm and the
// processors in argocd-cmd-params-cm (which the controller reads through its environment), and the resources sized
// from 1,500 Applications and 150 clusters (500 and 50 a replica).
func TestShardedControllerChart(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	helm := filepath.Join(root, "bin", "argocd", "helm")
	if _, err := os.Stat(helm); err != nil {
		t.Fatalf("%v: build it with `make argocd` (make test does)", err)
	}
	values, err := yaml.Marshal(gitopsbridge.ChartValues(gitopsbridge.Hub{ControllerSharding: &gitopsbridge.ControllerSharding{
		Replicas: 3, Applications: 1500, Clusters: 150}}, []string{"argocd-addons", "argocd-workloads"}))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "values.yaml")
	if err := os.WriteFile(file, values, 0o600); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(upstreamDir(t), "argo-cd-chart-"+gitopsbridge.DefaultChartVersion, "chart", "argo-cd")
	out, err := exec.Command(helm, "template", "argocd", chart, "--namespace", argocdNamespace, "-f", file).Output()
	if err != nil {
		t.Fatalf("helm template: %v", err)
	}
	var statefulSet, params map[string]any
	for _, doc := range strings.Split(string(out), "\n---") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil || obj == nil {
			continue
		}
		name, _ := field(obj, "metadata")["name"].(string)
		switch {
		case obj["kind"] == "StatefulSet" && name == "argocd-application-controller":
			statefulSet = obj
		case obj["kind"] == "ConfigMap" && name == "argocd-cmd-params-cm":
			params = field(obj, "data")
		}
	}
	if statefulSet == nil || params == nil {
		t.Fatal("the chart rendered no application controller StatefulSet or argocd-cmd-params-cm")
	}
	if got := field(statefulSet, "spec")["replicas"]; got != float64(3) {
		t.Errorf("the controller's StatefulSet runs %v replicas, want 3", got)
	}
	for k, want := range map[string]string{"controller.sharding.algorithm": "consistent-hashing",
		"controller.status.processors": "25", "controller.operation.processors": "13"} {
		if params[k] != want {
			t.Errorf("argocd-cmd-params-cm %s = %v, want %s", k, params[k], want)
		}
	}
	containers, _ := field(statefulSet, "spec", "template", "spec")["containers"].([]any)
	c, _ := containers[0].(map[string]any)
	env := map[string]any{}
	for _, e := range c["env"].([]any) {
		e := e.(map[string]any)
		env[e["name"].(string)] = e
	}
	if v, _ := env["ARGOCD_CONTROLLER_REPLICAS"].(map[string]any); v["value"] != "3" {
		t.Errorf("ARGOCD_CONTROLLER_REPLICAS is %v, want \"3\"", env["ARGOCD_CONTROLLER_REPLICAS"])
	}
	for variable, key := range map[string]string{"ARGOCD_CONTROLLER_SHARDING_ALGORITHM": "controller.sharding.algorithm",
		"ARGOCD_APPLICATION_CONTROLLER_STATUS_PROCESSORS": "controller.status.processors"} {
		v, _ := env[variable].(map[string]any)
		if ref := field(v, "valueFrom", "configMapKeyRef"); ref["key"] != key {
			t.Errorf("%s is %v, want argocd-cmd-params-cm's %s", variable, v, key)
		}
	}
	requests := field(c, "resources", "requests")
	// 512Mi, 2Mi for each of a replica's 500 Applications and MemoryPerCluster for each of its 50 clusters.
	memory := 512 + 2*500 + gitopsbridge.MemoryPerCluster*50
	if requests["memory"] != fmt.Sprintf("%dMi", memory) || requests["cpu"] != "750m" ||
		field(c, "resources", "limits")["memory"] != fmt.Sprintf("%dMi", 2*memory) {
		t.Errorf("the controller's resources are %v", c["resources"])
	}
}
