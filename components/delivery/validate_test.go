package delivery

import (
	"errors"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// TestValidate: every rule reports the field's path and the allowed form, all problems at once, and a bad
// delivery registers nothing.
func TestValidate(t *testing.T) {
	cases := map[string]struct {
		edit func(*StackDeliveryArgs)
		want map[string]string // field -> part of its message
	}{
		"valid": {edit: func(*StackDeliveryArgs) {}},
		"stack name over 42": {
			edit: func(a *StackDeliveryArgs) { a.Project = "fleet-of-the-platform-team-in-europe-west" },
			want: map[string]string{"stages[0].stackName": `"fleet-of-the-platform-team-in-europe-west-dev" has 45`,
				"stages[1].stackName": "at most 42", "stages[2].stackName": "-prod-preview\" has 54"},
		},
		"preview Stack name over 42": {
			edit: func(a *StackDeliveryArgs) { a.Stages[2].StackName = "fleet-production-eu-central-1-stack" },
			want: map[string]string{"stages[2].stackName": `"fleet-production-eu-central-1-stack-preview" has 43`},
		},
		"stage names": {
			edit: func(a *StackDeliveryArgs) { a.Stages[0].Name = "Dev"; a.Stages[2].Name = "qa" },
			want: map[string]string{"stages[0].name": "not a Kargo Stage name", "stages[2].name": "also the name of stages[1]"},
		},
		"commit xor branch": {
			edit: func(a *StackDeliveryArgs) { a.Stages[0].Branch = "main"; a.Stages[1].Commit = "" },
			want: map[string]string{"stages[0].commit": "exactly one of commit and branch",
				"stages[1].commit": "exactly one of commit and branch"},
		},
		"short commit": {
			edit: func(a *StackDeliveryArgs) { a.Stages[0].Commit = "1a2b3c4" },
			want: map[string]string{"stages[0].commit": "40 lowercase hex digits"},
		},
		"a hub name that is no cluster secret's": {
			edit: func(a *StackDeliveryArgs) { a.HubName = "Hub_1" },
			want: map[string]string{"hubName": `"Hub_1" is not a cluster secret's name (a Kubernetes object name)`},
		},
		"resync below 60": {
			edit: func(a *StackDeliveryArgs) { a.Stages[1].ResyncFrequencySeconds = 30 },
			want: map[string]string{"stages[1].resyncFrequencySeconds": "minimum of 60 seconds"},
		},
		"envRefs of type Env and FS": {
			edit: func(a *StackDeliveryArgs) {
				a.EnvRefs = map[string]EnvRef{"AWS_REGION": {Type: "Env"}}
				a.Stages[0].EnvRefs = map[string]EnvRef{"TOKEN": {Type: "FS"}, "X": {Type: "Secret"}}
			},
			want: map[string]string{`envRefs["AWS_REGION"].type`: "Secret or Literal",
				`stages[0].envRefs["TOKEN"].type`: "Secret or Literal", `stages[0].envRefs["X"].secret`: "secret.name and secret.key"},
		},
		"a cycle": {
			edit: func(a *StackDeliveryArgs) { a.Stages[1].From = []string{"prod"} },
			want: map[string]string{"stages": "cycle"},
		},
		"no first stage": {
			edit: func(a *StackDeliveryArgs) { a.Stages[0].From = []string{"prod"} },
			want: map[string]string{"stages": "no stage takes Freight from the Warehouse"},
		},
		"unknown upstream": {
			edit: func(a *StackDeliveryArgs) { a.Stages[1].From = []string{"staging"} },
			want: map[string]string{"stages": `"staging", which is not a stage`},
		},
		"a gate with a Stack, an unknown kind, a strategy with one source": {
			edit: func(a *StackDeliveryArgs) {
				a.Stages[1].Kind = KindGate
				a.Stages[2].Kind, a.Stages[2].AvailabilityStrategy = "deploy", "All"
			},
			want: map[string]string{"stages[1].stack": "a gate deploys nothing", "stages[1].commit": "a gate deploys nothing",
				"stages[2].kind": `"preview" or "gate"`, "stages[2].availabilityStrategy": "two or more sources"},
		},
		"no stages": {
			edit: func(a *StackDeliveryArgs) { a.Stages = nil },
			want: map[string]string{"stages": "at least one stage"},
		},
		"kargo without its secrets": {
			edit: func(a *StackDeliveryArgs) { a.Kargo = &KargoInstall{} },
			want: map[string]string{"kargo.adminPasswordHash": "is required", "kargo.tokenSigningKey": "is required",
				"kargo.certManager": "needs cert-manager", "stages[1].approvers": "need kargo.oidc",
				"stages[2].approvers": "need kargo.oidc"},
		},
		"kargo existing needs nothing": {
			edit: func(a *StackDeliveryArgs) { a.Kargo = &KargoInstall{Existing: true} },
		},
		"a password, not its hash": {
			edit: func(a *StackDeliveryArgs) { a.Kargo.AdminPasswordHash = pulumi.String("hunter2") },
			want: map[string]string{"kargo.adminPasswordHash": "not a bcrypt hash"},
		},
		"preview needs PKO 2.3": {
			edit: func(a *StackDeliveryArgs) { a.Operator = &OperatorInstall{ChartVersion: "2.2.0"} },
			want: map[string]string{"operator.chartVersion": "PKO 2.3 or later"},
		},
		"repositories": {
			edit: func(a *StackDeliveryArgs) {
				a.Program.RepoUrl = "git@github.com:acme/platform.git"
				a.Program.RepoDir = "/examples/fleet"
				a.Program.Interval = "5 minutes"
				a.Manifests.Owner = "acme inc"
				a.Manifests.Path = "deploy/stacks/"
			},
			want: map[string]string{"program.repoUrl": "https Git URL", "program.repoDir": "relative path",
				"program.includePaths[0]": "relative path", "program.interval": "Kargo interval",
				"manifests.owner": "GitHub user", "manifests.path": "relative path"},
		},
		"manifests branches": {
			edit: func(a *StackDeliveryArgs) {
				a.Manifests.Branch, a.Manifests.PullRequestBranch = "release..1", "release..1"
			},
			want: map[string]string{"manifests.branch": "not a Git branch name",
				"manifests.pullRequestBranch": "is the base branch"},
		},
		"no hub": {
			edit: func(a *StackDeliveryArgs) { a.Kubeconfig = nil },
			want: map[string]string{"kubeconfig": "is required"},
		},
		"credentials in the program URL": {
			edit: func(a *StackDeliveryArgs) {
				a.Program.RepoUrl = "https://x-access-token:ghp_secret@github.com/acme/platform.git"
			},
			want: map[string]string{"program.repoUrl": "holds credentials"},
		},
		"cluster-admin without allowClusterAdmin": {
			edit: func(a *StackDeliveryArgs) { a.Stages[2].ClusterRoles = []string{"view", "cluster-admin"} },
			want: map[string]string{"stages[2].clusterRoles": "allowClusterAdmin"},
		},
		"edit without allowClusterAdmin": {
			edit: func(a *StackDeliveryArgs) { a.Stages[2].ClusterRoles = []string{"edit"} },
			want: map[string]string{"stages[2].clusterRoles": "names edit, bound cluster-wide"},
		},
		"admin without allowClusterAdmin": {
			edit: func(a *StackDeliveryArgs) { a.Stages[2].ClusterRoles = []string{"admin"} },
			want: map[string]string{"stages[2].clusterRoles": "names admin, bound cluster-wide"},
		},
		"cluster-admin allowed on purpose": {
			edit: func(a *StackDeliveryArgs) {
				a.Stages[2].ClusterRoles, a.Stages[2].AllowClusterAdmin = []string{"cluster-admin"}, true
			},
		},
		"two stages in one namespace, a preview as the deploy identity": {
			edit: func(a *StackDeliveryArgs) {
				a.Stages[0].Namespace, a.Stages[1].Namespace = "stacks", "stacks"
				a.Stages[2].PreviewServiceAccountName = "fleet-prod"
			},
			want: map[string]string{"stages[1].namespace": "namespace of stage \"dev\"",
				"stages[2].previewServiceAccountName": "deploy ServiceAccount"},
		},
		"OIDC": {
			edit: func(a *StackDeliveryArgs) { a.Kargo.Oidc = &KargoOidc{IssuerUrl: "http://idp"} },
			want: map[string]string{"kargo.oidc.issuerUrl": "https issuer", "kargo.oidc.clientId": "is required"},
		},
		"a program token for the manifests' own repository": {
			edit: func(a *StackDeliveryArgs) { a.Kargo.ProgramGitToken = pulumi.String("ghp_read") },
			want: map[string]string{"kargo.programGitToken": "one credential per repository"},
		},
		"branch protection needs pull requests everywhere": {
			edit: func(a *StackDeliveryArgs) {
				a.Manifests.BranchProtection = &gitopsbridge.BranchProtection{RequiredApprovals: 7}
				a.Manifests.PullRequest = false
				a.Manifests.SignatureKeys = []string{"ABCDEF"}
			},
			want: map[string]string{"manifests.branchProtection.requiredApprovals": "1-6",
				"manifests.pullRequest": "protected branch", "stages[0].pullRequest": "protected branch",
				"stages[1].pullRequest": "protected branch", "manifests.signatureKeys[0]": "GPG key ID"},
		},
		"a stage branch prefix that is no branch name": {
			edit: func(a *StackDeliveryArgs) { a.Manifests.StageBranchPrefix = "stage:" },
			want: map[string]string{"manifests.stageBranchPrefix": "not a Git branch name"},
		},
		"a stage whose branch is the manifests branch": {
			edit: func(a *StackDeliveryArgs) {
				a.Manifests.StageBranchPrefix, a.Manifests.Branch = "release-", "release-dev"
			},
			want: map[string]string{"stages[0].name": "also the manifests' branch"},
		},
		"preview stages without a target, of a gate, of a stage with its own preview, on another stack": {
			edit: func(a *StackDeliveryArgs) {
				a.Stages = append(a.Stages,
					DeliveryStage{Name: "p1", Kind: KindPreview},
					DeliveryStage{Name: "gate", Kind: KindGate, From: []string{"prod"}},
					DeliveryStage{Name: "p2", Kind: KindPreview, Target: "gate", From: []string{"prod"}},
					DeliveryStage{Name: "p3", Kind: KindPreview, Target: "prod", Stack: "acme/fleet/other", From: []string{"prod"}})
				a.Stages[0].Target = "prod"
			},
			want: map[string]string{"stages[3].target": "required for a preview stage", "stages[5].target": `"gate" is not an update stage`,
				"stages[2].preview": `"p3" previews "prod" already`, "stages[6].stack": `is not the target's "acme/fleet/prod"`,
				"stages[0].target": "only for kind preview", "stages[6].stackName": `"fleet-prod-preview" is also a Stack of stage "prod"`},
		},
		"verification: an unknown provider, a short timeout, pulumiCloud with a self-managed backend and no token, a gate's": {
			edit: func(a *StackDeliveryArgs) {
				a.Backend, a.PulumiAccessToken = "s3://acme-state", nil
				a.Stages[0].Verification = &Verification{Provider: "datadog", TimeoutSeconds: 10}
				a.Stages[1].Verification = &Verification{Provider: VerifyPulumiCloud}
				a.Stages = append(a.Stages, DeliveryStage{Name: "gate", Kind: KindGate,
					Verification: &Verification{Provider: VerifyStackStatus}})
			},
			want: map[string]string{"stages[0].verification.provider": `"datadog" is not a verification provider`,
				"stages[0].verification.timeoutSeconds": "10 is not between 60 and 86400",
				"stages[1].verification.provider":       "backend is \"s3://acme-state\"; verify a self-managed backend with stackStatus",
				"stages[3].verification":                "a gate deploys nothing"},
		},
		"a preview Stack without a token of its own, and a gate's previewEnvRefs": {
			edit: func(a *StackDeliveryArgs) {
				a.PreviewAccessToken = nil
				a.PreviewEnvRefs = map[string]EnvRef{"X": {Type: "Env"}}
				a.Stages = append(a.Stages, DeliveryStage{Name: "gate", Kind: KindGate,
					PreviewEnvRefs: map[string]EnvRef{"Y": {Type: "Literal", Literal: &EnvLiteral{Value: "y"}}}})
			},
			want: map[string]string{"stages[2].previewAccessToken": "never receive pulumiAccessToken",
				`previewEnvRefs["X"].type`: `"Env" is not allowed`, "stages[3].previewEnvRefs": "a gate deploys nothing"},
		},
		"stack": {
			edit: func(a *StackDeliveryArgs) { a.Stages[0].Stack = "acme/fleet/dev/extra" },
			want: map[string]string{"stages[0].stack": "not a Pulumi stack"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a := threeStages()
			tc.edit(&a)
			cloud, _, err := run("fleet", a)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("valid delivery refused: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error %v is not a *ValidationError", err)
			}
			got := map[string]string{}
			for _, p := range ve.Problems {
				got[p.Field] += p.Message + "; "
			}
			for field, part := range tc.want {
				if !strings.Contains(got[field], part) {
					t.Errorf("%s: %q does not say %q (all: %v)", field, got[field], part, got)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("problems at %d fields, want %d: %v", len(got), len(tc.want), got)
			}
			if n := len(cloud.Resources()); n != 0 {
				t.Errorf("%d resources registered for a bad delivery", n)
			}
		})
	}
}
