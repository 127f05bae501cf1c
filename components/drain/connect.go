package drain

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/resourcegroupstaggingapi"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
	"golang.org/x/oauth2"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/transport"
	"sigs.k8s.io/aws-iam-authenticator/pkg/token"
)

// drainer is the Drainer of the recorded cluster: its API (KubeConfig's) and the Resource Groups Tagging API of
// its region, both with one AWS configuration (awsconfig.Load: the ambient credentials, through assumeRoleArn when
// set, so a role is assumed once for both).
func (a ClusterDrainArgs) drainer(ctx context.Context) (Drainer, error) {
	cfg, err := awsconfig.Load(ctx, a.Region, a.AssumeRoleArn)
	if err != nil {
		return Drainer{}, fmt.Errorf("draining cluster %q: %w", a.ClusterName, err)
	}
	rc, err := kubeConfig(a.ClusterName, a.Endpoint, a.CertificateAuthorityData, cfg)
	if err != nil {
		return Drainer{}, fmt.Errorf("draining cluster %q: %w", a.ClusterName, err)
	}
	kube, err := dynamic.NewForConfig(rc)
	if err != nil {
		return Drainer{}, fmt.Errorf("draining cluster %q: %w", a.ClusterName, err)
	}
	tagging := Tagging{Client: resourcegroupstaggingapi.NewFromConfig(cfg)}
	return Drainer{Cluster: a.ClusterName, Kube: kube, AWS: tagging, Settings: a.Settings()}, nil
}

// KubeClient is client-go's dynamic client for an EKS cluster's API at endpoint (KubeConfig's).
func KubeClient(cluster, region, endpoint, caData, role string) (dynamic.Interface, error) {
	cfg, err := KubeConfig(cluster, region, endpoint, caData, role)
	if err != nil {
		return nil, err
	}
	return dynamic.NewForConfig(cfg)
}

// KubeConfig is client-go's configuration for an EKS cluster's API at endpoint, trusting its CA (base64 PEM, EKS's
// certificateAuthority.data), with the bearer token `aws eks get-token` makes (aws-iam-authenticator's token
// package, renewed before it expires), signed with the ambient credentials in region (awsconfig.Load), through role
// when set; requests time out after a minute.
func KubeConfig(cluster, region, endpoint, caData, role string) (*rest.Config, error) {
	cfg, err := awsconfig.Load(context.Background(), region, role)
	if err != nil {
		return nil, err
	}
	return kubeConfig(cluster, endpoint, caData, cfg)
}

// kubeConfig is KubeConfig with its tokens signed through the AWS configuration cfg.
func kubeConfig(cluster, endpoint, caData string, cfg aws.Config) (*rest.Config, error) {
	ca, err := base64.StdEncoding.DecodeString(caData)
	if err != nil {
		return nil, fmt.Errorf("certificateAuthorityData is not base64: %w", err)
	}
	gen, err := token.NewGenerator(false, false)
	if err != nil {
		return nil, err
	}
	tokens := oauth2.ReuseTokenSource(nil, eksTokens{gen: gen, cluster: cluster, sts: sts.NewFromConfig(cfg)})
	return &rest.Config{
		Host:            endpoint,
		TLSClientConfig: rest.TLSClientConfig{CAData: ca},
		WrapTransport:   transport.TokenSourceWrapTransport(tokens),
		Timeout:         time.Minute,
		UserAgent:       "pulumi-fleet",
	}, nil
}

// newTagging is the Resource Groups Tagging API of region, with the ambient credentials, through role when set.
func newTagging(ctx context.Context, region, role string) (Tagging, error) {
	cfg, err := awsconfig.Load(ctx, region, role)
	if err != nil {
		return Tagging{}, err
	}
	return Tagging{Client: resourcegroupstaggingapi.NewFromConfig(cfg)}, nil
}

// eksTokens are bearer tokens for the EKS API of cluster, as `aws eks get-token` makes them, presigned with sts's
// credentials on its region's endpoint.
type eksTokens struct {
	gen     token.Generator
	cluster string
	sts     *sts.Client
}

// Token makes a token (a presigned sts:GetCallerIdentity URL naming the cluster), valid until its expiry.
func (t eksTokens) Token() (*oauth2.Token, error) {
	tok, err := t.gen.GetWithSTS(t.cluster, t.sts)
	if err != nil {
		return nil, fmt.Errorf("EKS token for cluster %q: %w", t.cluster, err)
	}
	return &oauth2.Token{AccessToken: tok.Token, TokenType: "Bearer", Expiry: tok.Expiration}, nil
}
