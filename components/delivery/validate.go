package delivery

import (
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/api/validate/content"
)

// ValidationError lists every invalid input of a StackDelivery.
type ValidationError = problems.Error

const (
	// maxStackName is PKO's CRD rule on Stack objects: "size(self.metadata.name) <= 42".
	maxStackName = 42
	// minResync is PKO's minimum resyncFrequencySeconds (lower values are treated as 60).
	minResync = 60
	// previewSuffix names a stage's preview Stack.
	previewSuffix = "-preview"
)

var (
	// Kargo's Warehouse interval pattern.
	intervalPattern = regexp.MustCompile(`^([0-9]+(\.[0-9]+)?(s|m|h))+$`)
	// A Pulumi stack reference: <stack>, <project>/<stack> or <org>/<project>/<stack>.
	stackPattern = regexp.MustCompile(`^[\w.-]+(/[\w.-]+){0,2}$`)
	// An environment variable name.
	envPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Validate checks arguments that carry their defaults (see withDefaults) and returns a *ValidationError
// listing every problem, or nil. hubProvider tells whether a kubernetes provider was given in the resource
// options (it stands in for kubeconfig).
func Validate(a StackDeliveryArgs, hubProvider bool) error {
	var ps problems.List
	if a.Kubeconfig == nil && !hubProvider {
		ps.Add("kubeconfig", "is required (the hub's kubeconfig, Fleet's hubKubeconfig output) unless a kubernetes "+
			"provider is given in the resource options")
	}
	label(&ps, "argocdNamespace", a.ArgocdNamespace, "a Kubernetes namespace name")
	label(&ps, "namespace", a.Namespace, "a Kubernetes namespace name")
	if a.HubName != "" {
		for _, msg := range content.IsDNS1123Subdomain(a.HubName) {
			ps.Add("hubName", "%q is not a cluster secret's name (a Kubernetes object name): %s", a.HubName, msg)
		}
	}
	label(&ps, "project", a.Project, "a Kargo Project name (it defaults to the resource name)")
	validateProgram(&ps, a.Program)
	validateManifests(&ps, a.Manifests, a.Stages)
	validateEnvRefs(&ps, "envRefs", a.EnvRefs)
	validateEnvRefs(&ps, "previewEnvRefs", a.PreviewEnvRefs)
	validateOperator(&ps, *a.Operator, a.Stages)
	validateKargo(&ps, a)
	validateStages(&ps, a.Stages)
	validateVerification(&ps, a)
	return ps.Err(TypeToken)
}

func label(ps *problems.List, field, v, what string) {
	for _, msg := range content.IsDNS1123Label(v) {
		ps.Add(field, "%q is not %s: %s", v, what, msg)
	}
}

func validateProgram(ps *problems.List, p ProgramRepository) {
	if u, err := url.Parse(p.RepoUrl); p.RepoUrl == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		ps.Add("program.repoUrl", "%q is not an https Git URL (https://github.com/<owner>/<repository>.git)", p.RepoUrl)
	} else if gitopsbridge.HasCredentials(p.RepoUrl) {
		ps.Add("program.repoUrl", "holds credentials (user:token@), which would be written into every Stack manifest, "+
			"Kargo's Warehouse and the Pulumi state; give program.gitToken (PKO) and kargo.programGitToken (Kargo) instead")
	}
	relative(ps, "program.repoDir", p.RepoDir)
	for i, ip := range p.IncludePaths {
		relative(ps, problems.Index("program.includePaths", i), ip)
	}
	if !intervalPattern.MatchString(p.Interval) {
		ps.Add("program.interval", "%q is not a Kargo interval like \"5m0s\" (^([0-9]+(\\.[0-9]+)?(s|m|h))+$)", p.Interval)
	}
}

// relative refuses absolute paths, paths that leave the repository and trailing slashes.
func relative(ps *problems.List, field, p string) {
	if p == "" {
		return
	}
	if path.IsAbs(p) || p != path.Clean(p) || p == "." || strings.HasPrefix(p, "..") {
		ps.Add(field, "%q is not a clean relative path inside the repository (like \"examples/fleet\")", p)
	}
}

func validateManifests(ps *problems.List, m ManifestsRepository, stages []DeliveryStage) {
	m.Target().Validate(ps, "manifests")
	relative(ps, "manifests.path", m.Path)
	gitopsbridge.CheckSignatureKeys(ps, "manifests.signatureKeys", m.SignatureKeys)
	for i, s := range stages {
		b := StageBranch(m, s.Name)
		if s.Name == "" {
			continue // reported at the stage
		}
		gitopsbridge.CheckBranch(ps, "manifests.stageBranchPrefix", b)
		if b == m.Branch || (m.PullRequest && b == m.PullRequestBranch) {
			ps.Add(problems.Index("stages", i)+".name", "stage %q's branch %q is also the manifests' branch or pull "+
				"request branch; choose another manifests.stageBranchPrefix", s.Name, b)
		}
	}
	if m.BranchProtection == nil {
		return
	}
	m.BranchProtection.Validate(ps, "manifests.branchProtection")
	if !m.PullRequest {
		ps.Add("manifests.pullRequest", "must be true with manifests.branchProtection: a protected branch takes even "+
			"the first manifests only through a reviewed pull request")
	}
	for i, s := range stages {
		if !s.PullRequest {
			ps.Add(problems.Index("stages", i)+".pullRequest", "must be true with manifests.branchProtection: Kargo "+
				"cannot push stage %q's promotions to a protected branch, only open pull requests into it", s.Name)
		}
	}
}

func validateEnvRefs(ps *problems.List, field string, refs map[string]EnvRef) {
	for _, k := range slices.Sorted(maps.Keys(refs)) {
		f, r := problems.Key(field, k), refs[k]
		if !envPattern.MatchString(k) {
			ps.Add(f, "%q is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)", k)
		}
		switch r.Type {
		case "Secret":
			if r.Secret == nil || r.Secret.Name == "" || r.Secret.Key == "" {
				ps.Add(f+".secret", "type Secret needs secret.name and secret.key (a key of a Secret in the Stack's namespace)")
			}
			if r.Literal != nil {
				ps.Add(f+".literal", "is only for type Literal")
			}
		case "Literal":
			if r.Literal == nil {
				ps.Add(f+".literal", "type Literal needs literal.value")
			}
			if r.Secret != nil {
				ps.Add(f+".secret", "is only for type Secret")
			}
		default:
			ps.Add(f+".type", "%q is not allowed: Secret or Literal (PKO's Env and FS read the operator's own "+
				"environment and files)", r.Type)
		}
	}
}

func validateOperator(ps *problems.List, op OperatorInstall, stages []DeliveryStage) {
	label(ps, "operator.namespace", op.Namespace, "a Kubernetes namespace name")
	if op.Existing {
		return
	}
	if !slices.ContainsFunc(stages, func(s DeliveryStage) bool { return s.Preview }) {
		return
	}
	// preview: true exists from PKO 2.3.
	var major, minor int
	if n, _ := sscanVersion(op.ChartVersion, &major, &minor); n == 2 && (major < 2 || major == 2 && minor < 3) {
		ps.Add("operator.chartVersion", "%q has no preview Stacks (stages[].preview needs PKO 2.3 or later)", op.ChartVersion)
	}
}

func validateKargo(ps *problems.List, a StackDeliveryArgs) {
	k := *a.Kargo
	label(ps, "kargo.namespace", k.Namespace, "a Kubernetes namespace name")
	if k.ProgramGitToken != nil && sameRepo(a.Program.RepoUrl, a.Manifests.Target().RepoURL()) {
		ps.Add("kargo.programGitToken", "the program lives in the manifests repository, which kargo.gitToken "+
			"already reaches (Kargo takes one credential per repository URL); leave it out")
	}
	if o := k.Oidc; o != nil {
		if u, err := url.Parse(o.IssuerUrl); err != nil || u.Scheme != "https" || u.Host == "" {
			ps.Add("kargo.oidc.issuerUrl", "%q is not an https issuer URL (https://idp.example.com)", o.IssuerUrl)
		}
		if o.ClientId == "" {
			ps.Add("kargo.oidc.clientId", "is required: the OIDC client registered for Kargo")
		}
	}
	for i, s := range a.Stages {
		if s.Approvers != nil && k.Oidc == nil && !k.Existing {
			ps.Add(problems.Index("stages", i)+".approvers", "need kargo.oidc: Kargo maps approvers by the claims of "+
				"people signed in with OpenID Connect, and without it nobody but the admin account can promote")
		}
	}
	if k.Existing {
		return
	}
	if k.AdminPasswordHash == nil {
		ps.Add("kargo.adminPasswordHash", "is required to install Kargo: the bcrypt hash of the admin password "+
			"(a secret), or set kargo.existing")
	} else if v, ok := problems.Known(k.AdminPasswordHash); ok && !strings.HasPrefix(v, "$2") {
		ps.Add("kargo.adminPasswordHash", "is not a bcrypt hash (it starts with $2a$, $2b$ or $2y$)")
	}
	if k.TokenSigningKey == nil {
		ps.Add("kargo.tokenSigningKey", "is required to install Kargo: the key that signs admin tokens (a secret), "+
			"or set kargo.existing")
	}
	if k.CertManager != CertManagerInstall && k.CertManager != CertManagerPresent {
		ps.Add("kargo.certManager", "%q: Kargo needs cert-manager; say %q to install it or %q if the hub has it",
			k.CertManager, CertManagerInstall, CertManagerPresent)
	}
}

func validateStages(ps *problems.List, stages []DeliveryStage) {
	if len(stages) == 0 {
		ps.Add("stages", "needs at least one stage (for example dev, qa, prod)")
		return
	}
	names, stackNames, namespaces := map[string]int{}, map[string]string{}, map[string]string{}
	unique := true
	for i, s := range stages {
		f := problems.Index("stages", i)
		label(ps, f+".name", s.Name, "a Kargo Stage name")
		j, dup := names[s.Name]
		if dup {
			ps.Add(f+".name", "%q is also the name of stages[%d]", s.Name, j)
			unique = false
		}
		names[s.Name] = i
		validateSources(ps, f, stages, i)
		if a := s.Approvers; a != nil && len(a.Groups)+len(a.Emails)+len(a.Subjects) == 0 {
			ps.Add(f+".approvers", "names nobody: give groups, emails or subjects")
		}
		if s.Target != "" && s.Kind != KindPreview {
			ps.Add(f+".target", "is only for kind preview: the update stage a preview stage previews")
		}
		switch s.Kind {
		case KindUpdate:
		case KindPreview:
			if !validatePreview(ps, f, stages, s) {
				continue
			}
		case KindGate:
			validateGate(ps, f, s)
			continue
		default:
			ps.Add(f+".kind", "%q is not a kind of stage: \"update\", \"preview\" or \"gate\"", s.Kind)
			continue
		}
		// The Stack's and ServiceAccount's names derive from the stage's: a bad name is reported once.
		derived := !dup && len(content.IsDNS1123Label(s.Name)) == 0
		if s.Kind == KindUpdate {
			validateStacks(ps, f, s)
		}
		if len(s.Stacks) == 0 && !stackPattern.MatchString(s.Stack) {
			ps.Add(f+".stack", "%q is not a Pulumi stack (<org>/<project>/<stack>, or <stack> for a self-managed backend)", s.Stack)
		}
		objects := stackNamesOf(s)
		if s.Preview {
			objects = append(objects, s.StackName+previewSuffix)
		}
		for _, n := range objects {
			if !derived {
				break
			}
			for _, msg := range content.IsDNS1123Subdomain(n) {
				ps.Add(f+".stackName", "%q is not a Kubernetes object name: %s", n, msg)
			}
			if len(n) > maxStackName {
				ps.Add(f+".stackName", "%q has %d characters; PKO allows Stack names of at most %d (it defaults "+
					"to <project>-<name>; preview Stacks add %q)", n, len(n), maxStackName, previewSuffix)
			}
			if other, dup := stackNames[n]; dup {
				ps.Add(f+".stackName", "%q is also a Stack of stage %q", n, other)
			}
			stackNames[n] = s.Name
		}
		switch {
		case (s.Commit == "") == (s.Branch == ""):
			ps.Add(f+".commit", "exactly one of commit and branch is required: a pinned commit (recommended; "+
				"promotions move it) or a branch to follow")
		case s.Commit != "" && !gitopsbridge.IsCommit(s.Commit):
			ps.Add(f+".commit", "%q is not a full commit SHA (40 lowercase hex digits)", s.Commit)
		}
		if s.ResyncFrequencySeconds < minResync {
			ps.Add(f+".resyncFrequencySeconds", "%d is below PKO's minimum of %d seconds", s.ResyncFrequencySeconds, minResync)
		}
		if derived {
			label(ps, f+".serviceAccountName", s.ServiceAccountName, "a ServiceAccount name")
			if s.PreviewServiceAccountName != "" {
				label(ps, f+".previewServiceAccountName", s.PreviewServiceAccountName, "a ServiceAccount name")
				if s.PreviewServiceAccountName == s.ServiceAccountName {
					ps.Add(f+".previewServiceAccountName", "%q is the stage's deploy ServiceAccount; a preview Stack runs "+
						"as an identity of its own", s.PreviewServiceAccountName)
				}
			}
			label(ps, f+".namespace", s.Namespace, "a Kubernetes namespace name (it defaults to <namespace>-<name>)")
			if other, dup := namespaces[s.Namespace]; dup && s.ownsWorkspace() {
				ps.Add(f+".namespace", "%q is also the namespace of stage %q; each stage has a namespace of its own", s.Namespace, other)
			}
			if s.ownsWorkspace() {
				namespaces[s.Namespace] = s.Name
			}
		}
		for _, r := range AdminClusterRoles {
			if slices.Contains(s.ClusterRoles, r) && !s.AllowClusterAdmin {
				ps.Add(f+".clusterRoles", "names %s, bound cluster-wide: the stage's program, and whoever can change "+
					"what it runs, would own the hub (every namespace's Secrets, pods as any service account); bind "+
					"narrower ClusterRoles, or set allowClusterAdmin: true", r)
			}
		}
		validateEnvRefs(ps, f+".envRefs", s.EnvRefs)
		validateEnvRefs(ps, f+".previewEnvRefs", s.PreviewEnvRefs)
		if s.PreviewServiceAccountName != "" && s.PulumiAccessToken != nil && s.PreviewAccessToken == nil {
			ps.Add(f+".previewAccessToken", "is required: stage %q has preview Stacks, which run code no promotion "+
				"reviewed and never receive pulumiAccessToken; give them a read-only backend token of their own "+
				"(here or the top-level previewAccessToken)", s.Name)
		}
	}
	if unique {
		_, problems := graph(stages)
		for _, p := range problems {
			ps.Add("stages", "%s", p)
		}
	}
}

// validateSources checks stages[i]'s availabilityStrategy: Kargo's values, and only where there is a choice (two
// or more sources). The graph itself is checked once for all stages (graph).
func validateSources(ps *problems.List, f string, stages []DeliveryStage, i int) {
	s := stages[i]
	if s.AvailabilityStrategy == "" {
		return
	}
	if s.AvailabilityStrategy != "All" && s.AvailabilityStrategy != "OneOf" {
		ps.Add(f+".availabilityStrategy", "%q is not one of Kargo's: \"All\" or \"OneOf\"", s.AvailabilityStrategy)
	}
	direct, ups := sourcesOf(stages, i)
	n := len(ups)
	if direct {
		n++
	}
	if n < 2 {
		ps.Add(f+".availabilityStrategy", "needs two or more sources (from, direct); stage %q has %d", s.Name, n)
	}
}

// validateGate refuses what only a stage that deploys takes: a gate has no Stack, workspace or Application.
func validateGate(ps *problems.List, f string, s DeliveryStage) {
	for _, c := range []struct {
		field string
		set   bool
	}{
		{"stack", s.Stack != ""}, {"commit", s.Commit != ""}, {"branch", s.Branch != ""}, {"preview", s.Preview},
		{"stackName", s.StackName != ""}, {"namespace", s.Namespace != ""},
		{"serviceAccountName", s.ServiceAccountName != ""}, {"config", len(s.Config) > 0},
		{"envRefs", len(s.EnvRefs) > 0}, {"previewEnvRefs", len(s.PreviewEnvRefs) > 0}, {"clusterRoles", len(s.ClusterRoles) > 0},
		{"workspaceTemplate", len(s.WorkspaceTemplate) > 0}, {"pullRequest", s.PullRequest},
		{"verification", s.Verification != nil}, {"stacks", len(s.Stacks) > 0},
	} {
		if c.set {
			ps.Add(f+"."+c.field, "is set, but a gate deploys nothing: its promotion is the approval (kind: gate)")
		}
	}
}

// validatePreview checks a preview stage against its target: an update stage without preview: true, whose stack,
// namespace and preview ServiceAccount the preview stage's Stack uses (the Stack guard admits no other). It
// reports whether the target was found, so that the Stack's own checks are worth running.
func validatePreview(ps *problems.List, f string, stages []DeliveryStage, s DeliveryStage) bool {
	if s.Target == "" {
		ps.Add(f+".target", "is required for a preview stage: the update stage whose stack it previews")
		return false
	}
	t := slices.IndexFunc(stages, func(t DeliveryStage) bool { return t.Name == s.Target })
	if t < 0 || stages[t].Kind != KindUpdate {
		ps.Add(f+".target", "%q is not an update stage", s.Target)
		return false
	}
	target, tf := stages[t], problems.Index("stages", t)
	if len(s.Stacks) > 0 {
		ps.Add(f+".stacks", "is set, but a preview stage previews its target's stack; leave it out")
	}
	if len(target.Stacks) > 0 {
		ps.Add(f+".target", "%q deploys several stacks (stacks); a preview stage previews a stage of one stack", s.Target)
		return false
	}
	if target.Preview {
		ps.Add(tf+".preview", "is true, but stage %q previews %q already; keep one of them", s.Name, target.Name)
	}
	for _, c := range []struct{ field, got, want string }{
		{"stack", s.Stack, target.Stack}, {"namespace", s.Namespace, target.Namespace},
		{"serviceAccountName", s.ServiceAccountName, target.PreviewServiceAccountName},
	} {
		if c.got != c.want {
			ps.Add(f+"."+c.field, "%q is not the target's %q: a preview runs against its target's stack, in its "+
				"namespace, as its preview ServiceAccount; leave it out", c.got, c.want)
		}
	}
	return true
}

// validateVerification checks the stages' verification: a known provider and timeout; pulumiCloud needs the
// Pulumi Cloud backend, a stack as <org>/<project>/<stack> and the top-level pulumiAccessToken, which its
// AnalysisTemplate reads from the project's Secret.
func validateVerification(ps *problems.List, a StackDeliveryArgs) {
	for i, s := range a.Stages {
		v := s.Verification
		if v == nil || !s.deploys() {
			continue
		}
		f := problems.Index("stages", i) + ".verification"
		switch v.Provider {
		case VerifyPulumiCloud:
			if a.Backend != "" {
				ps.Add(f+".provider", "pulumiCloud reads Pulumi Cloud, but backend is %q; verify a self-managed "+
					"backend with stackStatus", a.Backend)
			}
			for _, m := range s.members() {
				if strings.Count(m.stage.Stack, "/") != 2 {
					ps.Add(f+".provider", "pulumiCloud reads the stack by <org>/<project>/<stack>; stack %q is not one", m.stage.Stack)
				}
			}
			if a.PulumiAccessToken == nil {
				ps.Add(f+".provider", "pulumiCloud needs the top-level pulumiAccessToken, which its AnalysisTemplate "+
					"reads from the Secret %s in the Kargo project", PulumiAPITokenSecret)
			}
		case VerifyStackStatus:
		default:
			ps.Add(f+".provider", "%q is not a verification provider: %q or %q", v.Provider, VerifyPulumiCloud, VerifyStackStatus)
		}
		if v.TimeoutSeconds < 60 || v.TimeoutSeconds > 86400 {
			ps.Add(f+".timeoutSeconds", "%d is not between 60 and 86400 seconds", v.TimeoutSeconds)
		}
	}
}
