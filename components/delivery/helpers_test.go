package delivery

import (
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const (
	hubKubeconfig = `{"apiVersion":"v1","kind":"Config","clusters":[{"name":"hub"}]}`
	commitA       = "1111111111111111111111111111111111111111"
	commitB       = "2222222222222222222222222222222222222222"
	passwordHash  = "$2a$10$Zrhhie4vLz5ygtVSaif6o.qN36jgs6vjtMBdM6yrU1FOeiAAMMxOm"
)

// threeStages is the delivery of the fleet program through dev, qa and prod: dev promotes automatically, qa and
// prod are gates (prod's through a pull request), prod has a preview Stack.
func threeStages() StackDeliveryArgs {
	return StackDeliveryArgs{
		Kubeconfig:         pulumi.String(hubKubeconfig),
		Project:            "fleet",
		Program:            ProgramRepository{RepoUrl: "https://github.com/acme/platform.git", RepoDir: "examples/fleet"},
		Manifests:          ManifestsRepository{Owner: "acme", Repository: "platform", Path: "deploy/stacks", PullRequest: true},
		PulumiAccessToken:  pulumi.String("pul-canary"),
		PreviewAccessToken: pulumi.String("pul-preview-canary"),
		Stages: []DeliveryStage{
			{Name: "dev", Stack: "acme/fleet/dev", Commit: commitA},
			{Name: "qa", Stack: "acme/fleet/qa", Commit: commitA, Approvers: &Approvers{Groups: []string{"platform"}}},
			{Name: "prod", Stack: "acme/fleet/prod", Commit: commitA, PullRequest: true, Preview: true,
				Approvers: &Approvers{Groups: []string{"platform-leads"}, Emails: []string{"oncall@acme.dev"}}},
		},
		Kargo: &KargoInstall{AdminPasswordHash: pulumi.String(passwordHash), TokenSigningKey: pulumi.String("signing-canary"),
			CertManager: CertManagerInstall, GitToken: pulumi.String("ghp_kargo_canary"),
			Oidc: &KargoOidc{IssuerUrl: "https://idp.acme.dev", ClientId: "kargo"}},
	}
}

// run runs one StackDelivery under mocks and returns the cloud, the component and the program's error.
func run(name string, args StackDeliveryArgs) (*mocks.Cloud, *StackDelivery, error) {
	cloud := mocks.New()
	var d *StackDelivery
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		d, err = NewStackDelivery(ctx, name, args)
		return err
	})
	return cloud, d, err
}

// nameOf is the metadata.name of a Kubernetes object's inputs, a Helm release's name, else its resource name.
func nameOf(r mocks.Resource) string {
	if md, ok := r.Input("metadata").(map[string]any); ok {
		if n, ok := md["name"].(string); ok {
			return n
		}
	}
	if n, ok := r.Input("name").(string); ok {
		return n
	}
	return r.Name
}

// kindOf is the short kind of a registration: its type's last part.
func kindOf(r mocks.Resource) string {
	return r.Type[strings.LastIndex(r.Type, ":")+1:]
}
