package offline

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/charts"
)

// Upstream is where the workplace keeps the upstream charts and CRDs the tests read, beside the repository
// (../shared/upstream); nothing of it is committed here.
func Upstream(root string) string { return filepath.Join(filepath.Dir(root), "shared", "upstream") }

// ChartRepositories are the chart repositories an Env with control planes serves: Argo CD's (the argo-helm
// repository the hub's release names) with the chart gitopsbridge pins and its redis-ha subchart, from the upstream copy.
func ChartRepositories(root string) ([]charts.Repository, error) {
	argocd := filepath.Join(Upstream(root), "argo-cd-chart-"+gitopsbridge.DefaultChartVersion, "chart", "argo-cd")
	if _, err := os.Stat(argocd); err != nil {
		return nil, fmt.Errorf("the Argo CD chart %s gitopsbridge pins (upstream copy in ../shared/upstream): %w",
			gitopsbridge.DefaultChartVersion, err)
	}
	return []charts.Repository{{URL: gitopsbridge.DefaultChartRepository, Charts: []string{argocd}}}, nil
}
