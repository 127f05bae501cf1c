// Package gotestsum pins gotestsum (`make gotestsum`), which runs `go test` for `make test`: it prints each package's
// result and each failing test's output as it goes, and keeps the events (`go test -json`) from which
// tests/tools/slowest makes make test's closing table of the slowest tests and packages.
package gotestsum
