package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/argo"
	"github.com/argoproj/argo-cd/v3/util/db"
	"github.com/argoproj/argo-cd/v3/util/settings"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
)

// syncedObject is a resource an Application's sync applies: its group, kind and name, and its namespace as
// the manifest gives it ("" for a namespaced object takes the destination's, as Argo CD sets it). Namespaced
// is what the destination's API discovery would say.
type syncedObject struct {
	Group, Kind, Name, Namespace string
	Namespaced                   bool
}

// appProjectOf is the AppProject map (gitopsbridge.AppProject.Object()) as Argo CD v3.5.7 reads it, strictly
// (a field its type does not have fails), and checked with Argo CD's own project validation.
func appProjectOf(t *testing.T, obj map[string]any) *argov1alpha1.AppProject {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	proj := &argov1alpha1.AppProject{}
	if err := dec.Decode(proj); err != nil {
		t.Fatalf("AppProject: %v", err)
	}
	if proj.APIVersion != "argoproj.io/v1alpha1" || proj.Kind != "AppProject" {
		t.Fatalf("AppProject is %s %s", proj.APIVersion, proj.Kind)
	}
	if err := proj.ValidateProject(); err != nil {
		t.Errorf("AppProject %s: %v", proj.Name, err)
	}
	return proj
}

// argoDB is Argo CD's cluster database (util/db over its settings manager) on a fake API server that holds
// argocd-cm, argocd-secret and the given cluster secrets (stringData moved into data, as the API server stores
// it). It resolves a destination by name or server, the in-cluster server included, as the controller does.
func argoDB(t *testing.T, namespace string, clusterSecrets ...corev1.Secret) db.ArgoDB {
	t.Helper()
	part := map[string]string{"app.kubernetes.io/part-of": "argocd"}
	objs := []runtime.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "argocd-cm", Namespace: namespace, Labels: part}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "argocd-secret", Namespace: namespace, Labels: part}},
	}
	for i := range clusterSecrets {
		objs = append(objs, stored(clusterSecrets[i]))
	}
	client := kubefake.NewClientset(objs...)
	return db.NewDB(namespace, settings.NewSettingsManager(t.Context(), client, namespace), client)
}

// permitted is what Argo CD v3.5.7 says of an Application in project with source and dest, and of syncing
// objects: the controller's refreshAppConditions check (util/argo ValidatePermissions: the source is permitted,
// the destination resolves to a known cluster and is permitted) and, for each object, its sync permission check
// (controller/sync.go validateSyncPermissions, unexported, done here with the same two exported methods:
// IsGroupKindNamePermitted, then IsDestinationPermitted for a namespaced object). nil when all is permitted;
// otherwise every refusal, in Argo CD's words.
func permitted(t *testing.T, project map[string]any, source argov1alpha1.ApplicationSource,
	dest argov1alpha1.ApplicationDestination, argoDB db.ArgoDB, objects []syncedObject) error {
	t.Helper()
	return permittedIn(t, project, argocdNamespace, source, dest, argoDB, objects)
}

// permittedIn is permitted for an Application in namespace appNamespace, which the project admits first (util/argo
// GetAppProject: AppProject.IsAppNamespacePermitted, Argo CD's namespace always, others by sourceNamespaces).
func permittedIn(t *testing.T, project map[string]any, appNamespace string, source argov1alpha1.ApplicationSource,
	dest argov1alpha1.ApplicationDestination, argoDB db.ArgoDB, objects []syncedObject) error {
	t.Helper()
	ctx := t.Context()
	proj := appProjectOf(t, project)
	spec := argov1alpha1.ApplicationSpec{Source: &source, Destination: dest, Project: proj.Name}
	var errs []error
	app := &argov1alpha1.Application{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: appNamespace}, Spec: spec}
	if !proj.IsAppNamespacePermitted(app, argocdNamespace) {
		errs = append(errs, argo.NewErrApplicationNotAllowedToUseProject(app.Name, app.Namespace, proj.Name))
	}
	conditions, err := argo.ValidatePermissions(ctx, &spec, proj, argoDB)
	if err != nil {
		return err
	}
	for _, c := range conditions {
		errs = append(errs, fmt.Errorf("%s: %s", c.Type, c.Message))
	}
	destCluster, err := argo.GetDestinationCluster(ctx, dest, argoDB)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	projectClusters := func(p string) ([]*argov1alpha1.Cluster, error) { return argoDB.GetProjectClusters(ctx, p) }
	for _, o := range objects {
		if !proj.IsGroupKindNamePermitted(schema.GroupKind{Group: o.Group, Kind: o.Kind}, o.Name, o.Namespaced) {
			errs = append(errs, fmt.Errorf("resource %s:%s is not permitted in project %s", o.Group, o.Kind, proj.Name))
			continue
		}
		if !o.Namespaced {
			continue
		}
		ns := o.Namespace
		if ns == "" {
			ns = dest.Namespace
		}
		ok, err := proj.IsDestinationPermitted(destCluster, ns, projectClusters)
		if err != nil {
			errs = append(errs, err)
		} else if !ok {
			errs = append(errs, fmt.Errorf("namespace %v is not permitted in project '%s'", ns, proj.Name))
		}
	}
	return errors.Join(errs...)
}

// stored is secret as the API server stores it: its stringData moved into data.
func stored(secret corev1.Secret) *corev1.Secret {
	s := secret.DeepCopy()
	if len(s.StringData) > 0 && s.Data == nil {
		s.Data = map[string][]byte{}
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
	return s
}
