package charts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/google/go-containerregistry/pkg/registry"
)

// Helm's media types for a chart stored as an OCI artifact (helm.sh/helm/v3 pkg/registry, constants.go): the config
// is the chart's Chart.yaml as JSON, the one layer the chart's archive.
const (
	helmConfigMediaType = "application/vnd.cncf.helm.config.v1+json"
	helmChartMediaType  = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"
	ociManifestType     = "application/vnd.oci.image.manifest.v1+json"
)

// OCIScheme is the scheme of a Repository URL served as an OCI registry (oci://<host>/<path>): each chart is the
// artifact <path>/<chart name> tagged with the chart's version, as `helm push` stores it.
const OCIScheme = "oci"

// ociRegistries are the OCI registries of the repositories whose URL is oci://: one in-memory registry
// (go-containerregistry's pkg/registry, a registry of the OCI distribution API) per host, every chart pushed into it.
func ociRegistries(repos []Repository) (map[string]http.Handler, error) {
	hosts := map[string]http.Handler{}
	for _, repo := range repos {
		u, err := url.Parse(repo.URL)
		if err != nil || u.Scheme != OCIScheme {
			continue
		}
		reg := hosts[u.Host]
		if reg == nil {
			reg = registry.New(registry.Logger(log.New(io.Discard, "", 0)))
			hosts[u.Host] = reg
		}
		for _, dir := range repo.Charts {
			meta, archive, err := Package(dir)
			if err != nil {
				return nil, err
			}
			name := strings.Trim(u.Path, "/") + "/" + meta["name"].(string)
			if err := pushChart(reg, name, fmt.Sprint(meta["version"]), meta, archive); err != nil {
				return nil, fmt.Errorf("chart %s into %s: %w", dir, repo.URL, err)
			}
		}
	}
	return hosts, nil
}

// pushChart stores a chart in reg as `helm push` does, through the registry's own API (monolithic blob uploads, then
// the manifest under the tag version).
func pushChart(reg http.Handler, name, version string, meta map[string]any, archive []byte) error {
	config, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	descriptor := func(mediaType string, content []byte) map[string]any {
		sum := sha256.Sum256(content)
		return map[string]any{"mediaType": mediaType, "digest": "sha256:" + hex.EncodeToString(sum[:]),
			"size": len(content)}
	}
	cfg, layer := descriptor(helmConfigMediaType, config), descriptor(helmChartMediaType, archive)
	for _, blob := range []struct {
		desc    map[string]any
		content []byte
	}{{cfg, config}, {layer, archive}} {
		if err := send(reg, http.MethodPost, "/v2/"+name+"/blobs/uploads/?digest="+blob.desc["digest"].(string),
			"application/octet-stream", blob.content); err != nil {
			return err
		}
	}
	manifest, err := json.Marshal(map[string]any{"schemaVersion": 2, "mediaType": ociManifestType,
		"config": cfg, "layers": []any{layer}})
	if err != nil {
		return err
	}
	return send(reg, http.MethodPut, "/v2/"+name+"/manifests/"+version, ociManifestType, manifest)
}

// send makes one request of the registry's API in process and wants 201 Created.
func send(reg http.Handler, method, path, contentType string, body []byte) error {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	reg.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		return fmt.Errorf("%s %s: %d %s", method, path, rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	return nil
}
