package aws

import (
	"net/http"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
)

// throughNetwork starts the offline network in front of serve (stopped when t ends) and returns an HTTP client that
// reaches it as the AWS SDKs do offline (network.Transport: through the network's proxy, trusting its CA).
func throughNetwork(t *testing.T, serve http.Handler) *http.Client {
	t.Helper()
	net, err := network.Start(t.TempDir(), serve)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { net.Close() })
	return &http.Client{Transport: net.Transport()}
}
