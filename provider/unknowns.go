package provider

import (
	"context"
	"reflect"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	p "github.com/pulumi/pulumi-go-provider"
	resourceurn "github.com/pulumi/pulumi/sdk/v3/go/common/resource/urn"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// withWholeUnknowns wraps a provider so that Construct sees every object input typed as an Input of a whole
// object (clusterinfo.ClusterInfoInput: GitOpsBridge's cluster) that holds an unknown value anywhere inside as
// unknown as a whole.
//
// The Java SDK sends partially known objects: known fields beside unknown ones, the usual shape of a component's
// outputs during a preview (GitOpsBridge's cluster from FleetCluster's outputs). The Go SDK's ConstructInputs
// copies an object that carries dependencies as a known output, so its unknown fields would resolve to zero values
// ("" for a spoke role ARN not yet created) and fail validation. Go, Node.js and Python programs send such objects
// unknown as a whole, which the components handle; this gives Java programs the same. Plain struct inputs
// (gitopsAccess, spoke) copy field by field and keep their unknown fields unknown, so they are left alone.
func withWholeUnknowns(prov p.Provider, objectInputs map[tokens.Type][]string) p.Provider {
	construct := prov.Construct
	if construct == nil {
		return prov
	}
	prov.Construct = func(ctx context.Context, req p.ConstructRequest) (p.ConstructResponse, error) {
		req.Inputs = unwrappedStructs(wholeUnknowns(req.Inputs, objectInputs[req.Urn.Type()]), objectInputs[req.Urn.Type()])
		return construct(ctx, req)
	}
	return prov
}

// unwrappedStructs returns inputs with the known map values of the other keys (plain struct inputs such as
// gitopsAccess and spoke) freed of the dependencies and secretness the Java SDK puts on the map itself: the Go
// SDK copies a map with either only into an Input, not a struct. The secretness moves to the map's fields, where
// the struct's Input fields keep it; the dependencies were already awaited by the SDK, and the engine records
// them for the component from the registration.
func unwrappedStructs(inputs property.Map, objectKeys []string) property.Map {
	out := inputs
	for k, v := range inputs.All {
		if !v.IsMap() || slices.Contains(objectKeys, k) || (len(v.Dependencies()) == 0 && !v.Secret()) {
			continue
		}
		fields := map[string]property.Value{}
		for name, f := range v.AsMap().All {
			if v.Secret() {
				f = f.WithSecret(true)
			}
			fields[name] = f
		}
		out = out.Set(k, property.New(fields))
	}
	return out
}

// wholeUnknowns returns inputs with the values of keys that are maps holding an unknown replaced by an unknown,
// secret when anything inside was secret, depending on everything anything inside depended on.
func wholeUnknowns(inputs property.Map, keys []string) property.Map {
	out := inputs
	for _, k := range keys {
		if v, ok := inputs.GetOk(k); ok && v.IsMap() && v.HasComputed() {
			out = out.Set(k, property.New(property.Computed).WithSecret(v.HasSecrets()).WithDependencies(dependencies(v)))
		}
	}
	return out
}

// dependencies are the dependencies of v and of every value inside it, in order of first appearance.
func dependencies(v property.Value) []resourceurn.URN {
	var out []resourceurn.URN
	seen := map[resourceurn.URN]bool{}
	var walk func(property.Value)
	walk = func(v property.Value) {
		for _, d := range v.Dependencies() {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
		switch {
		case v.IsMap():
			for _, e := range v.AsMap().AllStable {
				walk(e)
			}
		case v.IsArray():
			for _, e := range v.AsArray().All {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// clusterInfoInput is the one object-typed Input of the components' arguments.
var clusterInfoInput = reflect.TypeFor[clusterinfo.ClusterInfoInput]()

// objectInputsOf are the pulumi names of the fields of args (a struct) typed clusterinfo.ClusterInfoInput.
func objectInputsOf(args any) []string {
	var names []string
	t := reflect.TypeOf(args)
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type == clusterInfoInput {
			name, _, _ := strings.Cut(f.Tag.Get("pulumi"), ",")
			names = append(names, name)
		}
	}
	return names
}
