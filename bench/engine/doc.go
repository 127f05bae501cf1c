// Package engine measures Pulumi operations through the real CLI and engine on the offline cloud
// (tests/offline): a preview or an up of one program at one fleet size, in a child process whose whole tree
// (program, CLI, every plugin) is sampled for peak memory and CPU time.
//
// The programs (Impl) are the fleet (examples/fleet on the pulumi-fleet components), the floor (bench/floor:
// the same custom resources registered directly) and the peer (bench/peer: the same fleet written in
// TypeScript on @pulumi/eks and @pulumi/awsx, run by Node.js).
package engine
