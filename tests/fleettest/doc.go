// Package fleettest is the front door of the end-to-end harness: one Env per test (New) gives the test what it
// reaches, by name, through a few nouns:
//
//   - Stack(dir, name, program) and Fleet(name): a Pulumi stack through the real CLI and engine (Up, Preview,
//     Plan, Settled, Refresh, Destroy), and Apply of a day-2 Change: its edit, its exact plan, then an empty
//     preview, or one left to the next exact plan (SettledByNext);
//   - Cluster(name): an EKS cluster's real Kubernetes API server, with its kubeconfig and clients;
//   - Hub().ArgoCD(): Argo CD's own controllers on the hub;
//   - Git(): the repositories Argo CD reads, and the emulated GitHub's;
//   - Cloud(): the emulated AWS (its records, STS, the EKS Capabilities API).
//
// Underneath, an Env is an offline run (tests/offline) with a real control plane per EKS cluster
// (tests/controlplane). Every process the run starts carries the run's mark in its environment; the harness reaps
// them all when the test ends, and a reaper process does so when the test binary dies (a timeout's panic or a kill),
// and New sweeps what a dead run left (Reap).
package fleettest
