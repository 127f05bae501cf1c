package gitopsbridge

import "testing"

func TestClusterSecretYAML(t *testing.T) {
	s := ClusterSecret{
		Name: "spoke1", Namespace: "argocd", ClusterName: "spoke1",
		Labels:      map[string]string{SecretTypeLabel: "cluster", "environment": "dev", "enable_cert_manager": "true"},
		Annotations: map[string]string{"aws_region": "us-west-2", "aws_cluster_name": "spoke1"},
		Server:      "https://ABC.gr7.us-west-2.eks.amazonaws.com",
		Config:      `{"tlsClientConfig":{"insecure":false}}`,
	}
	want := `apiVersion: v1
kind: Secret
metadata:
  annotations:
    aws_cluster_name: spoke1
    aws_region: us-west-2
  labels:
    argocd.argoproj.io/secret-type: cluster
    enable_cert_manager: "true"
    environment: dev
  name: spoke1
  namespace: argocd
stringData:
  config: '{"tlsClientConfig":{"insecure":false}}'
  name: spoke1
  server: https://ABC.gr7.us-west-2.eks.amazonaws.com
type: Opaque
`
	for i := range 5 {
		if got := s.YAML(); got != want {
			t.Fatalf("render %d:\n got:\n%s\nwant:\n%s", i, got, want)
		}
	}
}
