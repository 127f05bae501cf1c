package addons

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// externalSecretsPolicies are external-secrets': the IAM policies of its AWS Secrets Manager and Parameter
// Store provider documents at v0.9.13 (the same from v0.9.0 to v0.11.x), scoped to a name prefix.
var externalSecretsPolicies = []Policy{{Versions: ">=0.9.0 <0.12.0", Inline: externalSecretsPolicy,
	Source: "external-secrets/external-secrets docs/provider/aws-secrets-manager.md and aws-parameter-store.md at v0.9.13, scoped to a name prefix"}}

// externalSecretsPolicy follows external-secrets' AWS provider documentation, scoped to secrets and
// parameters whose names start with the SecretsPrefix. Secrets encrypted with the AWS managed key need no
// KMS permission of the caller; for customer keys (KMSKeyArns) it adds kms:Decrypt of those keys, only
// through Secrets Manager or SSM in the region.
func externalSecretsPolicy(c PolicyContext) iampolicy.Document {
	statements := []iampolicy.Statement{
		iampolicy.Allow("ReadSecretsUnderPrefix", []string{"secretsmanager:GetResourcePolicy", "secretsmanager:GetSecretValue",
			"secretsmanager:DescribeSecret", "secretsmanager:ListSecretVersionIds"},
			[]string{c.regional("secretsmanager", "secret:"+c.SecretsPrefix+"*")}),
		iampolicy.Allow("ReadParametersUnderPrefix", []string{"ssm:GetParameter*"},
			[]string{c.regional("ssm", "parameter/"+trimSlash(c.SecretsPrefix)+"*")}),
	}
	if len(c.KMSKeyArns) > 0 {
		statements = append(statements, iampolicy.Allow("DecryptThroughSecretsServices", []string{"kms:Decrypt"}, c.KMSKeyArns).
			When("StringEquals", "kms:ViaService", []string{"secretsmanager." + c.Region + ".amazonaws.com", "ssm." + c.Region + ".amazonaws.com"}))
	}
	return iampolicy.New(statements...)
}

// trimSlash drops a leading "/": SSM parameter ARNs do not repeat the slash of a hierarchical name.
func trimSlash(s string) string {
	if len(s) > 0 && s[0] == '/' {
		return s[1:]
	}
	return s
}

// privateCAIssuerPolicies are aws-privateca-issuer's: the README's minimal policy, the same from v0.3.0 to
// v1.9.0.
var privateCAIssuerPolicies = []Policy{{Versions: ">=0.3.0 <1.10.0", Inline: privateCAIssuerPolicy,
	Source: "cert-manager/aws-privateca-issuer README.md at v1.2.7, scoped to the given CAs"}}

// privateCAIssuerPolicy follows aws-privateca-issuer's README: describe a CA, issue and fetch certificates,
// on the given certificate authorities only.
func privateCAIssuerPolicy(c PolicyContext) iampolicy.Document {
	return iampolicy.New(iampolicy.Allow("awspcaissuer", []string{"acm-pca:DescribeCertificateAuthority",
		"acm-pca:GetCertificate", "acm-pca:IssueCertificate"}, c.CertificateAuthorityArns))
}
