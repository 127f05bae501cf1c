package offline

import (
	"net/http"

	awssdk "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// EKSAPI is an EKS client of region as a program on this machine reaches EKS (through the offline network's proxy,
// trusting its CA), signing as the deployer: what `fleet status` and `fleet rollout` ask, in process.
func (e *Env) EKSAPI(region string) *eks.Client {
	client := &http.Client{Transport: e.net.Transport()}
	return eks.NewFromConfig(awssdk.Config{Region: region, HTTPClient: client,
		Credentials: credentials.NewStaticCredentialsProvider(aws.DeployerAccessKeyID, aws.DeployerSecretAccessKey, "")})
}
