package charts_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/charts"
)

// TestOCIRegistry: an oci:// repository's chart is read as Helm's registry client reads it (the OCI distribution
// API): the tag list holds the chart's version, the manifest under that tag names Helm's config (the Chart.yaml as
// JSON) and one chart layer, and both blobs are served under their digests; the host's other paths, other hosts
// and the classic repositories beside it go on as before.
func TestOCIRegistry(t *testing.T) {
	dir := writeChart(t, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: operator\nversion: 2.9.0\nappVersion: v2.9.0\n",
		"templates/cm.yaml":  "kind: ConfigMap\n",
		"crds/the-crds.yaml": "kind: CustomResourceDefinition\n",
	})
	classic := writeChart(t, map[string]string{"Chart.yaml": "apiVersion: v2\nname: demo\nversion: 1.0.0\n"})
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	repos := []charts.Repository{
		{URL: "oci://registry.example.io/org/helm-charts", Charts: []string{dir}},
		{URL: "https://charts.example.io/repo", Charts: []string{classic}},
	}
	h, err := charts.Handler(repos, next)
	if err != nil {
		t.Fatal(err)
	}
	get := func(host, path, accept string) *httptest.ResponseRecorder { return serve(h, host, path, accept) }
	const repo = "/v2/org/helm-charts/operator"
	var tags struct{ Tags []string }
	if err := json.Unmarshal(get("registry.example.io", repo+"/tags/list", "").Body.Bytes(), &tags); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tags.Tags, []string{"2.9.0"}) {
		t.Fatalf("tags %v, want [2.9.0]", tags.Tags)
	}
	type descriptor struct {
		MediaType, Digest string
		Size              int
	}
	var manifest struct {
		MediaType string
		Config    descriptor
		Layers    []descriptor
	}
	rec := get("registry.example.io", repo+"/manifests/2.9.0", "application/vnd.oci.image.manifest.v1+json")
	if rec.Code != http.StatusOK {
		t.Fatalf("manifest: %d %s", rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &manifest); err != nil {
		t.Fatal(err)
	}
	if manifest.MediaType != "application/vnd.oci.image.manifest.v1+json" ||
		manifest.Config.MediaType != "application/vnd.cncf.helm.config.v1+json" || len(manifest.Layers) != 1 ||
		manifest.Layers[0].MediaType != "application/vnd.cncf.helm.chart.content.v1.tar+gzip" {
		t.Fatalf("manifest %+v is not a Helm chart's", manifest)
	}
	blob := func(d descriptor) []byte {
		rec := get("registry.example.io", repo+"/blobs/"+d.Digest, "")
		sum := sha256.Sum256(rec.Body.Bytes())
		if rec.Code != http.StatusOK || "sha256:"+hex.EncodeToString(sum[:]) != d.Digest || rec.Body.Len() != d.Size {
			t.Fatalf("blob %s: %d, %d bytes", d.Digest, rec.Code, rec.Body.Len())
		}
		return rec.Body.Bytes()
	}
	var config struct{ Name, Version, AppVersion string }
	if err := json.Unmarshal(blob(manifest.Config), &config); err != nil {
		t.Fatal(err)
	}
	if config.Name != "operator" || config.Version != "2.9.0" || config.AppVersion != "v2.9.0" {
		t.Errorf("config %+v", config)
	}
	_, archive, err := charts.Package(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(blob(manifest.Layers[0]), archive) {
		t.Error("the chart layer is not the chart's archive")
	}
	for _, other := range [][2]string{{"registry.example.io", "/index.yaml"}, {"elsewhere.io", "/v2/"}} {
		if code := get(other[0], other[1], "").Code; code != http.StatusTeapot {
			t.Errorf("%s%s: %d, want the next handler", other[0], other[1], code)
		}
	}
	if code := get("charts.example.io", "/repo/index.yaml", "").Code; code != http.StatusOK {
		t.Errorf("the classic repository beside it: %d", code)
	}
	if hosts := charts.Hosts(repos); !slices.Equal(hosts, []string{"registry.example.io", "charts.example.io"}) {
		t.Errorf("hosts %v", hosts)
	}
}
