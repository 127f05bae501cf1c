// Package report turns a benchmark session into bench/results: report.md (tables, targets, where the time
// goes), results.csv (one row per measured operation) and walltime.png (wall time against fleet size for the
// fleet, the floor and the peer, drawn with gonum.org/v1/plot).
package report
