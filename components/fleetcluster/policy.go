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

// keyAdministratorActions are what the KMS default key policy lets key administrators do (AWS KMS Developer
// Guide, "Default key policy": "Allows key administrators to administer the KMS key"), CreateGrant included,
// which EKS needs from the principal that creates or updates an encrypted cluster.
var keyAdministratorActions = []string{"kms:Create*", "kms:Describe*", "kms:Enable*", "kms:List*", "kms:Put*",
	"kms:Update*", "kms:Revoke*", "kms:Disable*", "kms:Get*", "kms:Delete*", "kms:TagResource", "kms:UntagResource",
	"kms:ScheduleKeyDeletion", "kms:CancelKeyDeletion", "kms:RotateKeyOnDemand"}

// SecretsKeyPolicy is the explicit policy of the secrets encryption key: its administrators administer it, and
// the EKS cluster role encrypts and decrypts with it (the permissions terraform-aws-eks grants the cluster role:
// Encrypt, Decrypt, ListGrants, DescribeKey). No statement delegates to the account's IAM policies.
func SecretsKeyPolicy(administrators []string, clusterRoleArn string) iampolicy.Document {
	admins := iampolicy.Allow("KeyAdministrators", keyAdministratorActions, []string{"*"})
	admins.Principal = map[string]any{"AWS": administrators}
	use := iampolicy.Allow("ClusterUse", []string{"kms:Encrypt", "kms:Decrypt", "kms:ListGrants", "kms:DescribeKey"},
		[]string{"*"})
	use.Principal = map[string]any{"AWS": clusterRoleArn}
	return iampolicy.New(admins, use)
}
