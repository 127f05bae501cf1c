package gitopsbridge

import (
	"encoding/base64"
	"fmt"

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
//     writes: TLS verified, no credential of any kind.
//
// The API server hands a Secret's data to CEL base64-encoded, and Kubernetes' CEL has no base64 decoder, so a
// value can be compared only with a value known in advance, here base64-encoded in Go. What a spoke's config says
// (awsAuthConfig only, a role under the spoke path) is therefore not checked here; the registry project admits
// only Secrets into this namespace, and fleet-addons deploys only to the fleet's clusters by name.
func (g ClusterSecretGuard) Policy() admission.Policy {
	isCluster := fmt.Sprintf("has(object.metadata.labels) && %s in object.metadata.labels && object.metadata.labels[%s] == 'cluster'",
		admission.String(SecretTypeLabel), admission.String(SecretTypeLabel))
	controller := "system:serviceaccount:" + g.Namespace + ":" + g.ControllerServiceAccount
	b64 := func(s string) string { return admission.String(base64.StdEncoding.EncodeToString([]byte(s))) }
	return admission.Policy{
		Name:  ClusterSecretPolicyName,
		Group: "", Version: "v1", Resource: "secrets",
		Namespaces: []string{g.Namespace},
		Variables: []admission.Variable{
			{Name: "isCluster", Expression: isCluster},
			{Name: "server", Expression: dataField("server")},
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
		},
	}
}

// dataField is a key of the Secret's data (base64, as the API server gives it to CEL), "" when absent.
func dataField(key string) string {
	return fmt.Sprintf("has(object.data) && %s in object.data ? object.data[%s] : ''", admission.String(key), admission.String(key))
}
