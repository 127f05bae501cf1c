package charts_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/charts"
)

// TestRepository: the index lists the chart as Helm reads it (name, version, the archive's URL and digest), the
// archive holds the chart's files under its name with its subcharts, and other paths and hosts go on.
func TestRepository(t *testing.T) {
	dir := writeChart(t, map[string]string{
		"Chart.yaml":                      "apiVersion: v2\nname: demo\nversion: 1.2.3\nappVersion: v9\n",
		"values.yaml":                     "replicas: 1\n",
		"templates/cm.yaml":               "kind: ConfigMap\n",
		"charts/redis/Chart.yaml":         "apiVersion: v2\nname: redis\nversion: 0.1.0\n",
		"charts/redis/templates/svc.yaml": "kind: Service\n",
	})
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h, err := charts.Handler([]charts.Repository{{URL: "https://charts.example.io/repo", Charts: []string{dir}}}, next)
	if err != nil {
		t.Fatal(err)
	}
	get := func(host, path string) *httptest.ResponseRecorder { return serve(h, host, path, "") }

	var index struct {
		Entries map[string][]struct {
			Name, Version, AppVersion, Digest string
			URLs                              []string `json:"urls"`
		}
	}
	if err := yaml.Unmarshal(get("charts.example.io", "/repo/index.yaml").Body.Bytes(), &index); err != nil {
		t.Fatal(err)
	}
	entries := index.Entries["demo"]
	if len(entries) != 1 || entries[0].Version != "1.2.3" || entries[0].AppVersion != "v9" ||
		!slices.Equal(entries[0].URLs, []string{"https://charts.example.io/repo/demo-1.2.3.tgz"}) {
		t.Fatalf("index entries %+v", index.Entries)
	}
	archive := get("charts.example.io", "/repo/demo-1.2.3.tgz")
	sum := sha256.Sum256(archive.Body.Bytes())
	if hex.EncodeToString(sum[:]) != entries[0].Digest {
		t.Error("the archive's digest is not the index's")
	}
	var names []string
	gz, err := gzip.NewReader(bytes.NewReader(archive.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
	}
	want := []string{"demo/Chart.yaml", "demo/charts/redis/Chart.yaml", "demo/charts/redis/templates/svc.yaml",
		"demo/templates/cm.yaml", "demo/values.yaml"}
	if !slices.Equal(slices.Sorted(slices.Values(names)), want) {
		t.Errorf("archive holds %v, want %v", names, want)
	}
	for _, other := range [][2]string{{"charts.example.io", "/repo/other-1.0.0.tgz"}, {"elsewhere.io", "/repo/index.yaml"}} {
		if code := get(other[0], other[1]).Code; code != http.StatusTeapot {
			t.Errorf("%s%s: %d, want the next handler", other[0], other[1], code)
		}
	}
	if hosts := charts.Hosts([]charts.Repository{{URL: "https://charts.example.io/repo"}}); !slices.Equal(hosts, []string{"charts.example.io"}) {
		t.Errorf("hosts %v", hosts)
	}
}

// writeChart writes a chart's files (path -> content) into a new directory and returns it.
func writeChart(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "chart")
	for path, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// serve is h's answer to a GET of https://<host><path>, asking for accept when it is not "".
func serve(h http.Handler, host, path, accept string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "https://"+host+path, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	h.ServeHTTP(rec, req)
	return rec
}
