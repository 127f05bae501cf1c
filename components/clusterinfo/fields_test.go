package clusterinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type mocks struct{}

func (mocks) NewResource(a pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	return a.Name, a.Inputs, nil
}
func (mocks) Call(pulumi.MockCallArgs) (resource.PropertyMap, error) {
	return resource.PropertyMap{}, nil
}

func complete() ClusterInfoArgs {
	return ClusterInfoArgs{
		ClusterName: pulumi.String("blue"), Environment: pulumi.String("dev"), Server: pulumi.String("https://x"),
		CertificateAuthorityData: pulumi.String("Q0E="), Region: pulumi.String("us-east-1"),
		AccountId: pulumi.String("123456789012"), KubernetesVersion: pulumi.String("1.33"),
		Kubeconfig: pulumi.String("{}"),
	}
}

func TestMissing(t *testing.T) {
	partial := complete()
	partial.Server, partial.Kubeconfig = nil, nil
	cases := map[string]struct {
		reason string
		in     ClusterInfoInput
		want   []string
	}{
		"complete":  {reason: "optional facts may be left out", in: complete()},
		"partial":   {reason: "each missing required fact is named", in: partial, want: []string{"server", "kubeconfig"}},
		"pointer":   {reason: "a pointer to args is read the same way", in: &partial, want: []string{"server", "kubeconfig"}},
		"no object": {reason: "no cluster at all misses every fact", in: nil, want: Missing(ClusterInfoArgs{})},
		"output":    {reason: "an output is complete by its type", in: complete().ToClusterInfoOutput()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Missing(tc.in)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestFieldsOfKeepsOnlyTheKubeconfigSecret(t *testing.T) {
	err := pulumi.RunErr(func(ctx *pulumi.Context) error {
		args := complete()
		args.Kubeconfig = pulumi.ToSecret(pulumi.String("{}")).(pulumi.StringOutput)
		out := args.ToClusterInfoOutput()
		if !pulumi.IsSecret(out) {
			t.Error("an object carrying a secret kubeconfig should be secret as a whole")
		}
		for name, in := range map[string]ClusterInfoInput{"args": args, "output": out} {
			f := FieldsOf(in)
			if !pulumi.IsSecret(f.Kubeconfig) {
				t.Errorf("%s: kubeconfig is not secret", name)
			}
			if pulumi.IsSecret(f.ClusterName) || pulumi.IsSecret(f.Server) || pulumi.IsSecret(f.GitOpsMetadata) {
				t.Errorf("%s: facts other than the kubeconfig are secret", name)
			}
		}
		return nil
	}, pulumi.WithMocks("p", "s", mocks{}))
	if err != nil {
		t.Fatal(err)
	}
}
