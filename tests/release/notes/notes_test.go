package notes

import (
	"strings"
	"testing"
)

const changelog = `# Changelog

## Unreleased

- next

## 1.2.3

- fixed a thing
- added another

## 1.2.2

## 1.2.1

- first
`

func TestSection(t *testing.T) {
	for _, tc := range []struct {
		version, want, err string
	}{
		{version: "1.2.3", want: "- fixed a thing\n- added another\n"},
		{version: "Unreleased", want: "- next\n"},
		{version: "1.2.1", want: "- first\n"},
		{version: "1.2.2", err: `no section "## 1.2.2" with notes`},
		{version: "2.0.0", err: `no section "## 2.0.0"`},
		{version: "1.2", err: `no section "## 1.2"`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			got, err := Section(changelog, tc.version)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
