package delivery

import (
	"fmt"
	"slices"
	"strings"
)

const (
	// TypeToken is the component's type token.
	TypeToken = "fleet:index:StackDelivery"

	// OperatorChart is PKO v2's Helm chart (an OCI artifact).
	OperatorChart = "oci://ghcr.io/pulumi/helm-charts/pulumi-kubernetes-operator"
	// DefaultOperatorChartVersion is the PKO chart the objects were written against.
	DefaultOperatorChartVersion = "2.9.0"
	// KargoChart is Kargo's Helm chart (an OCI artifact).
	KargoChart = "oci://ghcr.io/akuity/kargo-charts/kargo"
	// DefaultKargoChartVersion is the Kargo chart the objects were written against.
	DefaultKargoChartVersion = "1.11.2"
	// RolloutsChart, RolloutsChartRepository and DefaultRolloutsChartVersion are Argo Rollouts' chart: 2.41.1
	// installs Argo Rollouts v1.9.1 (argo-helm release argo-rollouts-2.41.1).
	RolloutsChart               = "argo-rollouts"
	RolloutsChartRepository     = "https://argoproj.github.io/argo-helm"
	DefaultRolloutsChartVersion = "2.41.1"
	// DefaultKubectlImage is the image of stackStatus verification's Job.
	DefaultKubectlImage  = "registry.k8s.io/kubectl:v1.33.0"
	defaultRolloutsNS    = "argo-rollouts"
	defaultVerifyTimeout = 900
	// CertManagerChartRepository and CertManagerChart are Jetstack's cert-manager chart.
	CertManagerChartRepository = "https://charts.jetstack.io"
	CertManagerChart           = "cert-manager"
	// DefaultCertManagerChartVersion is the cert-manager chart installed for Kargo.
	DefaultCertManagerChartVersion = "v1.19.1"

	// CertManagerInstall and CertManagerPresent are the values of kargo.certManager.
	CertManagerInstall = "install"
	CertManagerPresent = "present"

	defaultNamespace       = "fleet-stacks"
	defaultArgoCDNamespace = "argocd"
	defaultOperatorNS      = "pulumi-kubernetes-operator"
	defaultKargoNS         = "kargo"
	defaultCertManagerNS   = "cert-manager"
	defaultManifestsPath   = "stacks"
	defaultBranch          = "main"
	// defaultStageBranchPrefix names the stages' branches, Kargo's convention (stage/<name>).
	defaultStageBranchPrefix = "stage/"
	defaultInterval          = "5m0s"
	defaultResync            = 600
	// AccessTokenSecret is the Secret (key accessTokenKey) the pulumiAccessToken input is written to.
	AccessTokenSecret = "pulumi-access-token"
	// PreviewAccessTokenSecret is the Secret (key accessTokenKey) the previewAccessToken input is written to.
	PreviewAccessTokenSecret = "pulumi-preview-access-token"
	accessTokenKey           = "accessToken"
	accessTokenEnv           = "PULUMI_ACCESS_TOKEN"
	// ProgramTokenSecret is the Secret (key accessTokenKey) the program.gitToken input is written to.
	ProgramTokenSecret = "program-git-token"
)

// WithDefaults is args with every optional input that has a default filled, as NewStackDelivery uses them (name
// is the resource name); stage defaults need the stage's position. The objects' functions (StackObject,
// Application, AppProject, StackGuard) take arguments with their defaults.
func WithDefaults(args StackDeliveryArgs, name string) StackDeliveryArgs {
	a := args
	a.ArgocdNamespace = or(a.ArgocdNamespace, defaultArgoCDNamespace)
	a.Namespace = or(a.Namespace, defaultNamespace)
	a.Project = or(a.Project, name)
	p := &a.Program
	p.Branch = or(p.Branch, defaultBranch)
	p.Interval = or(p.Interval, defaultInterval)
	if len(p.IncludePaths) == 0 && p.RepoDir != "" {
		p.IncludePaths = []string{p.RepoDir}
	}
	m := &a.Manifests
	m.Branch = or(m.Branch, defaultBranch)
	m.Path = or(m.Path, defaultManifestsPath)
	m.StageBranchPrefix = or(m.StageBranchPrefix, defaultStageBranchPrefix)
	if m.PullRequest {
		m.PullRequestBranch = or(m.PullRequestBranch, "gitops-fleet/"+a.Project+"-stacks")
	}
	op := OperatorInstall{}
	if a.Operator != nil {
		op = *a.Operator
	}
	op.ChartVersion = or(op.ChartVersion, DefaultOperatorChartVersion)
	op.Namespace = or(op.Namespace, defaultOperatorNS)
	a.Operator = &op
	k := KargoInstall{}
	if a.Kargo != nil {
		k = *a.Kargo
	}
	k.ChartVersion = or(k.ChartVersion, DefaultKargoChartVersion)
	r := RolloutsInstall{}
	if a.Rollouts != nil {
		r = *a.Rollouts
	}
	r.ChartVersion = or(r.ChartVersion, DefaultRolloutsChartVersion)
	r.Namespace = or(r.Namespace, defaultRolloutsNS)
	r.KubectlImage = or(r.KubectlImage, DefaultKubectlImage)
	a.Rollouts = &r
	k.Namespace = or(k.Namespace, defaultKargoNS)
	a.Kargo = &k
	a.Stages = slices.Clone(a.Stages)
	previews := map[string]string{} // target -> its preview stage
	for i := range a.Stages {
		s := &a.Stages[i]
		s.Kind = or(s.Kind, KindUpdate)
		if s.Kind == KindPreview && s.Target != "" {
			previews[s.Target] = s.Name
		}
	}
	for i := range a.Stages {
		s := &a.Stages[i]
		if s.AutoPromotion == nil {
			s.AutoPromotion = ptr(autoPromotes(a.Stages, i, previews))
		}
		if v := s.Verification; v != nil && v.TimeoutSeconds == 0 {
			c := *v
			c.TimeoutSeconds = defaultVerifyTimeout
			s.Verification = &c
		}
		if !s.ownsWorkspace() {
			continue // a gate has no Stack; a preview stage takes its target's (below)
		}
		s.StackName = or(s.StackName, a.Project+"-"+s.Name)
		s.ServiceAccountName = or(s.ServiceAccountName, s.StackName)
		s.Namespace = or(s.Namespace, a.Namespace+"-"+s.Name)
		if s.Preview || previews[s.Name] != "" {
			s.PreviewServiceAccountName = or(s.PreviewServiceAccountName, s.StackName+previewSuffix)
		}
		if s.PulumiAccessToken == nil {
			s.PulumiAccessToken = a.PulumiAccessToken
		}
		if s.PreviewAccessToken == nil {
			s.PreviewAccessToken = a.PreviewAccessToken
		}
		if s.ProgramGitToken == nil {
			s.ProgramGitToken = a.Program.GitToken
		}
		if s.Refresh == nil {
			s.Refresh = ptr(true)
		}
		if s.ContinueResyncOnCommitMatch == nil {
			s.ContinueResyncOnCommitMatch = ptr(true)
		}
		if s.ResyncFrequencySeconds == 0 {
			s.ResyncFrequencySeconds = defaultResync
		}
	}
	for i := range a.Stages {
		if s := &a.Stages[i]; s.Kind == KindPreview {
			if t := slices.IndexFunc(a.Stages, func(t DeliveryStage) bool {
				return t.Name == s.Target && t.Kind == KindUpdate
			}); t >= 0 {
				previewDefaults(s, a.Stages[t])
			}
		}
	}
	return a
}

// previewDefaults fills a preview stage from its target: the target's stack and namespace, a Stack named
// "<target's stackName>-preview" run as the target's preview ServiceAccount, and the target's program commit,
// settings and tokens where the preview stage gives none.
func previewDefaults(s *DeliveryStage, t DeliveryStage) {
	s.Stack = or(s.Stack, t.Stack)
	s.Namespace = or(s.Namespace, t.Namespace)
	s.StackName = or(s.StackName, t.StackName+previewSuffix)
	s.ServiceAccountName = or(s.ServiceAccountName, t.PreviewServiceAccountName)
	if s.Commit == "" && s.Branch == "" {
		s.Commit, s.Branch = t.Commit, t.Branch
	}
	if len(s.Config) == 0 {
		s.Config = t.Config
	}
	if len(s.EnvRefs) == 0 {
		s.EnvRefs = t.EnvRefs
	}
	if len(s.WorkspaceTemplate) == 0 {
		s.WorkspaceTemplate = t.WorkspaceTemplate
	}
	if s.PulumiAccessToken == nil {
		s.PulumiAccessToken = t.PulumiAccessToken
	}
	if s.PreviewAccessToken == nil {
		s.PreviewAccessToken = t.PreviewAccessToken
	}
	if len(s.PreviewEnvRefs) == 0 {
		s.PreviewEnvRefs = t.PreviewEnvRefs
	}
	if s.ProgramGitToken == nil {
		s.ProgramGitToken = t.ProgramGitToken
	}
	if s.Refresh == nil {
		s.Refresh = t.Refresh
	}
	if s.ContinueResyncOnCommitMatch == nil {
		s.ContinueResyncOnCommitMatch = t.ContinueResyncOnCommitMatch
	}
	if s.ResyncFrequencySeconds == 0 {
		s.ResyncFrequencySeconds = t.ResyncFrequencySeconds
	}
}

// autoPromotes is stages[i]'s default autoPromotion: on for a preview stage, for an update stage that takes
// Freight from the Warehouse only, and for an update stage that takes it only from its own preview stage (seed
// 004: the preview verifies, then the update follows); off for the rest, gates included.
func autoPromotes(stages []DeliveryStage, i int, previews map[string]string) bool {
	s := stages[i]
	direct, ups := sourcesOf(stages, i)
	switch s.Kind {
	case KindPreview:
		return true
	case KindUpdate:
		return (direct && len(ups) == 0) || (!direct && len(ups) == 1 && ups[0] == previews[s.Name])
	default:
		return false
	}
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func ptr[T any](v T) *T { return &v }

// sscanVersion reads "<major>.<minor>" from the front of a version like "2.9.0" or "v2.9.0"; n counts the
// numbers read.
func sscanVersion(v string, major, minor *int) (int, error) {
	return fmt.Sscanf(strings.TrimPrefix(v, "v"), "%d.%d", major, minor)
}
