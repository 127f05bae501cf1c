package offline

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/url"
	"os"

	awssdk "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eks"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// EKSAPI is an EKS client of region as a program on this machine reaches EKS (through the offline network's proxy,
// trusting its CA), signing as the deployer: what `fleet status` and `fleet rollout` ask, in process.
func (e *Env) EKSAPI(region string) (*eks.Client, error) {
	proxy, err := url.Parse(e.net.ProxyURL)
	if err != nil {
		return nil, err
	}
	ca, err := os.ReadFile(e.net.CAFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, fmt.Errorf("no certificate in %s", e.net.CAFile)
	}
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy),
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	return eks.NewFromConfig(awssdk.Config{Region: region, HTTPClient: client,
		Credentials: credentials.NewStaticCredentialsProvider(aws.DeployerAccessKeyID, aws.DeployerSecretAccessKey, "")}), nil
}
