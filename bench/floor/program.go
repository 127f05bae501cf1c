package floor

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type customResource struct{ pulumi.CustomResourceState }

type providerResource struct{ pulumi.ProviderResourceState }

// Program registers plan's resources in order, each with its recorded inputs, its provider and dependsOn on
// the resources it came after. A reference to a resource that is not in plan is an error.
func Program(plan []Resource) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		registered := map[string]pulumi.Resource{}
		for _, r := range plan {
			var after []pulumi.Resource
			for _, urn := range r.DependsOn {
				dep, ok := registered[urn]
				if !ok {
					return fmt.Errorf("%s depends on %s, which comes later or is not in the plan", r.URN, urn)
				}
				after = append(after, dep)
			}
			opts := []pulumi.ResourceOption{pulumi.DependsOn(after)}
			props := inputs(r.Inputs)
			if strings.HasPrefix(r.Type, "pulumi:providers:") {
				var p providerResource
				if err := ctx.RegisterResource(r.Type, r.Name, props, &p, opts...); err != nil {
					return err
				}
				registered[r.URN] = &p
				continue
			}
			prov, ok := registered[r.Provider].(*providerResource)
			if !ok {
				return fmt.Errorf("%s uses provider %s, which is not in the plan", r.URN, r.Provider)
			}
			var c customResource
			if err := ctx.RegisterResource(r.Type, r.Name, props, &c, append(opts, pulumi.Provider(prov))...); err != nil {
				return err
			}
			registered[r.URN] = &c
		}
		return nil
	}
}

// inputs turns recorded property values into program inputs; secrets stay secret.
func inputs(m resource.PropertyMap) pulumi.Map {
	out := pulumi.Map{}
	for k, v := range m {
		if in := input(v); in != nil {
			out[string(k)] = in
		}
	}
	return out
}

func input(v resource.PropertyValue) pulumi.Input {
	switch {
	case v.IsSecret():
		return pulumi.ToSecret(input(v.SecretValue().Element))
	case v.IsBool():
		return pulumi.Bool(v.BoolValue())
	case v.IsNumber():
		return pulumi.Float64(v.NumberValue())
	case v.IsString():
		return pulumi.String(v.StringValue())
	case v.IsArray():
		arr := pulumi.Array{}
		for _, e := range v.ArrayValue() {
			in := input(e)
			if in == nil {
				in = pulumi.Any(nil)
			}
			arr = append(arr, in)
		}
		return arr
	case v.IsObject():
		return inputs(v.ObjectValue())
	}
	return nil // null; assets, archives and resource references are not in a fleet's recorded inputs
}
