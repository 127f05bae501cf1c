// Package hotspots reads the profiles `make bench` takes at the largest fleet (a pprof CPU profile of
// pulumi-resource-fleet, V8 CPU profiles of the Node.js processes) and lists the functions that used the
// most CPU, so the report can say where the time goes.
package hotspots
