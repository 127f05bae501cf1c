package workloads

import (
	"net/http"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// Handler answers the emulated clusters' APIs and the Tagging API from the store, and hands every other
// request to next (the network's health and OIDC answers).
func Handler(s *emulator.Store, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := emulator.Host(r)
		switch {
		case strings.HasPrefix(host, "tagging.") && r.Method == http.MethodPost:
			serveTagging(s, strings.Split(host, ".")[1], w, r)
		case strings.HasSuffix(host, "."+aws.EndpointDomain) && !strings.HasPrefix(host, "oidc.") &&
			!(r.Method == http.MethodGet && r.URL.Path == "/healthz"):
			serveKube(s, "https://"+host, w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}
