package fleetcluster

import (
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// NodeTrustPolicy lets EC2 instances assume the node role.
func NodeTrustPolicy() iampolicy.Document {
	return iampolicy.New(iampolicy.Trust(map[string]string{"Service": "ec2.amazonaws.com"}, "sts:AssumeRole"))
}

// SpokeTrustPolicy lets the Argo CD hub's management role assume a spoke role. sts:TagSession lets the hub
// pass session tags (EKS Pod Identity always tags sessions).
func SpokeTrustPolicy(hubRoleArn string) iampolicy.Document {
	return iampolicy.New(iampolicy.Trust(map[string]string{"AWS": hubRoleArn}, "sts:AssumeRole", "sts:TagSession"))
}

// IRSATrustPolicy lets one Kubernetes service account assume a role through the cluster's OIDC provider
// (EKS IAM roles for service accounts): the token's `sub` must name the service account and its `aud` must be
// STS. issuerURL may carry the https:// scheme; the condition keys use the issuer without it.
func IRSATrustPolicy(oidcProviderArn, issuerURL, namespace, serviceAccount string) iampolicy.Document {
	issuer := strings.TrimPrefix(issuerURL, "https://")
	return iampolicy.New(iampolicy.Trust(map[string]string{"Federated": oidcProviderArn}, "sts:AssumeRoleWithWebIdentity").
		When("StringEquals", issuer+":sub", "system:serviceaccount:"+namespace+":"+serviceAccount).
		When("StringEquals", issuer+":aud", "sts.amazonaws.com"))
}
