package kubernetes

import (
	"context"
	"fmt"

	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumiprovider "github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
)

// ChartType is the type token of a Helm v4 Chart, the component that renders a chart and applies its objects.
const ChartType = "kubernetes:helm.sh/v4:Chart"

// chart is the emulated Chart: the component alone, with pulumi-kubernetes' resources output. The emulator renders no
// chart (as it installs no Helm release's objects): its objects are not recorded, and a test that needs them runs on
// a real API server (tests/controlplane), where the real provider renders and applies them.
type chart struct {
	pulumi.ResourceState
	Resources pulumi.ArrayOutput `pulumi:"resources"`
}

// Construct builds kubernetes:helm.sh/v4:Chart; other tokens are refused.
func Construct(ctx context.Context, req p.ConstructRequest) (p.ConstructResponse, error) {
	return p.ProgramConstruct(ctx, req, func(ctx *pulumi.Context, typ, name string, _ pulumiprovider.ConstructInputs,
		opts pulumi.ResourceOption,
	) (*pulumiprovider.ConstructResult, error) {
		if typ != ChartType {
			return nil, fmt.Errorf("the kubernetes emulator builds only %s, not %s", ChartType, typ)
		}
		c := &chart{}
		if err := ctx.RegisterComponentResource(typ, name, c, opts); err != nil {
			return nil, err
		}
		c.Resources = pulumi.Array{}.ToArrayOutput()
		if err := ctx.RegisterResourceOutputs(c, pulumi.Map{"resources": c.Resources}); err != nil {
			return nil, err
		}
		return pulumiprovider.NewConstructResult(c)
	})
}
