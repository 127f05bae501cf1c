package workloads

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// serveKube answers the API of the emulated cluster at endpoint: list (every namespace), get and delete.
func serveKube(s *emulator.Store, endpoint string, w http.ResponseWriter, r *http.Request) {
	if err := aws.CheckToken(r.Header.Get("Authorization")); err != nil {
		status(w, http.StatusUnauthorized, "Unauthorized", err.Error())
		return
	}
	cluster, _, err := aws.ClusterAt(s, endpoint)
	if err != nil {
		status(w, http.StatusInternalServerError, "InternalError", err.Error())
		return
	}
	if cluster == "" {
		status(w, http.StatusServiceUnavailable, "ServiceUnavailable", "no emulated cluster at "+endpoint)
		return
	}
	gvr, namespace, name, ok := parsePath(r.URL.Path)
	if !ok {
		status(w, http.StatusNotFound, "NotFound", "the offline cloud does not serve "+r.URL.Path)
		return
	}
	objects, err := Objects(s, cluster)
	if err != nil {
		status(w, http.StatusInternalServerError, "InternalError", err.Error())
		return
	}
	var matched []Object
	for _, o := range objects {
		u := unstructured.Unstructured{Object: o.Object}
		if o.Resource == gvr && (namespace == "" || u.GetNamespace() == namespace) && (name == "" || u.GetName() == name) {
			matched = append(matched, o)
		}
	}
	switch {
	case name == "" && r.Method == http.MethodGet:
		items := make([]map[string]any, len(matched))
		for i, o := range matched {
			items[i] = o.Object
		}
		reply(w, http.StatusOK, map[string]any{"apiVersion": gvr.GroupVersion().String(), "kind": "List",
			"metadata": map[string]any{"resourceVersion": "1"}, "items": items})
	case name == "" || len(matched) == 0:
		status(w, http.StatusNotFound, "NotFound", fmt.Sprintf("%s %q not found", gvr.Resource, name))
	case r.Method == http.MethodGet:
		reply(w, http.StatusOK, matched[0].Object)
	case r.Method == http.MethodDelete:
		if err := remove(s, matched[0]); err != nil {
			status(w, http.StatusInternalServerError, "InternalError", err.Error())
			return
		}
		reply(w, http.StatusOK, matched[0].Object)
	default:
		status(w, http.StatusMethodNotAllowed, "MethodNotAllowed", r.Method)
	}
}

// parsePath reads an API path: /api/v1/<resource>[/<name>], /api/v1/namespaces/<ns>/<resource>[/<name>] and the
// same under /apis/<group>/<version>.
func parsePath(path string) (gvr schema.GroupVersionResource, namespace, name string, ok bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		gvr.Version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		gvr.Group, gvr.Version, parts = parts[1], parts[2], parts[3:]
	default:
		return gvr, "", "", false
	}
	if (len(parts) == 3 || len(parts) == 4) && parts[0] == "namespaces" {
		namespace, parts = parts[1], parts[2:]
	}
	switch len(parts) {
	case 1:
		gvr.Resource = parts[0]
	case 2:
		gvr.Resource, name = parts[0], parts[1]
	default:
		return gvr, "", "", false
	}
	return gvr, namespace, name, true
}

func reply(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func status(w http.ResponseWriter, code int, reason, msg string) {
	reply(w, code, map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure", "reason": reason,
		"message": msg, "code": code})
}
