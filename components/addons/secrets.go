package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// externalSecretsPolicy follows external-secrets' AWS provider documentation, scoped to secrets and
// parameters whose names start with the SecretsPrefix: reads of those, listing (which IAM cannot scope), and
// kms:Decrypt of customer keys only through Secrets Manager or SSM in the region (or only of KMSKeyArns when
// given).
func externalSecretsPolicy(c PolicyContext) iampolicy.Document {
	decrypt := iampolicy.Allow("DecryptThroughSecretsServices", []string{"kms:Decrypt"}, []string{c.regional("kms", "key/*")}).
		When("StringEquals", "kms:ViaService", []string{"secretsmanager." + c.Region + ".amazonaws.com", "ssm." + c.Region + ".amazonaws.com"})
	if len(c.KMSKeyArns) > 0 {
		decrypt.Resource = c.KMSKeyArns
	}
	return iampolicy.New(
		iampolicy.Allow("ReadSecretsUnderPrefix", []string{"secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret",
			"secretsmanager:ListSecretVersionIds", "secretsmanager:GetResourcePolicy"},
			[]string{c.regional("secretsmanager", "secret:"+c.SecretsPrefix+"*")}),
		iampolicy.Allow("ListSecrets", []string{"secretsmanager:ListSecrets", "secretsmanager:BatchGetSecretValue",
			"ssm:DescribeParameters"}, []string{"*"}),
		iampolicy.Allow("ReadParametersUnderPrefix", []string{"ssm:GetParameter", "ssm:GetParameters", "ssm:GetParametersByPath"},
			[]string{c.regional("ssm", "parameter/"+trimSlash(c.SecretsPrefix)+"*")}),
		decrypt,
	)
}

// trimSlash drops a leading "/": SSM parameter ARNs do not repeat the slash of a hierarchical name.
func trimSlash(s string) string {
	if len(s) > 0 && s[0] == '/' {
		return s[1:]
	}
	return s
}

// privateCAIssuerPolicy follows aws-privateca-issuer's README: describe a CA, issue and fetch certificates,
// on the given certificate authorities only.
func privateCAIssuerPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(iampolicy.Allow("IssueFromGivenCAs", []string{"acm-pca:DescribeCertificateAuthority",
		"acm-pca:GetCertificate", "acm-pca:IssueCertificate"}, c.CertificateAuthorityArns))
}
