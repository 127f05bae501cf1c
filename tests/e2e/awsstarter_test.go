package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestAWSStarterStack is docs/aws.md's first fleet, examples/fleet/Pulumi.aws.yaml, previewed as a user does before
// the first up into an account: one EKS cluster, the hub, and its registration; then with the spoke the file
// offers commented out, uncommented as the doc says: a second cluster and its cluster secret on the hub.
func TestAWSStarterStack(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	const eksCluster, secret = "eks:index:Cluster", "kubernetes:core/v1:Secret"
	first := env.Configured("aws", env.FleetConfig("aws")).Preview("preview")
	if p := first.Plan(); p["create"][eksCluster] != 1 || p["create"][secret] != 1 || len(p) != 1 {
		t.Errorf("the starter stack plans %v; want creates only, one EKS cluster and its cluster secret", p)
	}

	// The commented spoke, uncommented: the lines after the file's "add a spoke" comment without their "# ".
	data, err := os.ReadFile(filepath.Join(env.FleetDir(), "Pulumi.aws.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "uncomment, then `pulumi preview`")
	if !ok {
		t.Fatal("Pulumi.aws.yaml has no commented spoke")
	}
	block = block[strings.Index(block, "\n")+1:]
	var spoke []map[string]any
	if err := yaml.Unmarshal([]byte(regexp.MustCompile(`(?m)^    # ?`).ReplaceAllString(block, "")), &spoke); err != nil || len(spoke) != 1 {
		t.Fatalf("the commented spoke does not parse as one cluster: %v %v", spoke, err)
	}
	cfg := env.FleetConfig("aws")
	cfg["gitops-fleet:clusters"] = append(clusters(cfg), spoke[0])
	two := env.Configured("aws-spoke", cfg).Preview("preview")
	if p := two.Plan(); p["create"][eksCluster] != 2 || p["create"][secret] != 2 {
		t.Errorf("with the spoke the stack plans %v; want two EKS clusters and their secrets", p)
	}
	var spokeSecret bool
	for _, u := range two.URNs("create") {
		spokeSecret = spokeSecret || strings.HasSuffix(u, "::"+spoke[0]["name"].(string)+"-cluster-secret")
	}
	if !spokeSecret {
		t.Errorf("no cluster secret for %v in the plan", spoke[0]["name"])
	}
}
