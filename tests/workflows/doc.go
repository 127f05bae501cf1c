// Package workflows checks the fleet's push pipeline, the GitHub Actions workflows in
// examples/fleet/.github/workflows: actionlint (github.com/rhysd/actionlint, run as a library and as this
// module's tool) finds no problem in them, and each does what the pipeline promises (preview per stack on a pull
// request with the diff as a comment; up of dev on merge, prod after the production environment's approval; a
// scheduled refresh-preview per stack that fails on drift and reports it; an add-ons commit's and a Kubernetes
// version's rollout, dev's waves then prod's, each stack file committed back). Its own module keeps actionlint's
// dependencies away from the product and the CLI's.
package workflows
