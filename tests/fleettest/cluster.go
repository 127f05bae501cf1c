package fleettest

import (
	"context"
	"regexp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

// Cluster is an EKS cluster of the run and the real Kubernetes API server behind it (its control plane).
type Cluster struct {
	env *Env
	// Name and Region are the EKS cluster's.
	Name, Region string
}

// regionPrefix is an AWS region at the start of a control plane's name (controlplane.Name: <region>-<cluster>).
var regionPrefix = regexp.MustCompile(`^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+-`)

// Cluster is the EKS cluster name, in whichever region the run made it; the test fails when none or several have the
// name (ClusterIn says which).
func (e *Env) Cluster(name string) *Cluster {
	e.t.Helper()
	var regions []string
	for _, cp := range e.ControlPlanes() {
		if p := regionPrefix.FindString(cp); p != "" && cp[len(p):] == name {
			regions = append(regions, strings.TrimSuffix(p, "-"))
		}
	}
	if len(regions) != 1 {
		e.t.Fatalf("cluster %s: the run's control planes are %v, with it in %d regions (%v)", name, e.ControlPlanes(), len(regions), regions)
	}
	return &Cluster{env: e, Name: name, Region: regions[0]}
}

// ClusterIn is the EKS cluster name in region, whether or not it exists yet.
func (e *Env) ClusterIn(region, name string) *Cluster {
	return &Cluster{env: e, Name: name, Region: region}
}

// ControlPlanes are the names of the run's control planes (controlplane.Name), running or stopped, sorted.
func (e *Env) ControlPlanes() []string {
	if e.run.off.Clusters == nil {
		return nil
	}
	return slices.Sorted(slices.Values(e.run.off.Clusters.Names()))
}

// ControlPlane is the name of the cluster's control plane.
func (c *Cluster) ControlPlane() string { return controlplane.Name(c.Region, c.Name) }

// Kubeconfig is the path of the control plane's admin kubeconfig (system:masters).
func (c *Cluster) Kubeconfig() string { return c.env.run.off.Clusters.Kubeconfig(c.ControlPlane()) }

// Admin is the REST config of the cluster's API server as its administrator.
func (c *Cluster) Admin() *rest.Config {
	cfg, err := c.env.run.off.Clusters.Admin(c.ControlPlane())
	if err != nil {
		c.env.t.Fatal(err)
	}
	return cfg
}

// Typed is client-go's clientset of the cluster as its administrator.
func (c *Cluster) Typed() kubernetes.Interface { return typed(c.env, c.Admin()) }

// Dynamic is client-go's dynamic client of the cluster as its administrator.
func (c *Cluster) Dynamic() dynamic.Interface { return dynamicOf(c.env, c.Admin()) }

// As is the REST config of a client of the cluster acting as user (impersonated by the administrator), in groups
// (none: the service accounts' and the authenticated).
func (c *Cluster) As(user string, groups ...string) *rest.Config {
	if len(groups) == 0 {
		groups = []string{"system:serviceaccounts", "system:authenticated"}
	}
	cfg := c.Admin()
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: groups}
	return cfg
}

// TypedAs is the clientset of As(user, groups...).
func (c *Cluster) TypedAs(user string, groups ...string) kubernetes.Interface {
	return typed(c.env, c.As(user, groups...))
}

// DynamicAs is the dynamic client of As(user, groups...).
func (c *Cluster) DynamicAs(user string, groups ...string) dynamic.Interface {
	return dynamicOf(c.env, c.As(user, groups...))
}

// Running says whether the cluster's API server runs.
func (c *Cluster) Running() bool { return c.env.run.off.Clusters.Running(c.ControlPlane()) }

// Namespace is the namespace name on the cluster's API server; nil when it has none, or one being deleted (a namespace
// Pulumi deleted may still be Terminating while kube-controller-manager empties it).
func (c *Cluster) Namespace(name string) *corev1.Namespace {
	ns, err := c.Typed().CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		c.env.t.Fatal(err)
	}
	if ns.DeletionTimestamp != nil {
		return nil
	}
	return ns
}

// ClusterSecrets are the names of the Argo CD cluster secrets (label argocd.argoproj.io/secret-type=cluster) in Argo
// CD's namespace on the cluster, sorted.
func (c *Cluster) ClusterSecrets() []string {
	secrets, err := c.Typed().CoreV1().Secrets(gitopsbridge.DefaultNamespace).List(context.Background(),
		metav1.ListOptions{LabelSelector: gitopsbridge.SecretTypeLabel + "=cluster"})
	if err != nil {
		c.env.t.Fatal(err)
	}
	var names []string
	for _, s := range secrets.Items {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return names
}

func typed(e *Env, cfg *rest.Config) kubernetes.Interface {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return kube
}

func dynamicOf(e *Env, cfg *rest.Config) dynamic.Interface {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return dyn
}
