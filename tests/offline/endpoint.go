package offline

import (
	"net/http"
	"net/url"

	"k8s.io/client-go/rest"
)

// EndpointConfig is client-go's configuration for an EKS cluster endpoint of the run (https://<id>.gr7.<region>.eks.amazonaws.com),
// reached as a program on this machine reaches it (through the offline network's proxy), trusting caData (PEM, as
// a kubeconfig or an Argo CD cluster secret gives it) and authenticating with token (an EKS token, aws.Token).
func (e *Env) EndpointConfig(endpoint string, caData []byte, token string) (*rest.Config, error) {
	proxy, err := url.Parse(e.net.ProxyURL)
	if err != nil {
		return nil, err
	}
	return &rest.Config{Host: endpoint, BearerToken: token, UserAgent: "pulumi-fleet-offline",
		TLSClientConfig: rest.TLSClientConfig{CAData: caData}, Proxy: http.ProxyURL(proxy)}, nil
}
