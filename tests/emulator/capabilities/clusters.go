package capabilities

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// InsightSummary is one EKS insight of a cluster as ListInsights answers it (EKS's InsightSummary).
type InsightSummary struct {
	ID                string `json:"id"`
	Name              string `json:"name"`
	Category          string `json:"category"`
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	Description       string `json:"description,omitempty"`
	InsightStatus     struct {
		Status string `json:"status"`
		Reason string `json:"reason,omitempty"`
	} `json:"insightStatus"`
}

// SetInsights makes ListInsights of cluster answer insights (none until set: the offline EKS checks nothing), as
// EKS reports what it found in the cluster's audit logs before an upgrade.
func (a *API) SetInsights(cluster string, insights ...InsightSummary) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.insights[cluster] = insights
}

// cluster is the EKS cluster name in the call's region from the store (the emulated aws:eks/cluster:Cluster), or
// false after answering ResourceNotFoundException.
func (c call) cluster(name string) (map[string]any, bool) {
	rec, found, err := c.api.store.Get("aws", aws.EKSClusterType, name)
	if err == nil && found && rec.Scope == c.region {
		state, err := rec.Plain()
		if err == nil {
			return state, true
		}
	}
	fail(c.w, http.StatusNotFound, "ResourceNotFoundException", "No cluster found for name: "+name+".")
	return nil, false
}

// describeCluster answers DescribeCluster with the cluster's name, ARN, status, versions, endpoint, certificate
// authority ({data: base64 PEM}) and role.
func (c call) describeCluster(name string) {
	state, ok := c.cluster(name)
	if !ok {
		return
	}
	out := map[string]any{}
	for _, k := range []string{"name", "arn", "status", "version", "platformVersion", "endpoint", "certificateAuthority", "roleArn"} {
		if v, ok := state[k]; ok {
			out[k] = v
		}
	}
	c.reply(map[string]any{"cluster": out})
}

// listInsights answers ListInsights with the cluster's insights that pass the request's filter (categories and
// statuses), in one page.
func (c call) listInsights(name string) {
	if _, ok := c.cluster(name); !ok {
		return
	}
	var req struct {
		Filter struct {
			Categories []string `json:"categories"`
			Statuses   []string `json:"statuses"`
		} `json:"filter"`
	}
	if err := json.NewDecoder(c.r.Body).Decode(&req); err != nil && err.Error() != "EOF" {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", err.Error())
		return
	}
	out := []InsightSummary{}
	for _, in := range c.api.insights[name] {
		if (len(req.Filter.Categories) == 0 || slices.Contains(req.Filter.Categories, in.Category)) &&
			(len(req.Filter.Statuses) == 0 || slices.Contains(req.Filter.Statuses, in.InsightStatus.Status)) {
			out = append(out, in)
		}
	}
	c.reply(map[string]any{"insights": out})
}

// listClusters answers ListClusters with the names of the region's emulated clusters, in one page.
func (c call) listClusters() {
	recs, err := c.api.store.List()
	if err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	names := []string{}
	for _, rec := range recs {
		if rec.Type != aws.EKSClusterType || rec.Scope != c.region {
			continue
		}
		if state, err := rec.Plain(); err == nil {
			if name, ok := state["name"].(string); ok {
				names = append(names, name)
			}
		}
	}
	c.reply(map[string]any{"clusters": names})
}
