package workloads

import (
	"encoding/json"
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Package is the store package of this part of the cloud; its records have type objectType or taggedType.
const Package = "workloads"

const (
	objectType = "object"
	taggedType = "tagged"
)

// Object is one object of a cluster's workloads.
type Object struct {
	// Cluster is the EKS cluster's name.
	Cluster string `json:"cluster"`
	// Resource is the object's API resource.
	Resource schema.GroupVersionResource `json:"resource"`
	// Object is the object as the API serves it (apiVersion, kind, metadata with name and namespace, spec).
	Object map[string]any `json:"object"`
	// Made are the ARNs of the Tagged resources a controller made for the object and deletes with it.
	Made []string `json:"made,omitempty"`
}

// Tagged is one AWS resource an add-on controller made, with its tags.
type Tagged struct {
	ARN    string            `json:"arn"`
	Region string            `json:"region"`
	Tags   map[string]string `json:"tags"`
}

func (o Object) id() string {
	u := unstructured.Unstructured{Object: o.Object}
	return fmt.Sprintf("%s/%s/%s/%s/%s/%s", o.Cluster, o.Resource.Group, o.Resource.Version, o.Resource.Resource,
		u.GetNamespace(), u.GetName())
}

// Put adds objects and tagged resources to the store.
func Put(s *emulator.Store, objects []Object, tagged []Tagged) error {
	for _, o := range objects {
		if err := put(s, objectType, o.id(), o.Cluster, o); err != nil {
			return err
		}
	}
	for _, t := range tagged {
		if err := put(s, taggedType, t.ARN, t.Region, t); err != nil {
			return err
		}
	}
	return nil
}

func put(s *emulator.Store, typ, id, scope string, v any) error {
	state, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.Put(emulator.Record{Package: Package, Type: typ, ID: id, Scope: scope, State: state})
}

// Objects are the store's objects of cluster ("" for every cluster).
func Objects(s *emulator.Store, cluster string) ([]Object, error) {
	return all[Object](s, objectType, cluster)
}

// TaggedIn are the store's tagged resources in region ("" for every region).
func TaggedIn(s *emulator.Store, region string) ([]Tagged, error) {
	return all[Tagged](s, taggedType, region)
}

func all[T any](s *emulator.Store, typ, scope string) ([]T, error) {
	recs, err := s.List()
	if err != nil {
		return nil, err
	}
	var out []T
	for _, r := range recs {
		if r.Package != Package || r.Type != typ || (scope != "" && r.Scope != scope) {
			continue
		}
		var v T
		if err := json.Unmarshal(r.State, &v); err != nil {
			return nil, fmt.Errorf("workloads record %s: %w", r.ID, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// remove deletes an object and what was made for it.
func remove(s *emulator.Store, o Object) error {
	if _, err := s.Delete(Package, objectType, o.id()); err != nil {
		return err
	}
	return Forget(s, o.Made)
}

// Forget deletes the tagged resources arns from the store, as the controller that made them does once their object
// is gone from a real API server (where the store holds no object: the server does).
func Forget(s *emulator.Store, arns []string) error {
	for _, arn := range arns {
		if _, err := s.Delete(Package, taggedType, arn); err != nil {
			return err
		}
	}
	return nil
}
