package gitopsbridge

import (
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
)

// ValidationError lists every invalid input of a GitOpsBridge.
type ValidationError = problems.Error

const (
	// maxReleaseName is Helm's limit on release names (helm install: "release name ... must not be longer than 53").
	maxReleaseName = 53
	// ArgoAPIVersion is the API version of Argo CD's Application and ApplicationSet.
	ArgoAPIVersion = "argoproj.io/v1alpha1"
)

var (
	// IAM role ARNs: arn:<partition>:iam::<12-digit account>:role/<path and name>.
	roleARNPattern = regexp.MustCompile(`^arn:aws[a-z-]*:iam::\d{12}:role/[\w+=,.@/-]+$`)
	// GitHub account names: alphanumerics and single hyphens, at most 39 characters.
	githubOwnerPattern = regexp.MustCompile(`^[A-Za-z0-9](-?[A-Za-z0-9]){0,38}$`)
	// GitHub repository names: at most 100 of [A-Za-z0-9._-].
	githubRepoPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
	// scp-like Git URLs: git@github.com:acme/addons.git.
	scpURLPattern = regexp.MustCompile(`^[\w.-]+@[\w.-]+:[\w./~-]+$`)
)

// Validate checks arguments that carry their defaults (see withDefaults) and returns a *ValidationError
// listing every problem, or nil. hubProvider tells whether a kubernetes provider was given in the resource
// options (it stands in for spoke.hubKubeconfig). Facts that are outputs are checked when they resolve.
func Validate(args GitOpsBridgeArgs, hubProvider bool) error {
	var ps problems.List
	validateCluster(&ps, args.Cluster)
	for _, k := range slices.Sorted(maps.Keys(args.Addons)) {
		for _, msg := range content.IsLabelKey(AddonLabel(k)) {
			ps.Add(problems.Key("addons", k), "label key %q is not a Kubernetes qualified name: %s", AddonLabel(k), msg)
		}
	}
	checkAnnotationKeys(&ps, "metadata", args.Metadata)
	checkAnnotationSize(&ps, "metadata", Annotations(nil, args.Metadata, args.AddonsRepo, args.WorkloadsRepo))
	for _, msg := range content.IsDNS1123Label(args.Namespace) {
		ps.Add("namespace", "%q is not a Kubernetes namespace name: %s", args.Namespace, msg)
	}
	if apps := ApplicationsNamespace(args.Namespace, "workloads"); args.Hub != nil && len(apps) > 63 {
		ps.Add("namespace", "%q is too long: the hub makes namespace %s for the workloads' Applications, and a "+
			"namespace name has at most 63 characters (53 for Argo CD's)", args.Namespace, apps)
	}
	for _, msg := range content.IsDNS1123Subdomain(args.SecretName) {
		ps.Add("secretName", "%q is not a Kubernetes Secret name (it defaults to the resource name): %s",
			args.SecretName, msg)
	}
	CheckWave(&ps, "wave", args.Wave, args.Hub != nil)
	checkShard(&ps, args)
	validateRepo(&ps, "addonsRepo", args.AddonsRepo)
	validateRepo(&ps, "workloadsRepo", args.WorkloadsRepo)
	switch {
	case args.Hub != nil && args.Spoke != nil:
		ps.Add("spoke", "excludes hub: hub installs Argo CD on this cluster, spoke registers this cluster into "+
			"another cluster's Argo CD; set one of them")
	case args.Hub == nil && args.Spoke == nil:
		ps.Add("hub", "one of hub or spoke is required: hub installs Argo CD on this cluster, spoke registers "+
			"this cluster into a hub")
	case args.Hub != nil:
		validateHub(&ps, *args.Hub)
	default:
		// With git (and no handover), the secret comes to the hub from the registry: nothing is written into it.
		validateSpoke(&ps, *args.Spoke, args.Cluster, hubProvider || (args.Git != nil && !args.Handover))
	}
	if args.Git != nil {
		validateGit(&ps, *args.Git)
	}
	return ps.Err(TypeToken)
}

func validateCluster(ps *problems.List, c clusterinfo.ClusterInfoInput) {
	if c == nil {
		ps.Add("cluster", "is required: the facts of the cluster to register (FleetCluster's clusterInfo output)")
		return
	}
	for _, f := range clusterinfo.Missing(c) {
		ps.Add("cluster."+f, "is required")
	}
	a, ok := c.(clusterinfo.ClusterInfoArgs)
	if !ok {
		return
	}
	// Facts known now are checked now; the rest when they resolve (checkSecretMetadata).
	known := map[string]pulumi.StringInput{
		"cluster_name": a.ClusterName, "environment": a.Environment, "kubernetes_version": a.KubernetesVersion,
	}
	labels := map[string]string{}
	for k, in := range known {
		if v, ok := problems.Known(in); ok {
			labels[k] = v
		}
	}
	checkLabels(ps, labels)
}

// checkLabels checks the cluster secret's labels, naming the input each came from.
func checkLabels(ps *problems.List, labels map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		for _, msg := range content.IsLabelKey(k) {
			ps.Add(labelSource(k), "label key %q is not a Kubernetes qualified name: %s", k, msg)
		}
		for _, msg := range content.IsLabelValue(labels[k]) {
			ps.Add(labelSource(k), "%q is not a Kubernetes label value (it becomes the %s label): %s",
				labels[k], k, msg)
		}
	}
}

// labelSource is the input a cluster-secret label comes from.
func labelSource(label string) string {
	switch label {
	case "cluster_name":
		return "cluster.clusterName"
	case "environment":
		return "cluster.environment"
	case "kubernetes_version":
		return "cluster.kubernetesVersion"
	case addons.ClusterNameKey:
		return "cluster.gitopsMetadata." + addons.ClusterNameKey
	}
	if addon, ok := strings.CutPrefix(label, addons.EnableLabel("")); ok {
		return problems.Key("addons", addon)
	}
	return "labels"
}

// checkAnnotationKeys checks that annotation keys are qualified names, matched case-insensitively as the API
// server does (k8s.io/apimachinery ValidateAnnotations).
func checkAnnotationKeys(ps *problems.List, field string, annotations map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range content.IsLabelKey(strings.ToLower(k)) {
			ps.Add(problems.Key(field, k), "annotation key %q is not a Kubernetes qualified name: %s", k, msg)
		}
	}
}

// checkAnnotationSize checks the 256 KiB limit on all annotations of an object together (keys and values).
func checkAnnotationSize(ps *problems.List, field string, annotations map[string]string) {
	if err := apivalidation.ValidateAnnotationsSize(annotations); err != nil {
		ps.Add(field, "the cluster secret's annotations exceed the Kubernetes limit of %d bytes: %v",
			apivalidation.TotalAnnotationSizeLimitB, err)
	}
}

func validateRepo(ps *problems.List, field string, r *Repo) {
	if r == nil {
		return
	}
	switch {
	case !gitURL(r.URL):
		ps.Add(field+".url", "%q is not a Git repository URL; expected https://host/owner/repo or git@host:owner/repo.git", r.URL)
	case hasCredentials(r.URL):
		ps.Add(field+".url", "holds credentials (user:token@); they would be copied into the cluster secret's "+
			"annotations, Git and the Pulumi state: give Argo CD a repository credential secret instead")
	}
	if r.Path == "" {
		ps.Add(field+".path", "is required: the folder Argo CD reads, for example bootstrap/control-plane/addons")
	} else if !relative(r.Path) {
		ps.Add(field+".path", "%q must be a relative path inside the repository, without ..", r.Path)
	}
	if r.BasePath != "" && (!relative(r.BasePath) || !strings.HasSuffix(r.BasePath, "/")) {
		ps.Add(field+".basePath", "%q must be a relative folder ending in / (Argo CD joins it with path as "+
			"{{basepath}}{{path}})", r.BasePath)
	}
}

func gitURL(s string) bool {
	if scpURLPattern.MatchString(s) {
		return true
	}
	u, err := url.Parse(s)
	return err == nil && slices.Contains([]string{"https", "http", "ssh", "git"}, u.Scheme) && u.Host != "" &&
		strings.Trim(u.Path, "/") != ""
}

// hasCredentials tells a URL that carries a secret in its user information: a password, or any user name of
// an http(s) URL (GitHub and GitLab take a token as the user name). ssh://git@host/... names no secret.
func hasCredentials(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return false
	}
	_, hasPassword := u.User.Password()
	return hasPassword || u.Scheme == "https" || u.Scheme == "http"
}

// relative tells a clean relative path that stays inside the repository.
func relative(p string) bool {
	clean := path.Clean(p)
	return !path.IsAbs(p) && clean != ".." && !strings.HasPrefix(clean, "../")
}

// gpgKeyIDPattern is a GPG key ID as Argo CD's signatureKeys take it: the 16 hex digits of a long key ID.
var gpgKeyIDPattern = regexp.MustCompile(`^[0-9A-Fa-f]{16}$`)

// CheckSignatureKeys reports, at field[i], each key that is not a GPG key ID as Argo CD's signatureKeys take it.
func CheckSignatureKeys(ps *problems.List, field string, keys []string) {
	for i, k := range keys {
		if !gpgKeyIDPattern.MatchString(k) {
			ps.Add(problems.Index(field, i), "%q is not a GPG key ID (16 hex digits, as Argo CD lists them)", k)
		}
	}
}

// NamesHost tells a repository pattern (an Argo CD project's sourceRepos entry: a URL, or host/namespace for OCI)
// whose host is named, with no glob in it: globs may only follow the host ("https://github.com/acme/*"), so a
// pattern never reaches repositories of any host ("*", "https://*/acme/x", "*.ecr.aws/acme").
func NamesHost(s string) bool {
	host := s
	if u, err := url.Parse(s); err == nil && u.Scheme != "" {
		host = u.Host
	} else if i := strings.Index(s, "/"); i >= 0 {
		host = s[:i]
	}
	return host != "" && !strings.ContainsAny(host, "*?[]{}!")
}

// HasCredentials tells a URL that carries a secret in its user information (user:token@).
func HasCredentials(s string) bool { return hasCredentials(s) }

// commitPattern is a full Git commit SHA: 40 lowercase hex digits.
var commitPattern = regexp.MustCompile(`^[0-9a-f]{40}$`)

// IsCommit tells a full Git commit SHA (40 lowercase hex digits), as a revision pinned to a commit is written.
func IsCommit(s string) bool { return commitPattern.MatchString(s) }

// GitURL tells a Git repository URL Argo CD can read: https, http, ssh or git with a host and a path, or scp-like
// (git@host:owner/repository).
func GitURL(s string) bool { return gitURL(s) }

// accountIDPattern is an AWS account ID: 12 digits.
var accountIDPattern = regexp.MustCompile(`^\d{12}$`)

func validateHub(ps *problems.List, h Hub) {
	checkStackAddons(ps, h)
	checkSharding(ps, "hub.controllerSharding", h.ControllerSharding, h.Mode)
	switch {
	case !slices.Contains(Modes, h.Mode):
		ps.Add("hub.mode", "%q is not a hub mode; expected one of %v", h.Mode, Modes)
	case h.Managed() && h.Capability == nil:
		ps.Add("hub.capability", "is required with hub.mode managed: at least capability.awsIdc.idcInstanceArn, "+
			"the IAM Identity Center instance the managed Argo CD signs its users in with")
	case h.Managed():
		capability.CheckName(ps, "hub.capability.capabilityName", h.Capability.CapabilityName)
		capability.CapabilityArgoCD{IdentityCenter: h.Capability.IdentityCenter, EndpointPrefix: h.Capability.EndpointPrefix,
			NetworkAccess: h.Capability.NetworkAccess, RbacRoleMappings: h.Capability.RbacRoleMappings}.Check(ps, "hub.capability")
		awsnames.Tags(ps, "hub.capability.tags", h.Capability.Tags)
		if a := h.Capability.AccessPolicyArn; a != "" && !awsnames.AccessPolicyARNPattern.MatchString(a) {
			ps.Add("hub.capability.accessPolicyArn", "%q is not a valid ARN; expected %s", a, awsnames.AccessPolicyARNForm)
		}
		if len(h.SignatureKeys) > 0 {
			ps.Add("hub.signatureKeys", "applies to mode selfManaged only: the managed Argo CD has no GnuPG keyring "+
				"of yours (its configuration ConfigMaps are not yours to write, EKS User Guide \"Comparing EKS "+
				"Capability for Argo CD to self-managed Argo CD\"), so it would sync unsigned commits; keep the hub "+
				"selfManaged to verify signatures")
		}
	case h.Capability != nil:
		ps.Add("hub.capability", "applies to hub.mode managed only (hub.mode is %s)", h.Mode)
	}
	for i, env := range h.RegistryEnvironments {
		for _, msg := range content.IsDNS1123Label(env) {
			ps.Add(problems.Index("hub.registryEnvironments", i), "%q is not an environment name: %s", env, msg)
		}
	}
	for i, a := range h.SpokeAccountIds {
		if !accountIDPattern.MatchString(a) {
			ps.Add(problems.Index("hub.spokeAccountIds", i), "%q is not an AWS account ID (12 digits)", a)
		}
	}
	if len(h.ReleaseName) > maxReleaseName {
		ps.Add("hub.releaseName", "%q is %d characters; Helm release names are at most %d",
			h.ReleaseName, len(h.ReleaseName), maxReleaseName)
	}
	for _, msg := range content.IsDNS1123Subdomain(h.ReleaseName) {
		ps.Add("hub.releaseName", "%q is not a Helm release name: %s", h.ReleaseName, msg)
	}
	if u, err := url.Parse(h.ChartRepository); err != nil || !slices.Contains([]string{"https", "http", "oci"}, u.Scheme) {
		ps.Add("hub.chartRepository", "%q is not a Helm repository URL (https://... or oci://...)", h.ChartRepository)
	} else if hasCredentials(h.ChartRepository) {
		ps.Add("hub.chartRepository", "holds credentials (user:token@), which would land in plaintext in the Pulumi "+
			"state and the Helm release; use a repository that needs none (a public one, or a mirror the hub reaches "+
			"without credentials)")
	}
	for i, r := range h.ChartRepositories {
		switch {
		case r == "" || strings.Contains(r, "@") || strings.ContainsAny(r, " \t\n"):
			ps.Add(problems.Index("hub.chartRepositories", i), "%q is not a chart repository URL without credentials "+
				"(https://host/path, or host/namespace for OCI)", r)
		case !NamesHost(r):
			ps.Add(problems.Index("hub.chartRepositories", i), "%q reaches chart repositories of any host: name the "+
				"host (https://charts.example.com/*, or host/namespace for OCI), globs only after it", r)
		}
	}
	for i, c := range h.FleetClusters {
		for _, msg := range content.IsDNS1123Subdomain(c) {
			ps.Add(problems.Index("hub.fleetClusters", i), "%q is not a cluster name: %s", c, msg)
		}
	}
	CheckSignatureKeys(ps, "hub.signatureKeys", h.SignatureKeys)
	values := ChartValues(h, nil)
	for _, c := range awsCallers(h) {
		sa := serviceAccountOf(values, c.values)
		for _, msg := range content.IsDNS1123Subdomain(sa) {
			ps.Add("hub.values."+c.values+".serviceAccount.name", "%q is not a service account name (EKS Pod "+
				"Identity binds the management role to it): %s", sa, msg)
		}
	}
	seen := map[string]int{}
	for i, obj := range h.Bootstrap {
		field := problems.Index("hub.bootstrap", i)
		validateArgoObject(ps, field, obj)
		id := fmt.Sprint(obj["kind"], "/", objectName(obj))
		if j, dup := seen[id]; dup {
			ps.Add(field+".metadata.name", "%s is also hub.bootstrap[%d]; names are unique per kind", id, j)
		} else {
			seen[id] = i
		}
	}
}

func validateArgoObject(ps *problems.List, field string, obj map[string]any) {
	if obj["apiVersion"] != ArgoAPIVersion {
		ps.Add(field+".apiVersion", "%v: expected %s", obj["apiVersion"], ArgoAPIVersion)
	}
	if kind := obj["kind"]; kind != "Application" && kind != "ApplicationSet" {
		ps.Add(field+".kind", "%v: expected Application or ApplicationSet", kind)
	}
	name := objectName(obj)
	for _, msg := range content.IsDNS1123Subdomain(name) {
		ps.Add(field+".metadata.name", "%q is not an Argo CD object name: %s", name, msg)
	}
	if ns, ok := objectMetadata(obj)["namespace"]; ok {
		s, _ := ns.(string)
		for _, msg := range content.IsDNS1123Label(s) {
			ps.Add(field+".metadata.namespace", "%v is not a namespace name: %s", ns, msg)
		}
	}
	spec, path := obj["spec"], ".spec.project"
	if obj["kind"] == "ApplicationSet" {
		spec, path = entry(entry(spec, "template"), "spec"), ".spec.template.spec.project"
	}
	if p := entry(spec, "project"); p == AddonApplicationsProject {
		ps.Add(field+path, "project %s is the add-ons' Applications project, which the hub's guard admits only from "+
			"the add-ons' namespace: name a project of your own", AddonApplicationsProject)
	}
}

// entry is m[key] when m is a map, else nil.
func entry(m any, key string) any {
	mm, _ := m.(map[string]any)
	return mm[key]
}

func validateSpoke(ps *problems.List, s Spoke, cluster clusterinfo.ClusterInfoInput, hubProvider bool) {
	if s.HubKubeconfig == nil && !hubProvider {
		ps.Add("spoke.hubKubeconfig", "is required: the secret is written into the hub cluster (or give a "+
			"kubernetes provider for the hub in the resource options)")
	}
	if !slices.Contains(Modes, s.HubMode) {
		ps.Add("spoke.hubMode", "%q is not a hub mode; expected one of %v", s.HubMode, Modes)
	}
	if s.Managed() {
		return // no role: the capability's role reaches the cluster through its access entry
	}
	if s.RoleArn == nil {
		if a, ok := cluster.(clusterinfo.ClusterInfoArgs); ok && a.SpokeRoleArn == nil {
			ps.Add("spoke.roleArn", "is required: the cluster has no spokeRoleArn (give FleetCluster a "+
				"gitopsAccess.hubRoleArn, or set spoke.roleArn)")
		}
		return
	}
	if v, ok := problems.Known(s.RoleArn); ok && !roleARNPattern.MatchString(v) {
		ps.Add("spoke.roleArn", "%q is not an IAM role ARN (arn:aws:iam::<account>:role/<name>)", v)
	}
}

func validateGit(ps *problems.List, g GitDelivery) {
	g.Target().Validate(ps, "git")
	if g.BranchProtection != nil {
		g.BranchProtection.Validate(ps, "git.branchProtection")
		if !g.PullRequest {
			ps.Add("git.pullRequest", "must be true with git.branchProtection: a protected branch takes changes "+
				"only through reviewed pull requests")
		}
	}
	if g.Path != "" && (!relative(g.Path) || !(strings.HasSuffix(g.Path, ".yaml") || strings.HasSuffix(g.Path, ".yml"))) {
		ps.Add("git.path", "%q must be a relative path inside the repository ending in .yaml or .yml", g.Path)
	}
}

// CheckBranch applies the rules of git check-ref-format that a branch name can break.
func CheckBranch(ps *problems.List, field, b string) {
	bad := b == "" || strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.HasSuffix(b, ".lock") ||
		strings.HasPrefix(b, "-") || strings.HasSuffix(b, ".") || strings.Contains(b, "..") ||
		strings.Contains(b, "//") || strings.Contains(b, "@{") || strings.ContainsAny(b, " ~^:?*[\\\t\n")
	if bad {
		ps.Add(field, "%q is not a Git branch name (git check-ref-format: no spaces, ~^:?*[\\, .., //, or @{)", b)
	}
}

func objectMetadata(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	return md
}

func objectName(obj map[string]any) string {
	name, _ := objectMetadata(obj)["name"].(string)
	return name
}

// Resolve is args with every default filled in, as NewGitOpsBridge resolves them for a component named name: what
// Validate checks, and applies no default again. Fleet resolves and checks its hub's bridge with the two before
// building anything.
func Resolve(args GitOpsBridgeArgs, name string) GitOpsBridgeArgs {
	return withDefaults(args, name)
}
