package controlplane

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"sync"
	"time"
)

// Finder is the control plane's name of the EKS cluster at endpoint (https://<host>), "" when no cluster is there.
type Finder func(endpoint string) (string, error)

// Proxy serves the endpoint of every EKS cluster with a control plane from that control plane's kube-apiserver,
// starting it first if it is stopped, and hands every other request (no cluster there, or one without a control
// plane) to next. A request must carry a bearer token that check accepts (an EKS token's form); the API server sees
// it as its administrator (EKS's authenticator and access entries are not played here yet). Watches and upgrades
// (exec, port-forward) pass through.
func Proxy(c Clusters, find Finder, check func(authorization string) error, next http.Handler) http.Handler {
	p := &proxy{clusters: c, find: find, check: check, next: next, names: map[string]string{},
		backends: map[string]http.Handler{}}
	return p
}

type proxy struct {
	clusters Clusters
	find     Finder
	check    func(string) error
	next     http.Handler

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
	// EKS answers /healthz, /readyz and /livez without a token (system:public-info-viewer), as pulumi-eks polls.
	if !public(r) {
		if err := p.check(r.Header.Get("Authorization")); err != nil {
			status(w, http.StatusUnauthorized, "Unauthorized", err.Error())
			return
		}
	}
	backend, err := p.backend(r.Context(), name)
	if err != nil {
		status(w, http.StatusServiceUnavailable, "ServiceUnavailable", err.Error())
		return
	}
	backend.ServeHTTP(w, r)
}

func public(r *http.Request) bool {
	switch r.URL.Path {
	case "/healthz", "/readyz", "/livez", "/version":
		return r.Method == http.MethodGet
	}
	return false
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
	rt, host, err := p.clusters.adminTransport(name)
	if err != nil {
		return nil, err
	}
	target, err := url.Parse(host)
	if err != nil {
		return nil, err
	}
	b := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Header.Del("Authorization") // the administrator's client certificate authenticates instead
		},
		Transport:     rt,
		FlushInterval: -1, // watches stream
	}
	p.backends[name] = b
	return b, nil
}

func status(w http.ResponseWriter, code int, reason, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure",
		"reason": reason, "message": msg, "code": code})
}
