package gitopsbridge

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// ClusterSecretGuard is what the hub's admission guard for cluster secrets knows of the fleet.
type ClusterSecretGuard struct {
	// Namespace is Argo CD's: the guard applies to Secrets there.
	Namespace string
	// HubClusterName is the hub's own cluster: only its secret may name the in-cluster server.
	HubClusterName string
	// ControllerServiceAccount is the application controller's service account: what a Git sync writes as.
	ControllerServiceAccount string
	// Spokes are the cluster secrets the controller may write besides the hub's own (hub.registeredSpokes).
	Spokes []Registration
}

// Registration is the data of a cluster secret as GitOpsBridge writes it.
type Registration struct {
	// Name is the cluster's name: the secret's name key and its cluster_name label.
	Name string
	// Server is the cluster's API server URL.
	Server string
	// Config is the cluster's config JSON (ClusterConfig).
	Config string
}

// SpokeRegistration is what GitOpsBridge writes for a spoke: its endpoint, and Argo CD's AWS authentication
// with roleArn and the cluster's CA (SpokeConfig).
func SpokeRegistration(clusterName, server, roleArn, caData string) Registration {
	return Registration{Name: clusterName, Server: server, Config: SpokeConfig(clusterName, roleArn, caData)}
}

// ClusterSecretPolicyName is the hub's ValidatingAdmissionPolicy (and binding) for cluster secrets.
const ClusterSecretPolicyName = "gitops-fleet-cluster-secrets"

// Policy is the admission guard for what Git can register in the hub (Kubernetes' ValidatingAdmissionPolicy,
// evaluated by the API server before any Secret in Argo CD's namespace is written):
//   - Argo CD's application controller (what every Git sync writes as) may write only cluster secrets there,
//     never Argo CD's own secrets (argocd-secret) or repository credentials;
//   - a cluster secret (label argocd.argoproj.io/secret-type: cluster) holds exactly name, server and config (no
//     project, namespaces, clusterResources or shard);
//   - only the hub's own secret may name the in-cluster server, and its config is exactly the one GitOpsBridge
//     writes: TLS verified, no credential of any kind;
//   - a cluster secret the controller writes is exactly one GitOpsBridge writes, the hub's or one of Spokes: the
//     same name, server and config, and a cluster_name label equal to name. So a Git commit cannot register an
//     unknown cluster, point a spoke's name at another server (which would receive the spoke role's EKS token),
//     or give a config an execProviderConfig (a command Argo CD runs), a bearer token, a password, a client key,
//     insecure TLS or another role.
//
// The API server hands a Secret's data to CEL base64-encoded, and Kubernetes' CEL has no base64 decoder, so
// the data are compared with the registrations base64-encoded in Go, not parsed: an exact allow-list.
func (g ClusterSecretGuard) Policy() admission.Policy {
	isCluster := fmt.Sprintf("has(object.metadata.labels) && %s in object.metadata.labels && object.metadata.labels[%s] == 'cluster'",
		admission.String(SecretTypeLabel), admission.String(SecretTypeLabel))
	controller := "system:serviceaccount:" + g.Namespace + ":" + g.ControllerServiceAccount
	return admission.Policy{
		Name:  ClusterSecretPolicyName,
		Group: "", Version: "v1", Resource: "secrets",
		Namespaces: []string{g.Namespace},
		Variables: []admission.Variable{
			{Name: "isCluster", Expression: isCluster},
			{Name: "server", Expression: dataField("server")},
			{Name: "name", Expression: dataField("name")},
			{Name: "registered", Expression: g.registered()},
		},
		Validations: []admission.Validation{
			{
				Expression: "request.userInfo.username != " + admission.String(controller) + " || variables.isCluster",
				Message: fmt.Sprintf("Argo CD's application controller may write only cluster secrets in %s: a Git "+
					"repository it syncs cannot change Argo CD's own secrets or credentials", g.Namespace),
			},
			{
				Expression: "!variables.isCluster || (has(object.data) && object.data.size() == 3 && ['name', 'server', 'config'].all(k, k in object.data))",
				Message:    "a cluster secret holds exactly name, server and config (no project, namespaces, clusterResources or shard)",
			},
			{
				Expression: "!variables.isCluster || variables.server != " + b64(InClusterServer) +
					" || (object.data['name'] == " + b64(g.HubClusterName) + " && object.data['config'] == " + b64(InClusterConfig()) + ")",
				Message: fmt.Sprintf("only the hub's own secret (%s) may name the in-cluster server, and its config holds "+
					"no credential", g.HubClusterName),
			},
			{
				Expression: "request.userInfo.username != " + admission.String(controller) + " || !variables.isCluster || " +
					"(variables.name in variables.registered && variables.registered[variables.name] == " +
					"[" + clusterNameLabel + ", variables.server, " + dataField("config") + "])",
				Message: "a cluster secret from Git must be exactly the one GitOpsBridge writes for the hub or a spoke of " +
					"hub.registeredSpokes: the same name, server and config (awsAuthConfig with the spoke's role and its CA; no " +
					"execProviderConfig, bearer token, password, client key or insecure TLS), and a cluster_name label equal to name",
			},
		},
	}
}

// clusterNameLabel is the secret's cluster_name label, "" when absent.
var clusterNameLabel = fmt.Sprintf("has(object.metadata.labels) && %[1]s in object.metadata.labels ? object.metadata.labels[%[1]s] : ''",
	admission.String("cluster_name"))

// registered is a CEL map literal of the registrations the controller may write, the hub's first: base64 name ->
// [name, base64 server, base64 config], keys in order so that the policy is stable from one `up` to the next.
func (g ClusterSecretGuard) registered() string {
	regs := append([]Registration{{Name: g.HubClusterName, Server: InClusterServer, Config: InClusterConfig()}}, g.Spokes...)
	entries := make([]string, len(regs))
	for i, r := range regs {
		entries[i] = fmt.Sprintf("%s: [%s, %s, %s]", b64(r.Name), admission.String(r.Name), b64(r.Server), b64(r.Config))
	}
	slices.Sort(entries[1:])
	return "{" + strings.Join(entries, ", ") + "}"
}

// b64 is a CEL string literal of s base64-encoded, as the API server gives Secret data to CEL.
func b64(s string) string { return admission.String(base64.StdEncoding.EncodeToString([]byte(s))) }

// dataField is a key of the Secret's data (base64, as the API server gives it to CEL), "" when absent.
func dataField(key string) string {
	return fmt.Sprintf("has(object.data) && %s in object.data ? object.data[%s] : ''", admission.String(key), admission.String(key))
}
