// Package status is the state of a fleet at a glance, for `fleet status`: per cluster what its stack says (region,
// role, environment, Kubernetes version, the add-ons enabled, decommission) and what Argo CD on the hub says of each
// add-on's Application (sync and health), rendered as a table for a terminal, as JSON, or as one self-contained HTML
// page with a cluster x add-on matrix. A source that could not be read is shown as unknown, never as healthy.
package status
