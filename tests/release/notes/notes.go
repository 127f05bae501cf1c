// Package notes reads a version's section of CHANGELOG.md.
package notes

import (
	"fmt"
	"strings"
)

// Section is the text of the section "## <version>" of changelog, trimmed, with a final newline: what the release
// of that version says. A missing or empty section is an error naming the version.
func Section(changelog, version string) (string, error) {
	heading := "## " + version
	var lines []string
	in := false
	for _, line := range strings.Split(changelog, "\n") {
		if strings.HasPrefix(line, "## ") {
			if in {
				break
			}
			in = strings.TrimSpace(line) == heading
			continue
		}
		if in {
			lines = append(lines, line)
		}
	}
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	if text == "" {
		return "", fmt.Errorf("CHANGELOG.md has no section %q with notes: rename \"## Unreleased\" to it before tagging v%s",
			heading, version)
	}
	return text + "\n", nil
}
