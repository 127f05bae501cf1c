package capabilities

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// Type is the store's type of a capability record (the ID is <cluster>/<name>, the scope its region).
const Type = "aws:eks/capability:Capability"

// Version is the Argo CD version the offline EKS runs (an example of the EKS User Guide).
const Version = "3.1.8-eks-1"

// API answers the EKS Capabilities API from a store.
type API struct {
	// Settle is how long a capability stays CREATING, UPDATING or DELETING (and an update InProgress).
	Settle time.Duration
	// Hooks do on the cluster what EKS does beside the API's answers, where the run has control planes.
	Hooks Hooks

	store *emulator.Store
	next  http.Handler
	mu    sync.Mutex
	fail  map[string][]Issue
	// insights are each cluster's insights (SetInsights).
	insights map[string][]InsightSummary
	// unoffered are the regions whose EKS does not serve the Capabilities API (Unoffered).
	unoffered map[string]bool
}

// Hooks are what EKS does on a capability's cluster (each capability is the DescribeCapability object, in
// region); nil hooks do nothing.
type Hooks struct {
	// Active runs when a capability becomes ACTIVE: EKS installs its CRDs and namespace on the cluster and gives
	// its role an access entry with the capability's access policies.
	Active func(region string, capability map[string]any) error
	// Gone runs when a capability is deleted: EKS removes that access entry (the Kubernetes objects stay: RETAIN).
	Gone func(region string, capability map[string]any) error
}

// Issue is a capability's health issue (EKS's CapabilityIssue).
type Issue struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// New is the API over store; requests to other hosts go to next.
func New(store *emulator.Store, next http.Handler) *API {
	return &API{Settle: 2 * time.Second, store: store, next: next, fail: map[string][]Issue{},
		insights: map[string][]InsightSummary{}, unoffered: map[string]bool{}}
}

// Unoffered makes EKS in region answer the Capabilities API's calls as a region that does not offer EKS
// Capabilities: UnknownOperationException, the code AWS's JSON APIs give an operation an endpoint does not serve.
func (a *API) Unoffered(region string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.unoffered[region] = true
}

// FailCreate makes the next capability created on cluster end CREATE_FAILED with issues, as EKS reports a
// capability it could not start (its role denied, the cluster unreachable).
func (a *API) FailCreate(cluster string, issues ...Issue) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fail[cluster] = issues
}

// ServeHTTP routes eks.<region>.amazonaws.com's capability, cluster and insight paths; other hosts go to next.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := emulator.Host(r)
	region, ok := strings.CutPrefix(strings.TrimSuffix(host, ".amazonaws.com"), "eks.")
	if !ok || strings.Contains(region, ".") || !strings.HasSuffix(host, ".amazonaws.com") {
		a.next.ServeHTTP(w, r)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=") {
		fail(w, http.StatusForbidden, "AccessDeniedException", "request is not signed")
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
	for i := range parts {
		parts[i], _ = url.PathUnescape(parts[i])
	}
	c := call{api: a, region: region, w: w, r: r}
	switch {
	case a.unoffered[region] && len(parts) >= 3 && parts[0] == "clusters" && (parts[2] == "capabilities" || parts[2] == "updates"):
		fail(w, http.StatusNotFound, "UnknownOperationException", "offline cloud: EKS in "+region+" does not offer capabilities")
	case len(parts) == 1 && parts[0] == "clusters" && r.Method == http.MethodGet:
		c.listClusters()
	case len(parts) == 1 && parts[0] == "cluster-versions" && r.Method == http.MethodGet:
		c.describeClusterVersions()
	case len(parts) == 2 && parts[0] == "clusters" && r.Method == http.MethodGet:
		c.describeCluster(parts[1])
	case len(parts) == 3 && parts[0] == "clusters" && parts[2] == "insights" && r.Method == http.MethodPost:
		c.listInsights(parts[1])
	case len(parts) == 3 && parts[0] == "clusters" && parts[2] == "capabilities" && r.Method == http.MethodPost:
		c.create(parts[1])
	case len(parts) == 3 && parts[0] == "clusters" && parts[2] == "capabilities" && r.Method == http.MethodGet:
		c.list(parts[1])
	case len(parts) == 4 && parts[0] == "clusters" && parts[2] == "capabilities" && r.Method == http.MethodGet:
		c.describe(parts[1], parts[3])
	case len(parts) == 4 && parts[0] == "clusters" && parts[2] == "capabilities" && r.Method == http.MethodPost:
		c.update(parts[1], parts[3])
	case len(parts) == 4 && parts[0] == "clusters" && parts[2] == "capabilities" && r.Method == http.MethodDelete:
		c.delete(parts[1], parts[3])
	case len(parts) == 4 && parts[0] == "clusters" && parts[2] == "updates" && r.Method == http.MethodGet:
		c.describeUpdate(parts[1], parts[3], r.URL.Query().Get("capabilityName"))
	case len(parts) == 2 && parts[0] == "tags":
		c.tags(parts[1])
	default:
		fail(w, http.StatusBadRequest, "InvalidRequestException", "offline cloud: "+r.Method+" "+r.URL.Path+
			" is not served (only the EKS Capabilities API, DescribeCluster, ListClusters, DescribeClusterVersions and ListInsights are)")
	}
}

// call is one request.
type call struct {
	api    *API
	region string
	w      http.ResponseWriter
	r      *http.Request
}

func (c call) reply(v any) {
	c.w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(c.w).Encode(v)
}

// fail answers an EKS error as restJson1 carries it: the code in X-Amzn-ErrorType and the body's __type, the
// status the EKS model gives the code.
func fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}
