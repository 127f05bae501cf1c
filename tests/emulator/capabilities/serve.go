package capabilities

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// Serve serves api over TLS for the rest of t as EKS's endpoint in region, and points the AWS SDK of this process
// at it (AWS_ENDPOINT_URL_EKS, AWS_CA_BUNDLE, stand-in credentials and no shared config: t.Setenv, so not in a
// parallel test).
func Serve(t testing.TB, api *API, region string) {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Host = "eks." + region + ".amazonaws.com" // the endpoint's name, as the offline network routes it
		api.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"AWS_ENDPOINT_URL_EKS": srv.URL, "AWS_CA_BUNDLE": ca, "AWS_REGION": region,
		"AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE", "AWS_SECRET_ACCESS_KEY": "offline", "AWS_CONFIG_FILE": os.DevNull,
		"AWS_SHARED_CREDENTIALS_FILE": os.DevNull, "AWS_EC2_METADATA_DISABLED": "true"} {
		t.Setenv(k, v)
	}
}
