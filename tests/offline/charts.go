package offline

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/charts"
	"github.com/gitops-fleet/pulumi-fleet/tests/upstream"
)

// standIn is a chart the fleet pins that is not available offline, substituted by the stand-in in tests/charts/<name>
// (its Chart.yaml says what it renders) with the upstream CRDs of crds (globs under upstream.Dir) in its crds/ folder.
type standIn struct {
	repo, name, version string
	crds                string
}

// standIns are the charts StackDelivery installs: PKO's and Kargo's (OCI artifacts on ghcr.io), cert-manager's and
// Argo Rollouts' (beside Argo CD's in Argo Helm).
var standIns = []standIn{
	{ociRepository(delivery.OperatorChart), path.Base(delivery.OperatorChart), delivery.DefaultOperatorChartVersion,
		"pko-v" + delivery.DefaultOperatorChartVersion + "/*.yaml"},
	{ociRepository(delivery.KargoChart), path.Base(delivery.KargoChart), delivery.DefaultKargoChartVersion,
		"kargo-v" + delivery.DefaultKargoChartVersion + "/crds/*.yaml"},
	{delivery.CertManagerChartRepository, delivery.CertManagerChart, delivery.DefaultCertManagerChartVersion, ""},
	{delivery.RolloutsChartRepository, delivery.RolloutsChart, delivery.DefaultRolloutsChartVersion,
		"argo-rollouts-v1.9.1/*.yaml"},
}

// addonStandIns are the charts of the add-ons the offline add-ons repository enables (tests/fixtures/addons-repo),
// each in the repository and at the version its ApplicationSet names, as the GitOps Bridge template does: what
// Argo CD's repo server renders when Argo CD runs on the hub. The fleet pins none of them (the add-ons repository
// does).
var addonStandIns = []standIn{
	{repo: "https://aws.github.io/eks-charts", name: "aws-load-balancer-controller", version: "1.7.1"},
	{repo: "https://aws.github.io/eks-charts", name: "aws-for-fluent-bit", version: "0.1.32"},
	{repo: "https://kubernetes-sigs.github.io/metrics-server", name: "metrics-server", version: "3.12.0"},
	{repo: "https://gitops-bridge-dev.github.io/gitops-bridge-helm-charts", name: "aws-ebs-csi-classes", version: "1.0.0"},
}

// ociRepository is the repository of an OCI chart reference (oci://<host>/<path>/<name>): all but its name.
func ociRepository(chart string) string { return chart[:strings.LastIndex(chart, "/")] }

// ChartRepositories are the chart repositories an Env with control planes serves: Argo CD's (the argo-helm
// repository the hub's release names) with the chart gitopsbridge pins and its redis-ha subchart, from the upstream
// copy; and the stand-ins (standIns) for StackDelivery's charts, assembled in dir/charts, each in the repository
// the fleet names (Argo Rollouts' beside Argo CD's), and for the add-ons the offline add-ons repository enables
// (addonStandIns).
func ChartRepositories(root, dir string) ([]charts.Repository, error) {
	up, err := upstream.Dir(root)
	if err != nil {
		return nil, err
	}
	argocd := filepath.Join(up, "argo-cd-chart-"+gitopsbridge.DefaultChartVersion, "chart", "argo-cd")
	if _, err := os.Stat(argocd); err != nil {
		return nil, fmt.Errorf("the Argo CD chart %s gitopsbridge pins (tests/upstream): %w",
			gitopsbridge.DefaultChartVersion, err)
	}
	repos := []charts.Repository{{URL: gitopsbridge.DefaultChartRepository, Charts: []string{argocd}}}
	for _, s := range slices.Concat(standIns, addonStandIns) {
		chart, err := s.assemble(root, up, filepath.Join(dir, "charts"))
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(repos, func(r charts.Repository) bool { return r.URL == s.repo })
		if i < 0 {
			i, repos = len(repos), append(repos, charts.Repository{URL: s.repo})
		}
		repos[i].Charts = append(repos[i].Charts, chart)
	}
	return repos, nil
}

// assemble copies the stand-in into under/<name> with its upstream CRDs (from the folder up), after checking it is
// the version the fleet pins, and returns the chart's directory.
func (s standIn) assemble(root, up, under string) (string, error) {
	src, dst := filepath.Join(root, "tests", "charts", s.name), filepath.Join(under, s.name)
	data, err := os.ReadFile(filepath.Join(src, "Chart.yaml"))
	if err != nil {
		return "", fmt.Errorf("the stand-in for chart %s: %w", s.name, err)
	}
	var meta struct{ Version string }
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return "", fmt.Errorf("the stand-in for chart %s: Chart.yaml: %w", s.name, err)
	}
	if meta.Version != s.version {
		return "", fmt.Errorf("the stand-in for chart %s (%s) is not version %s, the version the fleet pins", s.name, src, s.version)
	}
	if err := os.RemoveAll(dst); err != nil {
		return "", err
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return "", fmt.Errorf("the stand-in for chart %s: %w", s.name, err)
	}
	if s.crds == "" {
		return dst, nil
	}
	crds, err := filepath.Glob(filepath.Join(up, s.crds))
	if err != nil || len(crds) == 0 {
		return "", fmt.Errorf("the CRDs of chart %s (%s in %s): none found", s.name, s.crds, up)
	}
	if err := os.MkdirAll(filepath.Join(dst, "crds"), 0o755); err != nil {
		return "", err
	}
	for _, crd := range crds {
		content, err := os.ReadFile(crd)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dst, "crds", filepath.Base(crd)), content, 0o644); err != nil {
			return "", err
		}
	}
	return dst, nil
}
