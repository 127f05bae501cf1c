// Package bench holds `make bench`: what a fleet of 3, 15 or 45 EKS clusters costs to build, preview and
// deploy, measured side by side with the engine's floor and a TypeScript peer, and written up as a report
// (bench/results: markdown, CSV and a plot).
//
// The harness is bench/cmd/fleet-bench; the packages beside this file are its parts, one concept each.
package bench
