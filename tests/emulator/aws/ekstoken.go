package aws

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"sigs.k8s.io/aws-iam-authenticator/pkg/token"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// TokenPrefix starts an EKS bearer token: "k8s-aws-v1." and a base64url presigned sts:GetCallerIdentity URL.
const TokenPrefix = "k8s-aws-v1."

// CheckToken follows what EKS checks of a bearer token (an Authorization header) before asking STS: the prefix,
// then a presigned sts:GetCallerIdentity URL on an STS host that signs the x-k8s-aws-id header (the cluster's
// name). STS's own signature check is not emulated.
func CheckToken(header string) error {
	tok, ok := strings.CutPrefix(header, "Bearer "+TokenPrefix)
	if !ok {
		return fmt.Errorf("want an EKS token (Bearer %s...)", TokenPrefix)
	}
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return fmt.Errorf("token is not base64url: %v", err)
	}
	u, err := url.Parse(string(raw))
	if err != nil {
		return err
	}
	q := u.Query()
	switch {
	case u.Scheme != "https" || !strings.HasPrefix(u.Host, "sts.") || !strings.HasSuffix(u.Host, ".amazonaws.com"):
		return fmt.Errorf("token's URL %s is not an STS endpoint", u.Host)
	case q.Get("Action") != "GetCallerIdentity":
		return fmt.Errorf("token's action %q is not GetCallerIdentity", q.Get("Action"))
	case !strings.Contains(strings.ToLower(q.Get("X-Amz-SignedHeaders")), "x-k8s-aws-id"):
		return fmt.Errorf("token does not sign the x-k8s-aws-id header")
	case q.Get("X-Amz-Credential") == "" || q.Get("X-Amz-Signature") == "":
		return fmt.Errorf("token is not presigned")
	}
	return nil
}

// ClusterAt is the name and region of the emulated EKS cluster whose endpoint is endpoint ("" for none).
func ClusterAt(s *emulator.Store, endpoint string) (name, region string, err error) {
	recs, err := s.List()
	if err != nil {
		return "", "", err
	}
	for _, r := range recs {
		if r.Type != EKSClusterType {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			return "", "", err
		}
		if state["endpoint"] == endpoint {
			name, _ := state["name"].(string)
			return name, r.Scope, nil
		}
	}
	return "", "", nil
}

// Token is an EKS bearer token ("k8s-aws-v1." and the presigned URL) for cluster, signed with creds by
// aws-iam-authenticator's token package as `aws eks get-token` makes it, on region's STS endpoint.
func Token(creds Credentials, region, cluster string) (string, error) {
	client := sts.New(sts.Options{Region: region,
		Credentials: credentials.NewStaticCredentialsProvider(creds.AccessKeyID, creds.SecretAccessKey, creds.SessionToken)})
	gen, err := token.NewGenerator(false, false)
	if err != nil {
		return "", err
	}
	tok, err := gen.GetWithSTS(cluster, client)
	if err != nil {
		return "", err
	}
	return tok.Token, nil
}
