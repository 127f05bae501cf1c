// Package docinclude keeps the programs in the Markdown docs identical to the example files they come from. A
// fenced code block right after a line `<!-- include: <path> -->` holds the file at path (relative to the
// repository root) as it is: Refresh rewrites those blocks (`make docs`), and Problems reports an included block
// that differs from its file and a program (a block in one of ProgramFences, or a Pulumi YAML program) pasted
// without a marker, which tests/docs fails on.
package docinclude
