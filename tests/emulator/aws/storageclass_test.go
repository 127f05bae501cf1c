package aws

import "testing"

// TestEKSStorageClass: EKS's gp2 class is the default one before Kubernetes 1.30 only.
func TestEKSStorageClass(t *testing.T) {
	for version, want := range map[string]string{"1.29": "true", "1.30": "", "1.33": "", "1.31.2": ""} {
		sc := eksStorageClass(version)
		if got := sc.Annotations[defaultClassAnnotation]; got != want || sc.Name != "gp2" || sc.Provisioner != "kubernetes.io/aws-ebs" {
			t.Errorf("Kubernetes %s: %s %s, default %q; want gp2 kubernetes.io/aws-ebs, default %q", version, sc.Name,
				sc.Provisioner, got, want)
		}
	}
}
