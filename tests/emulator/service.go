package emulator

import (
	"context"
	"maps"

	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	presource "github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// Service is one emulated cloud API, served as the plugin pulumi-resource-<Package>.
type Service struct {
	// Package is the Pulumi package the plugin stands in for: aws, kubernetes, github, awsx.
	Package string
	// Version is the version the plugin reports.
	Version string
	// Scope says where this provider instance's resources live, from its configuration: the AWS region, the
	// Kubernetes API server, the GitHub owner. Nil means "global".
	Scope func(config property.Map) string
	// ScopedIDs keeps records per scope and ID: IDs are unique within a scope only (Kubernetes objects per API
	// server). Default: IDs are unique in the store (AWS ARNs and names, GitHub paths).
	ScopedIDs bool
	// Invokes answer the functions the programs call, by token.
	Invokes map[string]InvokeFunc
	// Kinds is the behaviour of resource types, by type token; types not listed behave as Default.
	Kinds   map[string]Kind
	Default Kind
	// Construct builds component resources (awsx's VPC); nil when the package has none.
	Construct func(context.Context, p.ConstructRequest) (p.ConstructResponse, error)
}

// InvokeFunc answers one function call.
type InvokeFunc func(c Call) (map[string]any, error)

// Call is what a resource operation or invoke knows.
type Call struct {
	// Type is the resource type or function token; Name is the resource's name from its URN.
	Type, Name string
	URN        presource.URN
	// Scope is the provider instance's scope (Service.Scope); Config its configuration.
	Scope  string
	Config property.Map
	// Inputs are the resource's checked inputs, or the invoke's arguments.
	Inputs property.Map
	// Store is the emulated cloud.
	Store *Store
}

// Kind is how one resource type behaves.
type Kind struct {
	// AutoName fills in a physical name the program left out (as the real providers' Check does), given the
	// old inputs (empty on create) and a per-resource random suffix. Nil leaves the inputs alone.
	AutoName func(olds, news property.Map, name, suffix string) property.Map
	// ID returns a new resource's ID; nil generates "<name>-<random hex>".
	ID func(c Call) string
	// Computed returns the outputs the cloud computes (ARNs, endpoints, status), laid over the inputs. In a
	// preview they are unknown, except where the program set the same key.
	Computed func(c Call, id string) map[string]any
	// Replaces are the top-level inputs whose change replaces the resource.
	Replaces []string
	// Start, when set, does what the cloud does beyond keeping the record when the resource is created (EKS starts
	// the cluster's control plane); it runs after Computed and before the record is saved, and its error fails the
	// create. Stop undoes it when the resource (of scope and id) is deleted.
	Start func(c Call, id string) error
	Stop  func(scope, id string) error
	// Changed, when set, runs after the resource's record is saved (create, update) or removed (delete), with its
	// outputs (the last ones, for a delete): what the cloud derives from the resource's set follows it (EKS's
	// authenticator follows the cluster's access entries). Its error fails the operation.
	Changed func(s *Store, scope string, state map[string]any) error
}

// AutoNameKey is an AutoName that fills top-level key with "<name>-<suffix>", keeping the old value.
func AutoNameKey(key string) func(olds, news property.Map, name, suffix string) property.Map {
	return func(olds, news property.Map, name, suffix string) property.Map {
		if v, ok := news.GetOk(key); ok && !v.IsNull() {
			return news
		}
		if v, ok := olds.GetOk(key); ok && !v.IsNull() {
			return news.Set(key, v)
		}
		return news.Set(key, property.New(name+"-"+suffix))
	}
}

// Value converts a plain Go value (string, bool, numbers, []any, map[string]any) to a property value.
func Value(v any) property.Value {
	return resource.FromResourcePropertyValue(resource.NewPropertyValue(v))
}

// Str is the string at key of m, or "" when absent, unknown or not a string.
func Str(m property.Map, key string) string {
	v := m.Get(key)
	if v.IsString() {
		return v.AsString()
	}
	return ""
}

// overlay returns inputs with computed laid over them; computed values become unknown in a preview.
func overlay(inputs property.Map, computed map[string]any, preview bool) property.Map {
	out := maps.Clone(inputs.AsMap())
	if out == nil {
		out = map[string]property.Value{}
	}
	for k, v := range computed {
		if preview {
			if _, ok := out[k]; !ok {
				out[k] = property.New(property.Computed)
			}
			continue
		}
		out[k] = Value(v)
	}
	return property.NewMap(out)
}

// Plain is the input at key as plain Go values (secrets revealed), or nil when absent or unknown.
func Plain(m property.Map, key string) any {
	v, ok := m.GetOk(key)
	if !ok || v.IsComputed() {
		return nil
	}
	return resource.ToResourcePropertyValue(v).Mappable()
}

// UUID is a random UUID-shaped string (KMS key IDs, Kubernetes uids).
func UUID() string {
	h := RandomHex(16)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
