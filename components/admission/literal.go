package admission

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Literal is v as a CEL literal: v is a value as JSON or YAML decodes it (nil, bool, string, a number, []any,
// map[string]any, or string-keyed maps and lists of those): null, true/false, a quoted string, an int (a double
// when not whole), a list or a map with its keys sorted, each element or value wrapped in dyn() (a CEL list or map
// literal's elements must otherwise share one type). Anything else is an error.
func Literal(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "null", nil
	case bool:
		return strconv.FormatBool(v), nil
	case string:
		return String(v), nil
	case int:
		return strconv.Itoa(v), nil
	case int32:
		return strconv.FormatInt(int64(v), 10), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		if v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10), nil
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case []string:
		return Literal(anySlice(v))
	case []any:
		items := make([]string, len(v))
		for i, x := range v {
			lit, err := Literal(x)
			if err != nil {
				return "", err
			}
			items[i] = "dyn(" + lit + ")"
		}
		return "[" + strings.Join(items, ", ") + "]", nil
	case map[string]string:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = x
		}
		return Literal(m)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		entries := make([]string, len(keys))
		for i, k := range keys {
			lit, err := Literal(v[k])
			if err != nil {
				return "", err
			}
			entries[i] = String(k) + ": dyn(" + lit + ")"
		}
		return "{" + strings.Join(entries, ", ") + "}", nil
	}
	return "", fmt.Errorf("no CEL literal for %T", v)
}

func anySlice(v []string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}
