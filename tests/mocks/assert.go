package mocks

import (
	"testing"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Await blocks until o resolves and returns its value (mocked runs are never previews, so outputs resolve).
func Await[T any](t testing.TB, o pulumi.Output) T {
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

// MustGet returns the registration of a type and name or fails the test, listing what was registered.
func (c *Cloud) MustGet(t testing.TB, typ, name string) Resource {
	t.Helper()
	r, ok := c.Named(typ, name)
	if !ok {
		var got []string
		for _, r := range c.Resources() {
			got = append(got, r.Type+"::"+r.Name)
		}
		t.Fatalf("no %s named %s; registered: %v", typ, name, got)
	}
	return r
}

// Plain turns a property value into plain Go values (secrets unwrapped, references as their URN) for comparison.
func Plain(v resource.PropertyValue) any {
	switch {
	case v.IsSecret():
		return Plain(v.SecretValue().Element)
	case v.IsResourceReference():
		return string(v.ResourceReferenceValue().URN)
	case v.IsArray():
		out := []any{}
		for _, e := range v.ArrayValue() {
			out = append(out, Plain(e))
		}
		return out
	case v.IsObject():
		out := map[string]any{}
		for k, e := range v.ObjectValue() {
			out[string(k)] = Plain(e)
		}
		return out
	case v.IsComputed(), v.IsOutput():
		return "<unknown>"
	}
	return v.V
}

// Input is the plain value of one of the resource's inputs.
func (r Resource) Input(key string) any { return Plain(r.Inputs[resource.PropertyKey(key)]) }

// InputsLike returns the plain values of the inputs named by want's keys, to compare with want.
func (r Resource) InputsLike(want map[string]any) map[string]any {
	got := map[string]any{}
	for k := range want {
		got[k] = r.Input(k)
	}
	return got
}
