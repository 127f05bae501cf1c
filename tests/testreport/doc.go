// Command testreport ends `make test` with its cost: the slowest packages and tests, in seconds, from the events of
// every `go test -json` run of make test (gotestsum's --jsonfile), and the wall time of each step of make test (one
// `<step> <seconds>` line each in the steps file). A test's wait for a run of the harness (fleettest.WaitedFor) is
// taken off its time, as Go does for a parallel test's wait for its turn. The figures are measurements for the
// reader, never a test: the budget is in CONTRIBUTING.md.
//
//	testreport [-n 15] [-steps steps.txt] events.json|folder...
//
// A folder stands for the .json files in it; a missing file or folder is no error (a step that failed before it
// ran its tests).
package main
