package gitopsbridge

import "encoding/json"

// InClusterServer is the API server address Argo CD uses for the cluster it runs in.
const InClusterServer = "https://kubernetes.default.svc"

// ClusterConfig is the `config` field of an Argo CD cluster secret. It never carries a bearer token,
// password or client key: a spoke is reached by assuming an IAM role (awsAuthConfig).
type ClusterConfig struct {
	AWSAuthConfig   *AWSAuthConfig  `json:"awsAuthConfig,omitempty"`
	TLSClientConfig TLSClientConfig `json:"tlsClientConfig"`
}

// AWSAuthConfig makes Argo CD authenticate to an EKS cluster with a token for the role it assumes.
type AWSAuthConfig struct {
	ClusterName string `json:"clusterName"`
	RoleARN     string `json:"roleARN"`
}

// TLSClientConfig is how Argo CD verifies the API server: never insecure; caData is base64 PEM.
type TLSClientConfig struct {
	Insecure bool   `json:"insecure"`
	CAData   string `json:"caData,omitempty"`
}

// SpokeConfig is the config of a spoke reached from the hub through roleArn:
// {"awsAuthConfig":{"clusterName":...,"roleARN":...},"tlsClientConfig":{"insecure":false,"caData":...}}.
func SpokeConfig(clusterName, roleArn, caData string) string {
	return ClusterConfig{
		AWSAuthConfig:   &AWSAuthConfig{ClusterName: clusterName, RoleARN: roleArn},
		TLSClientConfig: TLSClientConfig{CAData: caData},
	}.JSON()
}

// InClusterConfig is the config of the hub's own cluster: Argo CD's service account, TLS verified.
func InClusterConfig() string {
	return ClusterConfig{}.JSON()
}

// JSON renders the config with fields in declaration order.
func (c ClusterConfig) JSON() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings and bools only: cannot fail
	}
	return string(b)
}
