package capability

import "github.com/gitops-fleet/pulumi-fleet/components/iampolicy"

// TrustPolicy is the trust policy of a capability's role (roleArn), as the EKS User Guide gives it
// (iampolicy.CapabilityTrust). An Argo CD capability needs no permission policy for Git repositories it reads
// over HTTPS or SSH ("No IAM permissions required by default"); AWS documents optional ones for Secrets Manager,
// CodeConnections and ECR, which a role only gets when asked for.
func TrustPolicy() iampolicy.Document {
	st := iampolicy.CapabilityTrust()
	st.Sid = "AllowEksCapabilitiesToAssumeRole"
	return iampolicy.New(st)
}
