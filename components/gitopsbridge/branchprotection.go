package gitopsbridge

import (
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// BranchProtection protects the branch a GitOps path reads (GitHub branch protection): changes land only
// through pull requests with approving reviews, the rule binds administrators too, and nobody force-pushes or
// deletes the branch. So a token that can push to the repository (Kargo's, a CI job's) cannot write the branch
// Argo CD syncs past the review.
type BranchProtection struct {
	// RequiredApprovals is the number of approving reviews a pull request needs, 1-6 (GitHub's range).
	// Default: 1.
	RequiredApprovals int `pulumi:"requiredApprovals,optional"`
	// RequireSignedCommits refuses commits without a verified signature. Default: false.
	RequireSignedCommits bool `pulumi:"requireSignedCommits,optional"`
	// RequireCodeOwnerReviews needs the approval of a code owner of the changed files. Default: false.
	RequireCodeOwnerReviews bool `pulumi:"requireCodeOwnerReviews,optional"`
}

// DefaultRequiredApprovals is BranchProtection.RequiredApprovals' default.
const DefaultRequiredApprovals = 1

// Validate reports an approval count outside GitHub's 1-6 at field.requiredApprovals (0 means the default).
func (p BranchProtection) Validate(ps *problems.List, field string) {
	if p.RequiredApprovals < 0 || p.RequiredApprovals > 6 {
		ps.Add(field+".requiredApprovals", "%d is outside GitHub's range of 1-6 approving reviews", p.RequiredApprovals)
	}
}

// Protect creates the github.BranchProtection of branch in repository (named name), through opts' provider.
func (p BranchProtection) Protect(ctx *pulumi.Context, name, repository, branch string, opts ...pulumi.ResourceOption,
) (*github.BranchProtection, error) {
	approvals := p.RequiredApprovals
	if approvals == 0 {
		approvals = DefaultRequiredApprovals
	}
	return github.NewBranchProtection(ctx, name, &github.BranchProtectionArgs{
		RepositoryId:         pulumi.String(repository),
		Pattern:              pulumi.String(branch),
		EnforceAdmins:        pulumi.Bool(true),
		AllowsForcePushes:    pulumi.Bool(false),
		AllowsDeletions:      pulumi.Bool(false),
		RequireSignedCommits: pulumi.Bool(p.RequireSignedCommits),
		RequiredPullRequestReviews: github.BranchProtectionRequiredPullRequestReviewArray{
			github.BranchProtectionRequiredPullRequestReviewArgs{
				RequiredApprovingReviewCount: pulumi.Int(approvals),
				DismissStaleReviews:          pulumi.Bool(true),
				RequireCodeOwnerReviews:      pulumi.Bool(p.RequireCodeOwnerReviews),
			},
		},
	}, opts...)
}
