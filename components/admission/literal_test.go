package admission

import "testing"

// TestLiteral: values as JSON decodes them become CEL literals, every element and value wrapped in dyn() so that
// a map or list may mix types, but for a list or map of strings only (one type already); what JSON cannot hold is an
// error.
func TestLiteral(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{`a "b"`, `"a \"b\""`},
		{600, "600"},
		{float64(600), "600"},
		{1.5, "1.5"},
		{[]any{"a", 1}, `[dyn("a"), dyn(1)]`},
		{[]string{"x"}, `["x"]`},
		{[]any{"x", "y"}, `["x", "y"]`},
		{map[string]any{"b": false, "a": map[string]string{"k": "v"}}, `{"a": dyn({"k": "v"}), "b": dyn(false)}`},
		{map[string]any{"b": "x", "a": "y"}, `{"a": "y", "b": "x"}`},
		{map[string]any{}, "{}"},
	} {
		got, err := Literal(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Literal(%#v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := Literal(struct{}{}); err == nil {
		t.Error("Literal of a struct: no error")
	}
}
