package offline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

const (
	// kargoProjects is where Kargo's Projects (cluster-scoped) are created.
	kargoProjects = "/apis/kargo.akuity.io/v1alpha1/projects"
	// kargoProjectLabel marks a Project's namespace (Kargo v1.11.2 api/v1alpha1/labels.go).
	kargoProjectLabel = "kargo.akuity.io/project"
	// standInAnnotation marks what a stand-in made, so that it deletes only that.
	standInAnnotation = "emulator.pulumi-fleet/made-by"
)

var projectsResource = schema.GroupVersionResource{Group: "kargo.akuity.io", Version: "v1alpha1", Resource: "projects"}

// kargoProjectCreated stands in for what Kargo's webhook server does when a Project is created (Kargo v1.11.2
// pkg/webhook/kubernetes/project/webhook.go, ValidateCreate): it creates the namespace of the same name, labelled
// kargo.akuity.io/project: "true", before the creator hears of the Project, so the Project's objects (ProjectConfig,
// Warehouse, Stages, credentials) find it. Kargo's webhooks do not run here; the API server answers a create with
// 201 (a POST to the projects, or a server-side apply that creates), and this runs then, as the proxy's Answered.
func kargoProjectCreated(clusters controlplane.Clusters) func(string, *http.Response) error {
	return func(cp string, resp *http.Response) error {
		r := resp.Request
		if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(r.URL.Path, kargoProjects) {
			return nil
		}
		name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, kargoProjects), "/")
		if r.Method == http.MethodPost && name == "" { // the name is the created object's (custom resources are JSON)
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			resp.Body = io.NopCloser(bytes.NewReader(body))
			var created struct {
				Metadata struct{ Name string } `json:"metadata"`
			}
			if err := json.Unmarshal(body, &created); err != nil {
				return fmt.Errorf("kargo's stand-in: the created Project: %w", err)
			}
			name = created.Metadata.Name
		}
		if name == "" || strings.Contains(name, "/") {
			return nil
		}
		kube, err := clusters.Typed(cp)
		if err != nil {
			return err
		}
		_, err = kube.CoreV1().Namespaces().Create(r.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      map[string]string{kargoProjectLabel: "true"},
			Annotations: map[string]string{standInAnnotation: "kargo"},
		}}, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			return nil
		}
		return err
	}
}

// releaseKargoNamespaces stands in for Kargo's cleanup of a deleted Project (Kargo v1.11.2
// pkg/controller/management/projects/projects.go, cleanupProject): the namespace kargoProjectCreated made for a
// Project that is gone is deleted.
func releaseKargoNamespaces(ctx context.Context, clusters controlplane.Clusters, name string) {
	kube, err := clusters.Typed(name)
	if err != nil {
		return
	}
	dyn, err := clusters.Dynamic(name)
	if err != nil {
		return
	}
	namespaces, err := kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: kargoProjectLabel + "=true"})
	if err != nil {
		return
	}
	for _, ns := range namespaces.Items {
		if ns.Annotations[standInAnnotation] != "kargo" || ns.DeletionTimestamp != nil {
			continue
		}
		if _, err := dyn.Resource(projectsResource).Get(ctx, ns.Name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			_ = kube.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{})
		}
	}
}
