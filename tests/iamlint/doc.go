// Package iamlint runs every IAM policy the fleet can write through two outside linters, parliament and
// cloudsplaining (Python, from PyPI at the versions of tests/tools/iamlint/requirements.txt, which `make iamlint`
// installs): each add-on's inline policy for each version range, the trust policies, and the node, hub, capability,
// interruption-queue and secrets-key policies. Every finding is either fixed or listed in Accepted with its
// upstream source; the test fails on a finding not listed and on a listed one that no longer shows.
package iamlint
