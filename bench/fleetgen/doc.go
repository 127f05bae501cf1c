// Package fleetgen generates the stack config of a fleet of any size for the benchmarks: one hub and
// n-1 spokes, in regions taken round-robin from three, with VPC CIDRs that never overlap.
package fleetgen
