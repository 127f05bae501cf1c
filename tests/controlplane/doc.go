// Package controlplane runs a real Kubernetes control plane behind each offline EKS cluster: etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler (KUBE_VERSION of tests/tools/versions.mk, `make kube`), with kwok playing the kubelets of
// the cluster's nodes, all started and stopped by kwokctl (binary runtime, local binaries only).
//
// The aws emulator creates a cluster's control plane with the EKS cluster and deletes it with it; the offline
// network (tests/emulator/network) routes the cluster's endpoint, https://<id>.gr7.<region>.eks.amazonaws.com, to
// its kube-apiserver, starting a stopped one (a second `make demo`) on the first request. The API server
// authenticates bearer tokens as EKS does, through aws-iam-authenticator's server (Authentication): the offline STS
// says who signed a token, and the cluster's access entries (WriteAccess) or aws-auth say who that is in
// Kubernetes. Processes outlive the plugin that started them (kwokctl detaches them); a test's Env deletes its
// clusters when it ends. A run keeps a dozen or more control planes up at once, mostly waiting, so each is made
// cheap to leave idle (config.go's idle: one processor per component, no leader election, no watch cache).
package controlplane
