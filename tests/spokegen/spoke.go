package spokegen

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

// Addons are a production spoke's add-ons: the fleet example's and the ones platform teams add first.
var Addons = []string{"aws_load_balancer_controller", "aws_ebs_csi_driver", "aws_for_fluentbit",
	"metrics_server", "karpenter", "external_dns", "external_secrets", "cert_manager", "velero",
	"kube_prometheus_stack"}

// CA is a certificate authority of EKS's shape (RSA 2048, PEM, base64 as the cluster's
// certificateAuthority.data gives it), made once.
var CA = sync.OnceValue(func() string {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kubernetes"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(0, 0).Add(10 * 365 * 24 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
})

// Spoke is the cluster secret GitOpsBridge writes for spoke i of a production fleet: Addons
// enabled with every key their ApplicationSets read (role ARNs, namespaces, service accounts), the cluster keys,
// the add-ons repository's keys, an EKS endpoint and CA, and the spoke role's awsAuthConfig.
func Spoke(i int) gitopsbridge.ClusterSecret {
	name := fmt.Sprintf("spoke-%03d-use2", i)
	enabled := map[string]bool{}
	keys := map[string]string{}
	for _, n := range Addons {
		enabled[n] = true
		a, ok := addons.Lookup(n)
		if !ok {
			panic("no add-on " + n)
		}
		for _, k := range a.Keys() {
			switch {
			case strings.HasSuffix(k, addons.IAMRoleArnSuffix):
				keys[k] = "arn:aws:iam::111122223333:role/gitops-fleet/addons/" + name + "-" + n
			case strings.HasSuffix(k, addons.NamespaceSuffix):
				keys[k] = strings.ReplaceAll(n, "_", "-")
			default:
				keys[k] = name + "-" + strings.ReplaceAll(n, "_", "-")
			}
		}
	}
	md := fleetcluster.GitOpsMetadata(fleetcluster.ClusterFacts{ClusterName: name, Region: "us-east-2",
		AccountID: "111122223333", VpcID: "vpc-0a1b2c3d4e5f67890", KubernetesVersion: "1.33", Environment: "prod"}, keys)
	return gitopsbridge.ClusterSecret{Name: name, Namespace: gitopsbridge.DefaultNamespace, ClusterName: name,
		Labels: gitopsbridge.Labels(name, "prod", "1.33", gitopsbridge.ProductionWave, enabled, md),
		Annotations: gitopsbridge.Annotations(md, nil, &gitopsbridge.Repo{
			URL:  "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
			Path: "bootstrap/control-plane/addons", Revision: "e6d355197ff3af8e6be09e1dea068dc12727a915"}, nil),
		Server: fmt.Sprintf("https://%032X.gr7.us-east-2.eks.amazonaws.com", i),
		Config: gitopsbridge.SpokeConfig(name, "arn:aws:iam::111122223333:role/gitops-fleet/spoke/"+name+"-gitops", CA())}
}
