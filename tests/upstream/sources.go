package upstream

import "strings"

// source is where the files of a folder of the upstream copy come from: a repository at a commit, and the path there
// that the folder is a copy of.
type source struct {
	folder, repo, commit, path string
}

// sources are the upstream copy's folders, each after the tag its repository was copied at (SOURCES.md beside the
// copy names them); the longest folder that holds a file is its source.
var sources = []source{
	{"argo-cd-chart-10.1.1/chart/argo-cd/charts/redis-ha/", "DandyDeveloper/charts", "2e2539a8960ead2c268f48bdde3b2cdf2b2f1ac8", "charts/redis-ha/"},
	{"argo-cd-chart-10.1.1/chart/argo-cd/", "argoproj/argo-helm", "af0a9310bacbaa4636018dfe22c801a6d33a5c43", "charts/argo-cd/"},
	{"argo-cd-chart-10.1.1/", "argoproj/argo-helm", "af0a9310bacbaa4636018dfe22c801a6d33a5c43", "charts/argo-cd/templates/crds/"},
	{"pko-v2.9.0/", "pulumi/pulumi-kubernetes-operator", "b713fae5a35041d899b0f64151a151f3df068ad1", "deploy/crds/"},
	{"kargo-v1.11.2/crds/", "akuity/kargo", "20c56384dc3aa29911368fa9c0916e8f4a541252", "charts/kargo/resources/crds/"},
	{"kargo-v1.11.2/schemas/", "akuity/kargo", "20c56384dc3aa29911368fa9c0916e8f4a541252", "pkg/promotion/runner/builtin/schemas/"},
	{"kargo-v1.11.2/subscription-schemas/", "akuity/kargo", "20c56384dc3aa29911368fa9c0916e8f4a541252", "pkg/subscription/schemas/"},
	{"argo-rollouts-v1.9.1/", "argoproj/argo-rollouts", "b6bd3bcf8f60d717a98763d26acc983db7f97cb0", "manifests/crds/"},
}

// RawGitHub is where a file of a repository at a commit is served: <RawGitHub>/<owner>/<repo>/<commit>/<path>.
// MirrorEnv replaces it (a mirror of GitHub's raw files, or a test's server).
const RawGitHub = "https://raw.githubusercontent.com"

// URL is the source of the file path of the upstream copy, under base (RawGitHub or a mirror); "" for a file of no
// known source.
func URL(base, path string) string {
	for _, s := range sources {
		if rest, ok := strings.CutPrefix(path, s.folder); ok {
			return strings.TrimSuffix(base, "/") + "/" + s.repo + "/" + s.commit + "/" + s.path + rest
		}
	}
	return ""
}
