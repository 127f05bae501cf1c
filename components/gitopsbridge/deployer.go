package gitopsbridge

import (
	"github.com/gitops-fleet/pulumi-fleet/components/admission"

	"regexp"
)

// SessionNameTemplate is EKS's placeholder for the session name in an assumed role's username (an access entry's
// default username for an IAM role: arn:aws:sts::<account>:assumed-role/<role>/{{SessionName}}).
const SessionNameTemplate = admission.SessionNameTemplate

// assumedRoleARN is an assumed role session's ARN, as sts:GetCallerIdentity answers for a role.
var assumedRoleARN = regexp.MustCompile(`^(arn:[a-z-]+:sts::\d{12}:assumed-role/[^/]+/)[^/]+$`)

// DeployerUsername is the Kubernetes username EKS gives callerArn (sts:GetCallerIdentity's Arn of the stack's AWS
// credentials, which the hub's kubeconfig authenticates with through `aws eks get-token`): an assumed role's
// session as the role with any session (arn:aws:sts::<account>:assumed-role/<role>/{{SessionName}}, EKS's default
// username for a role's access entry, the cluster creator's included), an IAM user as its ARN. Source: EKS User
// Guide, "Create access entries" (the default username).
func DeployerUsername(callerArn string) string {
	if m := assumedRoleARN.FindStringSubmatch(callerArn); m != nil {
		return m[1] + SessionNameTemplate
	}
	return callerArn
}
