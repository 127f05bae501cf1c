// Package spokegen makes the cluster secrets of a production fleet at any size, as GitOpsBridge writes them for
// its spokes, for the tests that prove the hub's guards at 200 spokes: on Kubernetes' admission code
// (tests/contract) and on a real API server (tests/e2e).
package spokegen
