package workloads

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// getResources is the Tagging API's GetResources request (AWS JSON 1.1), the fields a drain sends.
type getResources struct {
	ResourceTypeFilters []string
	TagFilters          []struct {
		Key    string
		Values []string
	}
}

type tag struct{ Key, Value string }

type mapping struct {
	ResourceARN string
	Tags        []tag
}

// serveTagging answers GetResources in region: the tagged resources of the region of one of the types that carry
// every tag filter's key (with one of its values, when it lists any), in one page.
func serveTagging(s *emulator.Store, region string, w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Amz-Target") != "ResourceGroupsTaggingAPI_20170126.GetResources" {
		awsError(w, http.StatusBadRequest, "UnknownOperationException", "offline cloud: only GetResources is served")
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=") {
		awsError(w, http.StatusForbidden, "MissingAuthenticationTokenException", "request is not signed")
		return
	}
	var req getResources
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		awsError(w, http.StatusBadRequest, "InvalidParameterException", err.Error())
		return
	}
	tagged, err := TaggedIn(s, region)
	if err != nil {
		awsError(w, http.StatusInternalServerError, "InternalServiceException", err.Error())
		return
	}
	out := []mapping{}
	for _, t := range tagged {
		if !ofType(t.ARN, req.ResourceTypeFilters) {
			continue
		}
		matches := true
		for _, f := range req.TagFilters {
			v, ok := t.Tags[f.Key]
			matches = matches && ok && (len(f.Values) == 0 || slices.Contains(f.Values, v))
		}
		if !matches {
			continue
		}
		m := mapping{ResourceARN: t.ARN}
		for k, v := range t.Tags {
			m.Tags = append(m.Tags, tag{k, v})
		}
		out = append(out, m)
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(map[string]any{"ResourceTagMappingList": out, "PaginationToken": ""})
}

// ofType tells whether arn is of one of the types ("service" or "service:resourceType"; none: any type), after
// the ARN's service and the first element of its resource ("loadbalancer/app/...", "volume/vol-...").
func ofType(arn string, types []string) bool {
	if len(types) == 0 {
		return true
	}
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 {
		return false
	}
	kind, _, _ := strings.Cut(parts[5], "/")
	return slices.Contains(types, parts[2]) || slices.Contains(types, parts[2]+":"+kind)
}

func awsError(w http.ResponseWriter, code int, typ, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": typ, "message": msg})
}
