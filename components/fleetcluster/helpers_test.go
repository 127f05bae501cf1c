package fleetcluster

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// await blocks until o resolves and returns its value (mocked runs are never previews, so outputs resolve).
func await[T any](t *testing.T, o pulumi.Output) T {
	t.Helper()
	ch := make(chan any, 1)
	o.ApplyT(func(v any) any {
		ch <- v
		return v
	})
	select {
	case v := <-ch:
		return v.(T)
	case <-time.After(20 * time.Second):
		t.Fatalf("output did not resolve")
		panic("unreachable")
	}
}

// build runs one FleetCluster under mocks and returns the cloud and the component.
func build(t *testing.T, name string, args FleetClusterArgs, opts ...pulumi.ResourceOption) (*mocks.Cloud, *FleetCluster) {
	t.Helper()
	cloud := mocks.New()
	var fc *FleetCluster
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		fc, err = NewFleetCluster(ctx, name, args, opts...)
		return err
	})
	if err != nil {
		t.Fatalf("NewFleetCluster: %v", err)
	}
	return cloud, fc
}

// mustGet returns the registration of a type and name or fails the test.
func mustGet(t *testing.T, cloud *mocks.Cloud, typ, name string) mocks.Resource {
	t.Helper()
	r, ok := cloud.Named(typ, name)
	if !ok {
		var got []string
		for _, r := range cloud.Resources() {
			got = append(got, r.Type+"::"+r.Name)
		}
		t.Fatalf("no %s named %s; registered: %v", typ, name, got)
	}
	return r
}

// plain turns inputs into plain Go values (secrets unwrapped, references as their URN) for comparison.
func plain(v resource.PropertyValue) any {
	switch {
	case v.IsSecret():
		return plain(v.SecretValue().Element)
	case v.IsResourceReference():
		return string(v.ResourceReferenceValue().URN)
	case v.IsArray():
		out := []any{}
		for _, e := range v.ArrayValue() {
			out = append(out, plain(e))
		}
		return out
	case v.IsObject():
		out := map[string]any{}
		for k, e := range v.ObjectValue() {
			out[string(k)] = plain(e)
		}
		return out
	case v.IsComputed(), v.IsOutput():
		return "<unknown>"
	}
	return v.V
}

func input(r mocks.Resource, key string) any { return plain(r.Inputs[resource.PropertyKey(key)]) }

// policyOf decodes an IAM policy document input.
func policyOf(t *testing.T, r mocks.Resource, key string) iampolicy.Document {
	t.Helper()
	var doc iampolicy.Document
	s, _ := input(r, key).(string)
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("%s.%s is not a policy document: %v (%q)", r.Name, key, err, s)
	}
	return doc
}
