package offline

import (
	"fmt"
	"net/url"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// sharedPrefix starts the first label of a shared endpoint's host (SharedEndpoint).
const sharedPrefix = "shared-"

// SharedEndpoint is another endpoint of the EKS cluster at endpoint (https://<id>.gr7.<region>.eks.amazonaws.com):
// https://shared-<label>.<id>.gr7.<region>.eks.amazonaws.com, which the network serves from the same cluster's
// control plane (its minted certificate names that host, signed by the run's CA like every other). Argo CD keys a
// cluster by its server URL, so each shared endpoint is a cluster of its own to it: a bench registers many clusters
// on one API server (bench/engine's Argo CD at size), where an API server per cluster would not fit this machine.
// label is a DNS-1123 label (Kubernetes' apimachinery validation) that one still is after the prefix: at most 63
// characters less the prefix.
func SharedEndpoint(endpoint, label string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.Path != "" && u.Path != "/" {
		return "", fmt.Errorf("shared endpoint of %q: not an https://<host> endpoint", endpoint)
	}
	if len(validation.IsDNS1123Label(label)) > 0 || len(validation.IsDNS1123Label(sharedPrefix+label)) > 0 {
		return "", fmt.Errorf("shared endpoint label %q: want lowercase letters, digits and inner hyphens, at most %d characters",
			label, 63-len(sharedPrefix))
	}
	return "https://" + sharedPrefix + label + "." + u.Host, nil
}

// sharedOf is the endpoint a shared endpoint (SharedEndpoint) stands for, and endpoint itself when it is none.
func sharedOf(endpoint string) string {
	rest, ok := strings.CutPrefix(endpoint, "https://"+sharedPrefix)
	if !ok {
		return endpoint
	}
	if _, host, ok := strings.Cut(rest, "."); ok && host != "" {
		return "https://" + host
	}
	return endpoint
}
