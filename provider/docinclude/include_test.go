package docinclude

import (
	"fmt"
	"strings"
	"testing"
)

var files = map[string]string{
	"examples/a/index.ts":    "const a = 1;\nexport const b = a;\n",
	"examples/a/Pulumi.yaml": "name: a\nruntime: yaml\n",
}

func read(path string) ([]byte, error) {
	if s, ok := files[path]; ok {
		return []byte(s), nil
	}
	return nil, fmt.Errorf("open %s: no such file", path)
}

func TestProblems(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		want     []string // substrings, one per problem, in order
	}{
		{"included and current", "x\n<!-- include: examples/a/index.ts -->\n```typescript\nconst a = 1;\nexport const b = a;\n```\n", nil},
		{"stale", "<!-- include: examples/a/index.ts -->\n```typescript\nconst a = 2;\nexport const b = a;\n```\n", []string{"line 2: the block differs from examples/a/index.ts"}},
		{"pasted program", "text\n\n```go\nfunc main() {}\n```\n", []string{"line 3: a go program is pasted"}},
		{"pasted Pulumi YAML program", "```yaml\nname: a\nruntime: yaml\n```\n", []string{"a yaml program is pasted"}},
		{"stack config is not a program", "```yaml\nconfig:\n  aws:region: us-east-1\n```\n", nil},
		{"shell is not a program", "```sh\nmake demo\n```\n", nil},
		{"missing file", "<!-- include: examples/b/main.go -->\n```go\n```\n", []string{"examples/b/main.go: no such file"}},
		{"marker not right before", "<!-- include: examples/a/index.ts -->\n\n```ts\nconst a = 1;\n```\n", []string{"a ts program is pasted"}},
		{"unclosed", "```go\nfunc main() {}\n", []string{"not closed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Problems(tc.md, read)
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %d problems %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d: got %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestRefresh(t *testing.T) {
	md := "# Title\n<!-- include: examples/a/index.ts -->\n```typescript\nold\n```\n\ntext\n" +
		"<!-- include: examples/a/Pulumi.yaml -->\n```yaml\n```\nend\n"
	got, err := Refresh(md, read)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n<!-- include: examples/a/index.ts -->\n```typescript\nconst a = 1;\nexport const b = a;\n```\n\ntext\n" +
		"<!-- include: examples/a/Pulumi.yaml -->\n```yaml\nname: a\nruntime: yaml\n```\nend\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if problems := Problems(got, read); len(problems) > 0 {
		t.Errorf("refreshed text has problems: %q", problems)
	}
	again, _ := Refresh(got, read)
	if again != got {
		t.Errorf("a second refresh changes the text")
	}
	if _, err := Refresh("<!-- include: examples/none.go -->\n```go\n```\n", read); err == nil {
		t.Error("refreshing from a missing file: no error")
	}
}
