package docs

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// pages are the README, CONTRIBUTING.md, every Markdown page of docs/ and tests/README.md, relative to root.
func pages(t *testing.T) []string {
	t.Helper()
	out := []string{"README.md", "CONTRIBUTING.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rel)
	}
	if len(out) < 10 {
		t.Fatalf("docs/ has %d pages: the README's map names more", len(out)-2)
	}
	return append(out, filepath.Join("tests", "README.md"))
}

// link is a Markdown inline link of a page, outside code: its target and the line it is on.
type link struct {
	target string
	line   int
}

var (
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`^#{1,6} +(.*)$`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
)

// parse reads a page: its links outside fenced code and code spans, and the anchors of its headings as GitHub makes
// them (slug, and -1, -2, ... for repeats).
func parse(t *testing.T, page string) (links []link, anchors map[string]bool) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	anchors = map[string]bool{}
	seen := map[string]int{}
	fenced := false
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			a := slug(m[1])
			if k := seen[a]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", a, k)] = true
			} else {
				anchors[a] = true
			}
			seen[a]++
		}
		for _, m := range inlineLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			links = append(links, link{m[1], n})
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return links, anchors
}

// slug is GitHub's anchor of a heading: lower case, punctuation but hyphens and underscores dropped, spaces to
// hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// TestLinksResolve: every relative link of the README and docs/ names a file or directory inside the repository, and
// every anchor a heading of its page.
func TestLinksResolve(t *testing.T) {
	anchorsOf := map[string]map[string]bool{}
	linksOf := map[string][]link{}
	for _, p := range pages(t) {
		linksOf[p], anchorsOf[p] = parse(t, p)
	}
	checked := 0
	for _, p := range slices.Sorted(maps.Keys(linksOf)) {
		for _, l := range linksOf[p] {
			if strings.Contains(l.target, "://") || strings.HasPrefix(l.target, "mailto:") {
				continue
			}
			checked++
			file, anchor, _ := strings.Cut(l.target, "#")
			target := p
			if file != "" {
				target = filepath.Clean(filepath.Join(filepath.Dir(p), file))
				if target == ".." || strings.HasPrefix(target, "../") {
					t.Errorf("%s:%d: link %s: outside the repository, which a clone does not have", p, l.line, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, target)); err != nil {
					t.Errorf("%s:%d: link %s: no %s in the repository", p, l.line, l.target, target)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			anchors, ok := anchorsOf[target]
			if !ok {
				if !strings.HasSuffix(target, ".md") {
					t.Errorf("%s:%d: link %s: an anchor into %s, which is not Markdown", p, l.line, l.target, target)
					continue
				}
				_, anchors = parse(t, target)
				anchorsOf[target] = anchors
			}
			if !anchors[anchor] {
				t.Errorf("%s:%d: link %s: %s has no heading #%s", p, l.line, l.target, target, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the parser reads nothing")
	}
}

// TestREADMEIsTheFrontDoor: the README stays short (at most 200 lines) and links CONTRIBUTING.md and every page of
// docs/.
func TestREADMEIsTheFrontDoor(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	if n := strings.Count(readme, "\n"); n > 200 {
		t.Errorf("README.md has %d lines, want at most 200: move the detail into docs/", n)
	}
	for _, p := range pages(t)[1:] {
		target := "](" + filepath.ToSlash(p)
		if !strings.Contains(readme, target+")") && !strings.Contains(readme, target+"#") {
			t.Errorf("README.md does not link %s", p)
		}
	}
}

// TestRegistryFrontMatter: the two pages the Pulumi Registry reads open with front matter giving title, meta_desc
// and layout: package.
func TestRegistryFrontMatter(t *testing.T) {
	for _, p := range []string{"docs/_index.md", "docs/installation-configuration.md"} {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		front, _, ok := strings.Cut(strings.TrimPrefix(text, "---\n"), "\n---\n")
		if !strings.HasPrefix(text, "---\n") || !ok {
			t.Errorf("%s opens with no front matter (--- ... ---)", p)
			continue
		}
		for _, key := range []string{"title: ", "meta_desc: ", "layout: package"} {
			if !strings.Contains(front, key) {
				t.Errorf("%s's front matter has no %q", p, key)
			}
		}
	}
}
