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

// IRSATrustPolicy lets Kubernetes service accounts of one namespace assume a role through the cluster's OIDC
// provider (EKS IAM roles for service accounts): the token's `sub` must name one of the service accounts and
// its `aud` must be STS. issuerURL may carry the https:// scheme; the condition keys use the issuer without it.
// One service account gives a single `sub` value; several (a CSI driver's controller and node) a list.
func IRSATrustPolicy(oidcProviderArn, issuerURL, namespace string, serviceAccounts ...string) iampolicy.Document {
	issuer := strings.TrimPrefix(issuerURL, "https://")
	subjects := make([]string, len(serviceAccounts))
	for i, sa := range serviceAccounts {
		subjects[i] = "system:serviceaccount:" + namespace + ":" + sa
	}
	var sub any = subjects
	if len(subjects) == 1 {
		sub = subjects[0]
	}
	return iampolicy.New(iampolicy.Trust(map[string]string{"Federated": oidcProviderArn}, "sts:AssumeRoleWithWebIdentity").
		When("StringEquals", issuer+":sub", sub).
		When("StringEquals", issuer+":aud", "sts.amazonaws.com"))
}
