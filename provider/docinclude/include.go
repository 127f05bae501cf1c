package docinclude

import (
	"fmt"
	"slices"
	"strings"
)

// Marker opens an include line: `<!-- include: examples/api/fleet/index.ts -->`.
const Marker = "<!-- include: "

// ProgramFences are the code fence languages whose blocks are programs, which must be included, not pasted.
var ProgramFences = []string{"typescript", "ts", "javascript", "js", "python", "py", "go", "csharp", "cs", "java"}

// Reader reads a file by its path relative to the repository root.
type Reader func(path string) ([]byte, error)

// block is a fenced code block of a Markdown text: its fence language, the lines of its content (start and
// end, end exclusive, 0-based) and the file an include marker right before it names ("" without one).
type block struct {
	lang        string
	open, close int
	include     string
}

// blocks are the fenced code blocks of lines; an unclosed fence is an error.
func blocks(lines []string) ([]block, error) {
	var out []block
	for i := 0; i < len(lines); i++ {
		lang, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		b := block{lang: strings.TrimSpace(lang), open: i}
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				b.close = j
				break
			}
		}
		if b.close == 0 {
			return nil, fmt.Errorf("line %d: the code block is not closed", i+1)
		}
		if i > 0 {
			if path, ok := strings.CutPrefix(strings.TrimSpace(lines[i-1]), Marker); ok {
				b.include = strings.TrimSpace(strings.TrimSuffix(path, "-->"))
			}
		}
		out = append(out, b)
		i = b.close
	}
	return out, nil
}

// isProgram tells whether a block is a program: a ProgramFences language, or a Pulumi YAML program.
func isProgram(b block, lines []string) bool {
	if slices.Contains(ProgramFences, b.lang) {
		return true
	}
	return b.lang == "yaml" && slices.Contains(lines[b.open+1:b.close], "runtime: yaml")
}

// Refresh is md with each included block holding its file as it is.
func Refresh(md string, read Reader) (string, error) {
	lines := strings.Split(md, "\n")
	bs, err := blocks(lines)
	if err != nil {
		return "", err
	}
	var out []string
	last := 0
	for _, b := range bs {
		if b.include == "" {
			continue
		}
		src, err := read(b.include)
		if err != nil {
			return "", fmt.Errorf("line %d: %w", b.open, err)
		}
		out = append(out, lines[last:b.open+1]...)
		out = append(out, strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")...)
		last = b.close
	}
	out = append(out, lines[last:]...)
	return strings.Join(out, "\n"), nil
}

// Problems are what is wrong with md's programs, each with its line: a program block without an include marker,
// an included file that cannot be read, and an included block that differs from its file.
func Problems(md string, read Reader) []string {
	lines := strings.Split(md, "\n")
	bs, err := blocks(lines)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, b := range bs {
		switch {
		case b.include == "" && isProgram(b, lines):
			problems = append(problems, fmt.Sprintf("line %d: a %s program is pasted; put `%s<path> -->` before it "+
				"and run `make docs`, so that it is a tested example file", b.open+1, b.lang, Marker))
		case b.include != "":
			src, err := read(b.include)
			if err != nil {
				problems = append(problems, fmt.Sprintf("line %d: %v", b.open, err))
				continue
			}
			want := strings.TrimSuffix(string(src), "\n")
			if got := strings.Join(lines[b.open+1:b.close], "\n"); got != want {
				problems = append(problems, fmt.Sprintf("line %d: the block differs from %s; run `make docs`",
					b.open+1, b.include))
			}
		}
	}
	return problems
}
