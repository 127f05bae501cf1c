package aws

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/url"
	"os"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
)

// throughNetwork starts the offline network in front of serve (stopped when t ends) and returns an HTTP client that
// reaches it as the AWS SDKs do offline: through the network's proxy, trusting its CA.
func throughNetwork(t *testing.T, serve http.Handler) *http.Client {
	t.Helper()
	net, err := network.Start(t.TempDir(), serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { net.Close() })
	proxy, _ := url.Parse(net.ProxyURL)
	roots := x509.NewCertPool()
	ca, err := os.ReadFile(net.CAFile)
	if err != nil || !roots.AppendCertsFromPEM(ca) {
		t.Fatalf("the network's CA: %v", err)
	}
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{RootCAs: roots}}}
}
