package fleet

import (
	"context"
	"reflect"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// TenantSummary is what a program needs to know of one tenant of the fleet (Fleet's tenants output).
type TenantSummary struct {
	// Clusters are the clusters the tenant is onboarded onto, in the fleet's order.
	Clusters []string `pulumi:"clusters"`
	// Namespaces are the tenant's namespaces on each of them.
	Namespaces []string `pulumi:"namespaces"`
	// Project is the tenant's Argo CD project on the hub (tenant-<name>), which its Applications use.
	Project string `pulumi:"project"`
	// Folder is, with Git delivery, the tenant's folder of the registry repository (tenants/<name>), a file per
	// cluster; absent when its objects are written through each cluster's provider.
	Folder string `pulumi:"folder,optional"`
}

// TenantSummaryOutput is an output of TenantSummary.
type TenantSummaryOutput struct{ *pulumi.OutputState }

// ElementType is TenantSummary.
func (TenantSummaryOutput) ElementType() reflect.Type { return reflect.TypeFor[TenantSummary]() }

// TenantSummaryMapOutput is an output of tenant name -> TenantSummary.
type TenantSummaryMapOutput struct{ *pulumi.OutputState }

// ElementType is map[string]TenantSummary.
func (TenantSummaryMapOutput) ElementType() reflect.Type {
	return reflect.TypeFor[map[string]TenantSummary]()
}

// ToTenantSummaryMapOutput is o.
func (o TenantSummaryMapOutput) ToTenantSummaryMapOutput() TenantSummaryMapOutput { return o }

// ToTenantSummaryMapOutputWithContext is o.
func (o TenantSummaryMapOutput) ToTenantSummaryMapOutputWithContext(context.Context) TenantSummaryMapOutput {
	return o
}

func init() {
	pulumi.RegisterOutputType(TenantSummaryOutput{})
	pulumi.RegisterOutputType(TenantSummaryMapOutput{})
}
