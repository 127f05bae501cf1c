// Package github emulates the GitHub API behind pulumi-github for Git delivery of cluster secrets: files
// committed to a branch, branches, and pull requests (numbered 1, 2, ... per repository). Everything lives
// under the provider's owner.
package github
