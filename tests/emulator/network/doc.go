// Package network is the offline stand-in for the AWS endpoints pulumi-eks dials itself: the EKS API server's
// /healthz (polled after a cluster is created) and the OIDC issuer (whose CA thumbprint goes into the IAM OIDC
// provider). It is an HTTP CONNECT proxy on 127.0.0.1 that tunnels every *.amazonaws.com host to one local TLS
// server; that server mints a certificate for each host name, signed by a CA made for the run, and answers 200.
//
// Plugins find it through the standard proxy variables (HTTPS_PROXY, NO_PROXY for loopback so gRPC between the
// engine and plugins stays direct) and trust its CA through NODE_EXTRA_CA_CERTS; see Network.Env.
package network
