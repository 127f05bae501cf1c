// Package argocdhub runs Argo CD on an offline hub as host processes: the application controller, the
// ApplicationSet controller and the repo server of `make argocd` (tests/tools/argocd), with Redis from Debian's
// redis-server, each started as the hub's Argo CD chart starts its pod: the command, arguments and environment of
// the chart's workload as the hub's API server holds it (config maps and secrets resolved), authenticated as the
// pod's service account (a token from the TokenRequest API, no static credential), and given the AWS credentials
// EKS Pod Identity gives that service account (aws.PodIdentityAgent). The controllers reach the spokes as Argo CD
// does in a pod: through the cluster secrets' awsAuthConfig (argocd-k8s-auth against the offline STS), over the
// offline network.
//
// What differs from a pod, and why: the processes listen on free loopback ports instead of the chart's container
// ports (many hubs share one machine), the container paths of the environment (/app/config/..., /tmp,
// /helm-working-dir) are folders under the run's directory, and the components find each other (Redis, the repo
// server) at those ports instead of through their Services.
package argocdhub
