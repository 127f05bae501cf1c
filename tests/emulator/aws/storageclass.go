package aws

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// defaultClassAnnotation marks a cluster's default StorageClass (Kubernetes' storage classes documentation).
const defaultClassAnnotation = "storageclass.kubernetes.io/is-default-class"

// eksStorageClass is the gp2 StorageClass EKS makes on every cluster it creates: the in-tree EBS provisioner's name
// (which CSI migration serves through the EBS CSI driver), gp2 volumes with ext4, deleted with their claim, bound
// where the pod is scheduled. EKS marks it the default class on Kubernetes before 1.30 and not from 1.30 on (EKS's
// Kubernetes 1.30 release notes). An add-on that installs storage classes (aws-ebs-csi-classes, through Argo CD or a
// hub's stack) meets it there.
func eksStorageClass(kubernetesVersion string) *storagev1.StorageClass {
	sc := &storagev1.StorageClass{
		ObjectMeta:        metav1.ObjectMeta{Name: "gp2"},
		Provisioner:       "kubernetes.io/aws-ebs",
		Parameters:        map[string]string{"type": "gp2", "fsType": "ext4"},
		ReclaimPolicy:     ptr.To(corev1.PersistentVolumeReclaimDelete),
		VolumeBindingMode: ptr.To(storagev1.VolumeBindingWaitForFirstConsumer),
	}
	if v, err := version.ParseGeneric(kubernetesVersion); err == nil && v.LessThan(version.MajorMinor(1, 30)) {
		sc.Annotations = map[string]string{defaultClassAnnotation: "true"}
	}
	return sc
}

// createEKSObjects makes on a new cluster's API server what EKS makes on every cluster: eksStorageClass.
func createEKSObjects(ctx context.Context, kube kubernetes.Interface, kubernetesVersion string) error {
	_, err := kube.StorageV1().StorageClasses().Create(ctx, eksStorageClass(kubernetesVersion),
		metav1.CreateOptions{FieldManager: "eks"})
	return ignoreExists(err)
}
