package upstream

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// local is the upstream copy beside the repository, where this project's CI lays it out; the tests that need it
// say so and skip without it.
func local(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "upstream"))
	if err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(dir, "SOURCES.md")) {
		t.Skipf("no upstream copy at %s to check the manifest against", dir)
	}
	return dir
}

// TestManifestIsTheLocalCopy: manifest.tsv names every file of the upstream copy, with its SHA-256, and nothing
// else, and each file has a source.
func TestManifestIsTheLocalCopy(t *testing.T) {
	files, err := Scan(local(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Manifest(Files), Manifest(files); got != want {
		t.Errorf("tests/upstream/manifest.tsv differs from the upstream copy: run `go run ./tests/upstream/cmd/upstream-manifest ../shared/upstream tests/upstream/manifest.tsv`")
	}
}

// TestURLs: each file's source is its repository at the pinned commit, under the path the copy's folder holds.
func TestURLs(t *testing.T) {
	cases := map[string]struct{ reason, path, want string }{
		"chart":    {"the chart's own file", "argo-cd-chart-10.1.1/chart/argo-cd/values.yaml", "https://raw.githubusercontent.com/argoproj/argo-helm/af0a9310bacbaa4636018dfe22c801a6d33a5c43/charts/argo-cd/values.yaml"},
		"subchart": {"redis-ha is another repository's", "argo-cd-chart-10.1.1/chart/argo-cd/charts/redis-ha/Chart.yaml", "https://raw.githubusercontent.com/DandyDeveloper/charts/2e2539a8960ead2c268f48bdde3b2cdf2b2f1ac8/charts/redis-ha/Chart.yaml"},
		"crd":      {"the chart's CRDs sit beside the chart in the copy", "argo-cd-chart-10.1.1/crd-application.yaml", "https://raw.githubusercontent.com/argoproj/argo-helm/af0a9310bacbaa4636018dfe22c801a6d33a5c43/charts/argo-cd/templates/crds/crd-application.yaml"},
		"pko":      {"PKO's CRDs", "pko-v2.9.0/pulumi.com_stacks.yaml", "https://raw.githubusercontent.com/pulumi/pulumi-kubernetes-operator/b713fae5a35041d899b0f64151a151f3df068ad1/deploy/crds/pulumi.com_stacks.yaml"},
		"unknown":  {"a file of no source", "somewhere/else.yaml", ""},
	}
	for name, c := range cases {
		if got := URL(RawGitHub, c.path); got != c.want {
			t.Errorf("%s (%s): %q, want %q", name, c.reason, got, c.want)
		}
	}
}

// TestFillFetchesFromTheSource: with no local copy, the files come from their sources (here a server holding the
// copy as GitHub does), each checked against its SHA-256; a second fill fetches nothing; a file whose source serves
// other content, and one the source does not serve, fail the fill, named with their source.
func TestFillFetchesFromTheSource(t *testing.T) {
	copyDir := local(t)
	var requests int
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		for _, f := range Files {
			if URL("", f.Path) == r.URL.Path {
				http.ServeFile(w, r, filepath.Join(copyDir, filepath.FromSlash(f.Path)))
				return
			}
		}
		http.NotFound(w, r)
	}))
	defer server.Close()

	cache := t.TempDir()
	if err := Fill(cache, server.URL, Files); err != nil {
		t.Fatal(err)
	}
	for _, f := range Files {
		if sum, err := fileSum(filepath.Join(cache, f.Path)); err != nil || sum != f.SHA256 {
			t.Errorf("%s in the cache: %v, SHA-256 %s", f.Path, err, sum)
		}
	}
	if requests != len(Files) {
		t.Errorf("%d requests for %d files", requests, len(Files))
	}
	requests = 0
	if err := Fill(cache, server.URL, Files); err != nil || requests != 0 {
		t.Errorf("a second fill: %v, %d requests; want none", err, requests)
	}

	tampered := Files[0]
	tampered.SHA256 = strings.Repeat("0", 64)
	unknown := File{Path: "pko-v2.9.0/pulumi.com_nothing.yaml", SHA256: strings.Repeat("1", 64)}
	err := Fill(t.TempDir(), server.URL, []File{tampered, unknown})
	if err == nil {
		t.Fatal("a fill of a tampered and a missing file succeeded")
	}
	for _, want := range []string{tampered.Path + ": " + server.URL, "not the pinned " + tampered.SHA256,
		unknown.Path + ": " + server.URL, "404 Not Found", CopyEnv} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

// TestDirPrefersACopy: a copy named by FLEET_UPSTREAM is read as it is, nothing fetched.
func TestDirPrefersACopy(t *testing.T) {
	t.Setenv(CopyEnv, "/somewhere/upstream")
	t.Setenv(MirrorEnv, "http://127.0.0.1:1")
	if dir, err := Dir(t.TempDir()); err != nil || dir != "/somewhere/upstream" {
		t.Errorf("Dir = %s, %v", dir, err)
	}
}
