// Package upstream holds the pinned upstream files the offline runs and the tests read, by reference: Argo CD's
// chart 10.1.1 (with its redis-ha subchart), which the hubs install, and the CRDs and schemas of Argo CD, PKO, Kargo
// and Argo Rollouts at the versions the product pins, which the stand-in charts carry and the contract tests judge
// objects by. manifest.tsv names each file, its source (a commit of its repository on GitHub) and its SHA-256;
// nothing of the files themselves is committed. Dir gives a folder holding them all: a local copy where one is laid
// out (../shared/upstream beside the repository, or FLEET_UPSTREAM), otherwise a cache under .work filled from each
// file's source and checked against the manifest.
package upstream
