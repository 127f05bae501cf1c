package charts

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// Repository is one chart repository: its URL (as the fleet names it) and the chart directories it serves.
type Repository struct {
	URL    string
	Charts []string
}

// Handler serves the repositories (their index.yaml and one archive per chart, <name>-<version>.tgz, laid out as
// `helm package` and `helm repo index` make them; an oci:// repository as an OCI registry, see OCIScheme) and hands
// any other request to next.
func Handler(repos []Repository, next http.Handler) (http.Handler, error) {
	files := map[string][]byte{} // host + path -> content
	for _, repo := range repos {
		u, err := url.Parse(repo.URL)
		if err != nil {
			return nil, fmt.Errorf("chart repository %q: %w", repo.URL, err)
		}
		if u.Scheme == OCIScheme {
			continue
		}
		base := strings.TrimSuffix(u.Path, "/")
		entries := map[string][]any{}
		for _, dir := range repo.Charts {
			meta, archive, err := Package(dir)
			if err != nil {
				return nil, err
			}
			file := fmt.Sprintf("%s-%s.tgz", meta["name"], meta["version"])
			sum := sha256.Sum256(archive)
			meta["urls"] = []string{repo.URL + "/" + file}
			meta["digest"] = hex.EncodeToString(sum[:])
			meta["created"] = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
			name := meta["name"].(string)
			entries[name] = append(entries[name], meta)
			files[u.Host+base+"/"+file] = archive
		}
		index, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "entries": entries,
			"generated": time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)})
		if err != nil {
			return nil, err
		}
		files[u.Host+base+"/index.yaml"] = index
	}
	registries, err := ociRegistries(repos)
	if err != nil {
		return nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		if reg := registries[host]; reg != nil && (r.URL.Path == "/v2" || strings.HasPrefix(r.URL.Path, "/v2/")) {
			reg.ServeHTTP(w, r)
			return
		}
		content, ok := files[host+path.Clean(r.URL.Path)]
		if !ok || r.Method != http.MethodGet {
			next.ServeHTTP(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ".tgz") {
			w.Header().Set("Content-Type", "application/gzip")
		} else {
			w.Header().Set("Content-Type", "text/yaml")
		}
		_, _ = w.Write(content)
	}), nil
}

// Hosts are the hosts the repositories live on, for the network to route.
func Hosts(repos []Repository) []string {
	var hosts []string
	for _, repo := range repos {
		if u, err := url.Parse(repo.URL); err == nil {
			hosts = append(hosts, u.Host)
		}
	}
	return hosts
}

// Package is the chart in dir as `helm package` makes it: a gzipped tar of the directory under the chart's name
// (its subcharts in charts/ included), and the chart's Chart.yaml as the repository index lists it.
func Package(dir string) (map[string]any, []byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
	if err != nil {
		return nil, nil, fmt.Errorf("chart %s: %w", dir, err)
	}
	var meta map[string]any
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return nil, nil, fmt.Errorf("chart %s: Chart.yaml: %w", dir, err)
	}
	name, _ := meta["name"].(string)
	if name == "" || meta["version"] == nil {
		return nil, nil, fmt.Errorf("chart %s: Chart.yaml has no name or version", dir)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: name + "/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(content)),
			ModTime: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = tw.Write(content)
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("chart %s: %w", dir, err)
	}
	if err := tw.Close(); err != nil {
		return nil, nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, nil, err
	}
	return meta, buf.Bytes(), nil
}
