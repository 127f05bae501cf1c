package delivery

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// TestObjectSpecs: each object as PKO, Kargo and Argo CD spell it (PKO v2.9.0 StackSpec, Kargo v1.11.2
// api/v1alpha1 and promotion step schemas, Argo CD's Application).
func TestObjectSpecs(t *testing.T) {
	a := WithDefaults(threeStages(), "fleet")
	links, problems := graph(a.Stages)
	if problems != nil {
		t.Fatal(problems)
	}
	cases := map[string]struct {
		got  map[string]any
		want string
	}{
		"prod's Stack: pinned commit, workspace identity, token from a Secret, drift correction": {
			got: StackObject(a, links[2].DeliveryStage, false),
			want: `
apiVersion: pulumi.com/v1
kind: Stack
metadata: {name: fleet-prod, namespace: fleet-stacks-prod}
spec:
  stack: acme/fleet/prod
  projectRepo: https://github.com/acme/platform.git
  repoDir: examples/fleet
  commit: "1111111111111111111111111111111111111111"
  serviceAccountName: fleet-prod
  envRefs:
    PULUMI_ACCESS_TOKEN: {type: Secret, secret: {name: pulumi-access-token, key: accessToken}}
  refresh: true
  resyncFrequencySeconds: 600
  continueResyncOnCommitMatch: true
  destroyOnFinalize: false`,
		},
		"prod's preview Stack follows the branch with preview: true": {
			got: StackObject(a, links[2].DeliveryStage, true),
			want: `
apiVersion: pulumi.com/v1
kind: Stack
metadata: {name: fleet-prod-preview, namespace: fleet-stacks-prod}
spec:
  stack: acme/fleet/prod
  projectRepo: https://github.com/acme/platform.git
  repoDir: examples/fleet
  branch: main
  preview: true
  serviceAccountName: fleet-prod-preview
  envRefs:
    PULUMI_ACCESS_TOKEN: {type: Secret, secret: {name: pulumi-preview-access-token, key: accessToken}}
  refresh: true
  resyncFrequencySeconds: 600
  continueResyncOnCommitMatch: true
  destroyOnFinalize: false`,
		},
		"the Warehouse watches the program and not the manifests in the same repository": {
			got: Warehouse(a),
			want: `
apiVersion: kargo.akuity.io/v1alpha1
kind: Warehouse
metadata: {name: program, namespace: fleet}
spec:
  interval: 5m0s
  freightCreationPolicy: Automatic
  subscriptions:
  - git:
      repoURL: https://github.com/acme/platform.git
      branch: main
      commitSelectionStrategy: NewestFromBranch
      discoveryLimit: 20
      includePaths: [examples/fleet]
      excludePaths: [deploy/stacks]`,
		},
		"dev auto-promotes; qa and prod are gates": {
			got: ProjectConfig(a),
			want: `
apiVersion: kargo.akuity.io/v1alpha1
kind: ProjectConfig
metadata: {name: fleet, namespace: fleet}
spec:
  promotionPolicies:
  - {stageSelector: {name: dev}, autoPromotionEnabled: true}
  - {stageSelector: {name: qa}, autoPromotionEnabled: false}
  - {stageSelector: {name: prod}, autoPromotionEnabled: false}`,
		},
		"dev takes Freight from the Warehouse and pushes its promotion, rendered, to its own branch": {
			got: KargoStage(a, links[0]),
			want: `
apiVersion: kargo.akuity.io/v1alpha1
kind: Stage
metadata: {name: dev, namespace: fleet}
spec:
  requestedFreight:
  - origin: {kind: Warehouse, name: program}
    sources: {direct: true}
  promotionTemplate:
    spec:
      vars:
      - {name: programRepo, value: "https://github.com/acme/platform.git"}
      - {name: manifestsRepo, value: "https://github.com/acme/platform.git"}
      steps:
      - uses: git-clone
        as: clone
        config:
          repoURL: ${{ vars.manifestsRepo }}
          checkout: [{branch: main, path: ./src}, {branch: stage/dev, create: true, path: ./out}]
      - uses: git-clear
        as: clear
        config: {path: ./out}
      - uses: copy
        as: render
        config: {inPath: ./src/deploy/stacks/dev/, outPath: ./out/deploy/stacks/dev/}
      - uses: yaml-update
        as: update
        config:
          path: ./out/deploy/stacks/dev/stack.yaml
          updates:
          - {key: spec.commit, value: "${{ commitFrom(vars.programRepo).ID }}"}
          - {key: spec.branch, value: ""}
      - uses: git-commit
        as: commit
        config: {path: ./out, message: "Promote dev to ${{ commitFrom(vars.programRepo).ID }}"}
      - uses: git-push
        as: push
        config: {path: ./out}
      - uses: argocd-update
        as: sync
        config:
          apps:
          - name: fleet-dev
            namespace: argocd
            sources: [{repoURL: "${{ vars.manifestsRepo }}", desiredRevision: "${{ outputs.commit.commit }}"}]`,
		},
		"prod takes qa's Freight and promotes through a reviewed pull request into its own branch": {
			got: KargoStage(a, links[2]),
			want: `
apiVersion: kargo.akuity.io/v1alpha1
kind: Stage
metadata: {name: prod, namespace: fleet}
spec:
  requestedFreight:
  - origin: {kind: Warehouse, name: program}
    sources: {stages: [qa]}
  promotionTemplate:
    spec:
      vars:
      - {name: programRepo, value: "https://github.com/acme/platform.git"}
      - {name: manifestsRepo, value: "https://github.com/acme/platform.git"}
      steps:
      - uses: git-clone
        as: clone
        config:
          repoURL: ${{ vars.manifestsRepo }}
          checkout: [{branch: main, path: ./src}, {branch: stage/prod, create: true, path: ./out}]
      - uses: git-clear
        as: clear
        config: {path: ./out}
      - uses: copy
        as: render
        config: {inPath: ./src/deploy/stacks/prod/, outPath: ./out/deploy/stacks/prod/}
      - uses: yaml-update
        as: update
        config:
          path: ./out/deploy/stacks/prod/stack.yaml
          updates:
          - {key: spec.commit, value: "${{ commitFrom(vars.programRepo).ID }}"}
          - {key: spec.branch, value: ""}
      - uses: git-commit
        as: commit
        config: {path: ./out, message: "Promote prod to ${{ commitFrom(vars.programRepo).ID }}"}
      - uses: git-push
        as: push
        config: {path: ./out, generateTargetBranch: true}
      - uses: git-open-pr
        as: open-pr
        config:
          repoURL: ${{ vars.manifestsRepo }}
          sourceBranch: ${{ outputs.push.branch }}
          targetBranch: stage/prod
          title: "Promote prod to ${{ commitFrom(vars.programRepo).ID }}"
      - uses: git-wait-for-pr
        as: wait-for-pr
        config: {repoURL: "${{ vars.manifestsRepo }}", prNumber: "${{ outputs['open-pr'].pr.id }}"}
      - uses: argocd-update
        as: sync
        config:
          apps:
          - name: fleet-prod
            namespace: argocd
            sources: [{repoURL: "${{ vars.manifestsRepo }}", desiredRevision: "${{ outputs['wait-for-pr'].commit }}"}]`,
		},
		"qa's Application syncs its folder on its own branch and lets qa's Stage update it": {
			got: Application(a, links[1].DeliveryStage),
			want: `
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: fleet-qa
  namespace: argocd
  annotations: {kargo.akuity.io/authorized-stage: "fleet:qa"}
  finalizers: [resources-finalizer.argocd.argoproj.io]
spec:
  project: fleet-delivery
  source: {repoURL: "https://github.com/acme/platform.git", targetRevision: stage/qa, path: deploy/stacks/qa}
  destination: {server: "https://kubernetes.default.svc", namespace: fleet-stacks-qa}
  syncPolicy: {automated: {prune: false, selfHeal: true}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var want map[string]any
			mustYAML(t, tc.want, &want)
			got := roundTrip(t, tc.got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPreviewEnvRefs: a preview Stack gets the preview access token, the Literal envRefs and the previewEnvRefs,
// never the stage's access token or its Secret envRefs; the stage's own Stack gets none of the preview ones.
func TestPreviewEnvRefs(t *testing.T) {
	a := threeStages()
	secretRef := func(name string) EnvRef { return EnvRef{Type: "Secret", Secret: &EnvSecret{Name: name, Key: "k"}} }
	a.EnvRefs = map[string]EnvRef{"AWS_REGION": {Type: "Literal", Literal: &EnvLiteral{Value: "us-east-1"}},
		"DEPLOY_KEY": secretRef("deploy-key")}
	a.PreviewEnvRefs = map[string]EnvRef{"READ_KEY": secretRef("read-key")}
	a.Stages[2].EnvRefs = map[string]EnvRef{"PROD_KEY": secretRef("prod-key")}
	a = WithDefaults(a, "fleet")
	names := func(preview bool) []string {
		refs := roundTrip(t, StackObject(a, a.Stages[2], preview))["spec"].(map[string]any)["envRefs"].(map[string]any)
		var out []string
		for k, r := range refs {
			name := ""
			if s, ok := r.(map[string]any)["secret"].(map[string]any); ok {
				name = "=" + s["name"].(string)
			}
			out = append(out, k+name)
		}
		slices.Sort(out)
		return out
	}
	if got, want := names(true), []string{"AWS_REGION", "PULUMI_ACCESS_TOKEN=pulumi-preview-access-token", "READ_KEY=read-key"}; !slices.Equal(got, want) {
		t.Errorf("the preview Stack's envRefs %v, want %v", got, want)
	}
	if got, want := names(false), []string{"AWS_REGION", "DEPLOY_KEY=deploy-key", "PROD_KEY=prod-key",
		"PULUMI_ACCESS_TOKEN=pulumi-access-token"}; !slices.Equal(got, want) {
		t.Errorf("the stage's Stack's envRefs %v, want %v", got, want)
	}
}

// TestStackOptions: a stage's own settings reach its Stack as PKO spells them.
func TestStackOptions(t *testing.T) {
	a := threeStages()
	a.Backend = "s3://acme-pulumi-state"
	a.Program.GitToken = pulumi.String("ghp_program_canary")
	a.EnvRefs = map[string]EnvRef{"AWS_REGION": {Type: "Literal", Literal: &EnvLiteral{Value: "us-east-1"}}}
	s := &a.Stages[0]
	s.Commit, s.Branch = "", "release"
	s.Config = map[string]string{"aws:region": "eu-west-1"}
	s.EnvRefs = map[string]EnvRef{"AWS_REGION": {Type: "Literal", Literal: &EnvLiteral{Value: "eu-west-1"}}}
	s.WorkspaceTemplate = map[string]any{"spec": map[string]any{"image": "pulumi/pulumi:3.259.0"}}
	s.Refresh, s.ResyncFrequencySeconds, s.DestroyOnFinalize = ptr(false), 60, true
	a = WithDefaults(a, "fleet")
	spec := roundTrip(t, StackObject(a, a.Stages[0], false))["spec"].(map[string]any)
	want := map[string]any{
		"stack": "acme/fleet/dev", "projectRepo": "https://github.com/acme/platform.git", "repoDir": "examples/fleet",
		"branch": "release", "backend": "s3://acme-pulumi-state", "serviceAccountName": "fleet-dev",
		"config":            map[string]any{"aws:region": "eu-west-1"},
		"workspaceTemplate": map[string]any{"spec": map[string]any{"image": "pulumi/pulumi:3.259.0"}},
		"envRefs": map[string]any{
			"AWS_REGION":          map[string]any{"type": "Literal", "literal": map[string]any{"value": "eu-west-1"}},
			"PULUMI_ACCESS_TOKEN": map[string]any{"type": "Secret", "secret": map[string]any{"name": "pulumi-access-token", "key": "accessToken"}},
		},
		"gitAuth": map[string]any{"accessToken": map[string]any{"type": "Secret",
			"secret": map[string]any{"name": "program-git-token", "key": "accessToken"}}},
		"refresh": false, "resyncFrequencySeconds": float64(60), "continueResyncOnCommitMatch": true, "destroyOnFinalize": true,
	}
	if diff := cmp.Diff(want, spec); diff != "" {
		t.Errorf("dev's Stack spec (-want +got):\n%s", diff)
	}
}

// TestGitCredentials: one credential per repository and purpose, by its exact URL: the manifests token (which
// may push) for the manifests only, a read-only program token for a program repository of its own.
func TestGitCredentials(t *testing.T) {
	write, read := pulumi.String("ghp_write"), pulumi.String("ghp_read")
	type cred struct{ Name, RepoURL string }
	names := func(cs []GitCredential) []cred {
		var out []cred
		for _, c := range cs {
			out = append(out, cred{c.Name, c.RepoURL})
		}
		return out
	}
	a := WithDefaults(threeStages(), "fleet")
	a.Kargo.GitToken = write
	if got := names(GitCredentials(a)); !cmp.Equal(got, []cred{{"git-manifests", "https://github.com/acme/platform.git"}}) {
		t.Errorf("one repository: %v", got)
	}
	a.Program.RepoUrl = "https://github.com/acme/fleet-program.git"
	if got := names(GitCredentials(a)); !cmp.Equal(got, []cred{{"git-manifests", "https://github.com/acme/platform.git"}}) {
		t.Errorf("two repositories, no program token: the manifests token must not reach the program: %v", got)
	}
	a.Kargo.ProgramGitToken = read
	got := GitCredentials(a)
	want := []cred{{"git-manifests", "https://github.com/acme/platform.git"}, {"git-program", "https://github.com/acme/fleet-program.git"}}
	if !cmp.Equal(names(got), want) || got[0].Token != write || got[1].Token != read {
		t.Errorf("two repositories, two tokens: %v", got)
	}
}

// TestClaims: the approvers' claims annotation uses Kargo's claim names.
func TestClaims(t *testing.T) {
	got, err := Claims(Approvers{Groups: []string{"platform-leads"}, Emails: []string{"oncall@acme.dev"}})
	if err != nil || got != `{"email":["oncall@acme.dev"],"groups":["platform-leads"]}` {
		t.Errorf("Claims = %s, %v", got, err)
	}
}

// roundTrip is an object as its manifest reads back: the YAML a consumer parses.
func roundTrip(t *testing.T, object map[string]any) map[string]any {
	t.Helper()
	text, err := Manifest(object)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	mustYAML(t, text, &out)
	return out
}
