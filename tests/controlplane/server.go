package controlplane

import (
	"fmt"
	"net/http"
	"path/filepath"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Kubeconfig is the path of the control plane's admin kubeconfig (https://127.0.0.1:<port>, kwokctl's CA and the
// kwok-admin client certificate of group system:masters), for kubectl and the tests.
func (c Clusters) Kubeconfig(name string) string {
	return filepath.Join(c.Dir(name), "kubeconfig.yaml")
}

// Admin is the REST config of the control plane's API server as its administrator.
func (c Clusters) Admin(name string) (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig(name))
	if err != nil {
		return nil, fmt.Errorf("control plane %s: %w", name, err)
	}
	cfg.UserAgent = "pulumi-fleet-offline"
	return cfg, nil
}

// transport is an HTTP transport to the control plane's API server that trusts its CA and presents no client
// certificate: requests authenticate with their own bearer tokens.
func (c Clusters) transport(name string) (http.RoundTripper, string, error) {
	cfg, err := c.Admin(name)
	if err != nil {
		return nil, "", err
	}
	rt, err := rest.TransportFor(rest.AnonymousClientConfig(cfg))
	if err != nil {
		return nil, "", err
	}
	return rt, cfg.Host, nil
}

// Typed is client-go's clientset of the control plane as its administrator.
func (c Clusters) Typed(name string) (kubernetes.Interface, error) {
	cfg, err := c.Admin(name)
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(cfg)
}

// Dynamic is client-go's dynamic client of the control plane as its administrator.
func (c Clusters) Dynamic(name string) (dynamic.Interface, error) {
	cfg, err := c.Admin(name)
	if err != nil {
		return nil, err
	}
	return dynamic.NewForConfig(cfg)
}
