package gitopsbridge

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// ClusterSecretGuard is what the hub's admission guard for the Secrets in Argo CD's namespace knows of the fleet:
// who deploys the hub, who else may write Argo CD's own secrets, and the cluster secrets the stack computed.
type ClusterSecretGuard struct {
	// Namespace is Argo CD's: the guard applies to Secrets there.
	Namespace string
	// Deployer is the Kubernetes username of the identity that runs the hub's stack (DeployerUsername): the guard
	// does not apply to it. "" exempts no one.
	Deployer string
	// SecretWriters are the Kubernetes usernames that may write and delete Secrets other than cluster secrets
	// (Argo CD's server, which keeps argocd-secret and the credentials added through its API; the chart's
	// redis-secret-init Job, which makes argocd-redis; hub.secretWriters).
	SecretWriters []string
	// Registered are the cluster secrets the stack computed, the hub's own first, then the registered spokes'
	// (hub.registeredSecrets): every writer but the deployer may write exactly these.
	Registered []ClusterSecret
	// ByARN is a managed hub's guard: every cluster secret names its cluster by EKS cluster ARN, and none, the
	// deployer's included, names the in-cluster server, which the managed Argo CD does not take.
	ByARN bool
}

// ClusterSecretPolicyName is the hub's ValidatingAdmissionPolicy (and binding) for the Secrets in Argo CD's
// namespace.
const ClusterSecretPolicyName = "gitops-fleet-cluster-secrets"

// Bookkeeping are the annotations Argo CD writes on what it syncs, whatever the manifest says: its tracking
// annotation (Argo CD 3's default resource tracking) and kubectl's last applied configuration (its client-side
// apply). The guard lets them be; Argo CD's ApplicationSet templates read neither. Label tracking
// (application.resourceTrackingMethod: label) adds a label the guard refuses: the fleet keeps the default.
var Bookkeeping = []string{"argocd.argoproj.io/tracking-id", "kubectl.kubernetes.io/last-applied-configuration"}

// argoCDSecrets are the Secrets argo-cd chart 10.1.1 and Argo CD make in their namespace, by name; the chart's
// repository credentials are argocd-repo-<key> and argocd-repo-creds-<key>.
var argoCDSecrets = []string{"argocd-secret", "argocd-redis", "argocd-notifications-secret",
	"argocd-initial-admin-secret", "argocd-server-tls", "argocd-repo-server-tls", "argocd-dex-server-tls"}

// ArgoCDSecret says whether name is one of Argo CD's own Secrets: a cluster secret may not take it.
func ArgoCDSecret(name string) bool {
	return slices.Contains(argoCDSecrets, name) || strings.HasPrefix(name, "argocd-repo-")
}

// MastersGroup is Kubernetes' superuser group, which the guards exempt (admission.MastersGroup).
const MastersGroup = admission.MastersGroup

// SystemDeleters are the usernames that delete for the API itself (admission.SystemDeleters). They may delete, and
// write an object being deleted; the guard keeps ownerReferences off every cluster secret but the deployer's, so the
// garbage collector never owns one.
var SystemDeleters = admission.SystemDeleters

// Policy is the admission guard on the Secrets in Argo CD's namespace (Kubernetes' ValidatingAdmissionPolicy,
// evaluated by the API server before any Secret there is created, updated or deleted). Deny by default, for every
// writer but the deployer (and SystemDeleters finishing a deletion, and MastersGroup):
//   - a Secret that is not a cluster secret (label argocd.argoproj.io/secret-type: cluster) is written and
//     deleted only by SecretWriters: a Git sync (Argo CD's application controller), a stage or any other
//     identity cannot change or prune Argo CD's own secrets or credentials;
//   - a cluster secret is exactly one of Registered: its name (so no file named argocd-secret), its data (name,
//     server, config, and shard when the controller is sharded: no unknown cluster, no move to another controller
//     replica, no spoke name on another server, which would receive the spoke role's
//     EKS token, no execProviderConfig, bearer token, password, client key, insecure TLS or other role), every
//     label (no enable_* label flipped, no other environment) and every annotation (no other values repository,
//     revision, add-on namespace or service account, no text pasted into Helm values) but Bookkeeping, and no
//     ownerReferences or finalizers;
//   - a registered cluster secret is deleted only by the deployer (and SystemDeleters): a Git sync prunes a
//     cluster's file only once the stack no longer registers it, never a registered cluster, whose Applications,
//     and with them its add-ons, Argo CD would delete.
//
// For the deployer too, a cluster secret holds exactly name, server and config (and shard), and only the hub's own
// names the in-cluster server, with the config GitOpsBridge writes (TLS verified, no credential).
//
// One policy for writes and deletions, so that a spoke's new secret (unknown during a preview) updates one object.
// The API server hands a Secret's data to CEL base64-encoded, and Kubernetes' CEL has no base64 decoder, so the
// data are compared with the registrations base64-encoded in Go, not parsed: an exact allow-list.
//
// The registrations are split into variables of at most PinsCodePoints each (pins0, pins1, ...: CEL caps an
// expression at 100,000 code points, cel-go's default parser limit, which the API server keeps), sorted by name;
// a request evaluates only the one its secret's name falls in (the API server evaluates variables lazily). A
// realistic spoke pins about 4,800 code points, so the policy holds a few hundred spokes before the API server's
// limit on a stored object (etcd's 1.5 MiB request) is near: 200 spokes make a policy of about 1 MB.
func (g ClusterSecretGuard) Policy() admission.Policy {
	names := g.names()
	bookkeeping, namesLit := literal(Bookkeeping), literal(names)
	hub := ClusterSecret{}
	if len(g.Registered) > 0 {
		hub = g.Registered[0]
	}
	pins, pinned := g.pins()
	return admission.Policy{
		Name:  ClusterSecretPolicyName,
		Group: "", Version: "v1", Resource: "secrets",
		Namespaces: []string{g.Namespace},
		Variables: slices.Concat(g.Exemptions().Variables(), []admission.Variable{
			{Name: "secret", Expression: "request.operation == 'DELETE' ? oldObject : object"},
			{Name: "isCluster", Expression: "variables.secret.metadata.?labels[?" + admission.String(SecretTypeLabel) + "].orValue('') == 'cluster'"},
			{Name: "registered", Expression: "variables.secret.metadata.name in " + namesLit},
		}, pins, []admission.Variable{
			{Name: "pinned", Expression: pinned},
			{Name: "labels", Expression: "variables.secret.metadata.?labels.orValue({})"},
			{Name: "annotations", Expression: "variables.secret.metadata.?annotations.orValue({})"},
			{Name: "pinnedLabels", Expression: "variables.pinned.?labels.orValue({})"},
			{Name: "pinnedAnnotations", Expression: "variables.pinned.?annotations.orValue({})"},
			{Name: "changed", Expression: strings.Join([]string{
				"(dyn(variables.secret.?data.orValue({})) == dyn(variables.pinned.?data.orValue({})) ? [] : ['data'])",
				"variables.labels.filter(k, !(k in variables.pinnedLabels) || variables.pinnedLabels[k] != variables.labels[k]).map(k, 'label ' + k)",
				"variables.pinnedLabels.filter(k, !(k in variables.labels)).map(k, 'label ' + k)",
				"variables.annotations.filter(k, !(k in " + bookkeeping + ") && (!(k in variables.pinnedAnnotations) || variables.pinnedAnnotations[k] != variables.annotations[k])).map(k, 'annotation ' + k)",
				"variables.pinnedAnnotations.filter(k, !(k in variables.annotations)).map(k, 'annotation ' + k)",
				"(variables.secret.metadata.?ownerReferences.orValue([]).size() == 0 ? [] : ['ownerReferences'])",
				"(variables.secret.metadata.?finalizers.orValue([]).size() == 0 ? [] : ['finalizers'])",
			}, " + ")},
		}),
		Validations: []admission.Validation{
			{
				Expression: admission.OnWrite("variables.exempt || variables.writer || variables.isCluster"),
				Message: fmt.Sprintf("only the deployer and %s may write Secrets other than cluster secrets in %s: a "+
					"Git sync, a stage or another identity cannot change Argo CD's own secrets or credentials",
					strings.Join(g.SecretWriters, ", "), g.Namespace),
			},
			{
				Expression: admission.OnWrite("!variables.isCluster || (has(object.data) && object.data.size() == ('shard' in object.data ? 4 : 3) && ['name', 'server', 'config'].all(k, k in object.data))"),
				Message: "a cluster secret holds exactly name, server and config, and shard when the hub's controller is " +
					"sharded (no project, namespaces or clusterResources)",
			},
			g.inCluster(hub),
			{
				Expression: admission.OnWrite("variables.exempt || !variables.isCluster || variables.registered"),
				Message:    "a cluster secret is one the stack registered, by name: " + listed(names) + " (the hub's and hub.registeredSecrets)",
				MessageExpression: "'cluster secret ' + variables.secret.metadata.name + " +
					admission.String(" is not one the stack registered, by name: "+listed(names)+" (the hub's and hub.registeredSecrets)"),
			},
			{
				Expression: admission.OnWrite("variables.exempt || !variables.isCluster || !variables.registered || variables.changed.size() == 0"),
				Message: "a cluster secret is exactly the one GitOpsBridge writes for the hub or a spoke of hub.registeredSecrets: " +
					"the same data (awsAuthConfig with the spoke's role and its CA; no execProviderConfig, bearer token, " +
					"password, client key or insecure TLS), labels and annotations, and no ownerReferences or finalizers",
				MessageExpression: "'a cluster secret is exactly the one GitOpsBridge writes for the hub or a spoke of " +
					"hub.registeredSecrets: ' + variables.changed.join(', ') + ' differ'",
			},
			{
				Expression: admission.OnDelete("variables.exempt || variables.isCluster || variables.writer"),
				Message: fmt.Sprintf("only the deployer and %s may delete Secrets other than cluster secrets in %s: a "+
					"Git sync cannot prune Argo CD's own secrets", strings.Join(g.SecretWriters, ", "), g.Namespace),
			},
			{
				Expression: admission.OnDelete("variables.exempt || !variables.isCluster || !variables.registered"),
				Message: "a registered cluster secret is deleted only by the deployer: the stack unregisters a cluster " +
					"(remove it from the fleet, or from hub.registeredSecrets) before Git may prune its secret",
			},
		},
	}
}

// inCluster is the rule for the in-cluster server: only the hub's own secret names it, with a config that holds no
// credential; for a managed hub no secret names it (EKS User Guide, "Register target clusters": "The default
// kubernetes.default.svc is not supported").
func (g ClusterSecretGuard) inCluster(hub ClusterSecret) admission.Validation {
	// dyn(object.data): the API server hands a policy a Secret's data values as their base64 text, which the literals
	// here are, where the Secret's schema types them bytes; without it the controller manager's type check
	// (status.typeChecking) finds no orValue of bytes with a string (tests/contract's TestGuardsTypeCheck).
	notInCluster := "!variables.isCluster || dyn(object.data)[?'server'].orValue('') != " + b64(InClusterServer)
	if g.ByARN {
		return admission.Validation{Expression: admission.OnWrite(notInCluster),
			Message: "the managed Argo CD does not take the in-cluster server (" + InClusterServer + "): a cluster " +
				"secret names its cluster, the hub's too, by its EKS cluster ARN"}
	}
	return admission.Validation{
		Expression: admission.OnWrite(notInCluster + " || (dyn(object.data)[?'name'].orValue('') == " + b64(hub.ClusterName) +
			" && dyn(object.data)[?'config'].orValue('') == " + b64(InClusterConfig()) + ")"),
		Message: fmt.Sprintf("only the hub's own secret (%s) may name the in-cluster server, and its config holds "+
			"no credential", hub.ClusterName),
	}
}

// Exemptions are the guard's: the deployer, MastersGroup, SystemDeleters at a deletion, and SecretWriters as the
// writers of Secrets other than cluster secrets.
func (g ClusterSecretGuard) Exemptions() admission.Exemptions {
	return admission.Exemptions{Deployer: g.Deployer, Masters: true, SystemDeleters: true, Writers: g.SecretWriters}
}

// names are the registered secrets' names, the hub's first, then the spokes' sorted: stable from one `up` to the
// next whatever the order of hub.registeredSecrets.
func (g ClusterSecretGuard) names() []string {
	out := make([]string, len(g.Registered))
	for i, r := range g.Registered {
		out[i] = r.Name
	}
	if len(out) > 1 {
		slices.Sort(out[1:])
	}
	return out
}

// PinsCodePoints is the most code points one variable of pinned registrations takes: under the 100,000 cel-go's
// parser allows an expression, with room for the CEL around it.
const PinsCodePoints = 90_000

// pins are the variables of the registered secrets by name, each a CEL map literal of {data (base64, as the API
// server gives it to CEL), labels, annotations} of at most PinsCodePoints (a single larger registration alone),
// sorted by name so that the policy is stable from one `up` to the next; and pinned, the expression that picks the
// one variable the requested secret's name falls in (by the last name of each) and looks the name up there ({} when
// it is in none).
func (g ClusterSecretGuard) pins() (vars []admission.Variable, pinned string) {
	entries := map[string]string{}
	for _, r := range g.Registered {
		entries[r.Name] = pinEntry(r)
	}
	var chunks [][]string
	size := 0
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		n := utf8.RuneCountInString(entries[name]) + len(", ")
		if len(chunks) == 0 || size+n > PinsCodePoints-len("{}") {
			chunks, size = append(chunks, nil), 0
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], name)
		size += n
	}
	pick := "{}"
	for i := len(chunks) - 1; i >= 0; i-- {
		var lits []string
		for _, name := range chunks[i] {
			lits = append(lits, entries[name])
		}
		v := "pins" + strconv.Itoa(i)
		vars = append([]admission.Variable{{Name: v, Expression: "{" + strings.Join(lits, ", ") + "}"}}, vars...)
		pick = "variables.secret.metadata.name <= " + admission.String(chunks[i][len(chunks[i])-1]) +
			" ? variables." + v + " : " + pick
		if i == 0 {
			pick = "(" + pick + ")"
		}
	}
	if len(chunks) == 0 {
		pick = "({})" // nothing registered: the hub's own secret is always, so only a guard built by hand
	}
	return vars, pick + "[?variables.secret.metadata.name].orValue({})"
}

// pinEntry is a registered secret's entry in the pins: its name, then {data (base64, as the API server gives it
// to CEL), labels, annotations}.
func pinEntry(r ClusterSecret) string {
	data := map[string]any{}
	for k, v := range r.StringData() {
		data[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return admission.String(r.Name) + ": dyn(" +
		literal(map[string]any{"data": data, "labels": r.Labels, "annotations": r.Annotations}) + ")"
}

// listed is names for a message: all of them up to ten, else the first ten and how many more.
func listed(names []string) string {
	if len(names) <= 10 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:10], ", ") + " and " + strconv.Itoa(len(names)-10) + " more"
}

// literal is v as a CEL literal (admission.Literal) where v holds only strings, lists and maps of them, which
// always have one.
func literal(v any) string {
	lit, err := admission.Literal(v)
	if err != nil {
		panic(err)
	}
	return lit
}

// b64 is a CEL string literal of s base64-encoded, as the API server gives Secret data to CEL.
func b64(s string) string { return admission.String(base64.StdEncoding.EncodeToString([]byte(s))) }
