package gitopsbridge

import (
	"fmt"
	"regexp"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
)

// ClusterSecretGuard is what the hub's admission guard for cluster secrets knows of the fleet.
type ClusterSecretGuard struct {
	// Namespace is Argo CD's: the guard applies to Secrets there.
	Namespace string
	// HubClusterName is the hub's own cluster: only its secret may name the in-cluster server.
	HubClusterName string
	// Partition and Accounts are where spoke roles may live (the management role's aws:ResourceAccount).
	Partition string
	Accounts  []string
	// ControllerServiceAccount is the application controller's service account: what a Git sync writes as.
	ControllerServiceAccount string
}

// ClusterSecretPolicyName is the hub's ValidatingAdmissionPolicy (and binding) for cluster secrets.
const ClusterSecretPolicyName = "gitops-fleet-cluster-secrets"

// eksEndpoint is an EKS API server URL: https://<32 hex>.<label>.<region>.eks.amazonaws.com (or .com.cn).
const eksEndpoint = `^https://[0-9A-F]{32}\.[a-z0-9]+\.[a-z]{2}(-[a-z]+)+-[0-9]\.eks\.amazonaws\.com(\.cn)?$`

// Policy is the admission guard for what Git can register in the hub (Kubernetes' ValidatingAdmissionPolicy,
// evaluated by the API server before any Secret in Argo CD's namespace is written):
//   - Argo CD's application controller (what every Git sync writes as) may write only cluster secrets there,
//     never Argo CD's own secrets or repository credentials;
//   - a cluster secret (label argocd.argoproj.io/secret-type: cluster) holds exactly name, server and config;
//     name equals its cluster_name label; config is exactly the form GitOpsBridge writes: awsAuthConfig with a
//     role under the spoke path in the fleet's accounts and tlsClientConfig with caData (no execProviderConfig,
//     bearer token, user name and password, client key or insecure), matched as a whole text so that JSON
//     escapes or key case cannot sneak a field past it; server is an EKS endpoint, or the in-cluster server for
//     the hub's own secret, whose config names no role.
func (g ClusterSecretGuard) Policy() admission.Policy {
	isCluster := fmt.Sprintf("has(object.metadata.labels) && %s in object.metadata.labels && object.metadata.labels[%s] == 'cluster'",
		admission.String(SecretTypeLabel), admission.String(SecretTypeLabel))
	label := "cluster_name"
	spokeConfig := `^\{"awsAuthConfig":\{"clusterName":"[a-z0-9]([-a-z0-9]*[a-z0-9])?","roleARN":"arn:` +
		regexp.QuoteMeta(g.Partition) + `:iam::(` + alternatives(g.Accounts) + `):role` +
		regexp.QuoteMeta(clusterinfo.SpokeRolePath) + `[A-Za-z0-9+=,.@_-]+"\},"tlsClientConfig":\{"insecure":false,"caData":"[A-Za-z0-9+/]+=*"\}\}$`
	inCluster := `^` + regexp.QuoteMeta(InClusterConfig()) + `$`
	controller := "system:serviceaccount:" + g.Namespace + ":" + g.ControllerServiceAccount
	return admission.Policy{
		Name:  ClusterSecretPolicyName,
		Group: "", Version: "v1", Resource: "secrets",
		Namespaces: []string{g.Namespace},
		Variables: []admission.Variable{
			{Name: "isCluster", Expression: isCluster},
			{Name: "name", Expression: dataField("name")},
			{Name: "server", Expression: dataField("server")},
			{Name: "config", Expression: dataField("config")},
			{Name: "spoke", Expression: "variables.config.matches(" + admission.Regex(spokeConfig) + ")"},
			{Name: "inCluster", Expression: "variables.config.matches(" + admission.Regex(inCluster) + ")"},
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
				Expression: fmt.Sprintf("!variables.isCluster || (%s in object.metadata.labels && variables.name == object.metadata.labels[%s])",
					admission.String(label), admission.String(label)),
				Message: "a cluster secret's name must equal its cluster_name label",
			},
			{
				Expression: "!variables.isCluster || variables.spoke || variables.inCluster",
				Message: "a cluster secret's config may hold only awsAuthConfig (a role under " + clusterinfo.SpokeRolePath +
					" in the fleet's accounts) and tlsClientConfig with caData: no execProviderConfig, bearerToken, " +
					"username, password, keyData or insecure",
			},
			{
				Expression: "!variables.isCluster || !variables.spoke || variables.config.contains('\"clusterName\":\"' + variables.name + '\"')",
				Message:    "awsAuthConfig.clusterName must be the cluster secret's name",
			},
			{
				Expression: "!variables.isCluster || !variables.spoke || variables.server.matches(" + admission.Regex(eksEndpoint) + ")",
				Message:    "a spoke's server must be an EKS endpoint (https://<id>.<label>.<region>.eks.amazonaws.com)",
			},
			{
				Expression: "!variables.isCluster || !variables.inCluster || (variables.server == " + admission.String(InClusterServer) +
					" && variables.name == " + admission.String(g.HubClusterName) + ")",
				Message: fmt.Sprintf("only the hub's own secret (%s) may name the in-cluster server, and it names no role", g.HubClusterName),
			},
		},
	}
}

// dataField is a key of the Secret's data as a string, "" when absent.
func dataField(key string) string {
	return fmt.Sprintf("has(object.data) && %s in object.data ? string(object.data[%s]) : ''", admission.String(key), admission.String(key))
}

// alternatives is a regular expression alternation of literal strings.
func alternatives(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "|"
		}
		out += regexp.QuoteMeta(s)
	}
	return out
}
