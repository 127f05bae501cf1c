package controlplane

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Finder is the control plane's name of the EKS cluster at endpoint (https://<host>), "" when no cluster is there.
type Finder func(endpoint string) (string, error)

// ProxyOptions are what a Proxy does besides passing requests on.
type ProxyOptions struct {
	// Answered, when set, is called with every answer of control plane name's API server before the client hears
	// of it (an error answers 502 instead): what follows a creation at once is done there (EKS's access policies
	// scoped to a namespace apply from its creation, see NamespaceCreated; Kargo's webhook makes a Project's
	// namespace). It may read resp.Body if it puts an equal reader back.
	Answered func(name string, resp *http.Response) error
}

// Proxy serves the endpoint of every EKS cluster with a control plane from that control plane's kube-apiserver,
// starting it first if it is stopped, and hands every other request (no cluster there, or one without a control
// plane) to next. Requests pass as they are, bearer token included: the API server authenticates them (through
// its authenticator, see Authentication), anonymous ones reaching what EKS serves anonymously (/healthz, /readyz,
// /livez, /version). Watches and upgrades (exec, port-forward) pass through.
func Proxy(c Clusters, find Finder, next http.Handler, opts ProxyOptions) http.Handler {
	p := &proxy{clusters: c, find: find, next: next, opts: opts, names: map[string]string{},
		backends: map[string]http.Handler{}}
	return p
}

type proxy struct {
	clusters Clusters
	find     Finder
	next     http.Handler
	opts     ProxyOptions

	mu       sync.Mutex
	names    map[string]string       // host -> control plane, once found (an endpoint is never reused)
	backends map[string]http.Handler // control plane -> reverse proxy
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	name, err := p.name(host)
	if err != nil {
		status(w, http.StatusInternalServerError, "InternalError", err.Error())
		return
	}
	if name == "" {
		p.next.ServeHTTP(w, r)
		return
	}
	backend, err := p.backend(r.Context(), name)
	if err != nil {
		status(w, http.StatusServiceUnavailable, "ServiceUnavailable", err.Error())
		return
	}
	backend.ServeHTTP(w, r)
}

// name is the control plane behind host, "" if none (not a cluster, or a cluster with no control plane).
func (p *proxy) name(host string) (string, error) {
	p.mu.Lock()
	name, ok := p.names[host]
	p.mu.Unlock()
	if ok {
		return name, nil
	}
	name, err := p.find("https://" + host)
	if err != nil || name == "" {
		return "", err
	}
	if _, err := os.Stat(p.clusters.Dir(name)); err != nil {
		return "", nil
	}
	p.mu.Lock()
	p.names[host] = name
	p.mu.Unlock()
	return name, nil
}

// backend is the reverse proxy to the control plane's API server, started if it is not running.
func (p *proxy) backend(ctx context.Context, name string) (http.Handler, error) {
	if !p.clusters.Running(name) {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		if err := p.clusters.Start(ctx, name); err != nil {
			return nil, err
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if b, ok := p.backends[name]; ok {
		return b, nil
	}
	rt, host, err := p.clusters.transport(name)
	if err != nil {
		return nil, err
	}
	target, err := url.Parse(host)
	if err != nil {
		return nil, err
	}
	b := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
		ModifyResponse: func(resp *http.Response) error {
			if p.opts.Answered != nil {
				return p.opts.Answered(name, resp)
			}
			return nil
		},
		Transport:     rt,
		FlushInterval: -1, // watches stream
	}
	p.backends[name] = b
	return b, nil
}

// NamespaceCreated says whether resp is the API server's answer to a request that created a namespace: a create,
// or a server-side apply that creates, answered 201.
func NamespaceCreated(resp *http.Response) bool {
	return resp.StatusCode == http.StatusCreated && namespaceWrite(resp.Request)
}

// namespaceWrite says whether r writes a namespace: a create (POST /api/v1/namespaces) or a server-side apply
// (PATCH /api/v1/namespaces/<name>, how the Kubernetes provider writes), which answer 201 when they create it.
func namespaceWrite(r *http.Request) bool {
	rest, ok := strings.CutPrefix(r.URL.Path, "/api/v1/namespaces")
	switch {
	case !ok:
		return false
	case r.Method == http.MethodPost:
		return rest == ""
	case r.Method == http.MethodPatch:
		return len(rest) > 1 && !strings.Contains(rest[1:], "/")
	}
	return false
}

func status(w http.ResponseWriter, code int, reason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure",
		"reason": reason, "message": msg, "code": code})
}
