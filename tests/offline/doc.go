// Package offline runs Pulumi programs through the real Pulumi CLI and engine, the real pulumi-resource-fleet
// plugin and the real pulumi-eks component provider, against the emulated cloud of tests/emulator: nothing but
// the cloud is emulated. `make demo`, the end-to-end tests (tests/e2e) and the benchmarks (bench/) use it.
//
// An Env is one isolated run: a work directory holding a file:// backend, PULUMI_HOME, the emulator's store and
// the offline network's CA; a PATH that puts the tool stand-ins (tests/emulator/tools: kubectl,
// pulumi-resource-eks), the emulator plugins and the aws stand-in (bin/emulator), the fleet plugin and the CLI
// (bin) first; and the proxy variables of the offline network. With Options.ControlPlanes, each EKS cluster the run
// creates has a real control plane (tests/controlplane) and the real Kubernetes provider (bin/kube) writes
// the Kubernetes objects. `make offline` builds everything an Env needs.
package offline
