package rollout

import (
	"encoding/json"
	"fmt"
)

// RecordKey is the stack config key of a rollout's record.
const RecordKey = "gitops-fleet:rollout"

// The states of a Record.
const (
	// Running: the rollout has not finished; a new run resumes it.
	Running = "running"
	// Done: every wave runs the revision.
	Done = "done"
	// Failed: a wave failed its gate and went back to its last good revision; later waves never changed.
	Failed = "failed"
)

// Record is a rollout as the stack config keeps it (gitops-fleet:rollout, JSON).
type Record struct {
	// Field is the field of the clusters' entries the rollout moves: AddonsRepoRevision (also when empty, as records
	// before Kubernetes rollouts were) or KubernetesVersion.
	Field string `json:"field,omitempty"`
	// Revision is what is being rolled out: the add-ons repository commit, or the Kubernetes version.
	Revision string `json:"revision"`
	// LastGood is every cluster's revision (or version) before the rollout reached it, by cluster name: where a
	// failed wave of an add-ons revision goes back to.
	LastGood map[string]string `json:"lastGood"`
	// Wave is the wave the rollout is at (or ended at).
	Wave int `json:"wave"`
	// State is Running, Done or Failed.
	State string `json:"state"`
	// Held are the clusters that failed their gate within the failure threshold and went back to their last good
	// revision, with Argo CD's message: a resumed or later run of the same revision leaves them there.
	Held map[string]string `json:"held,omitempty"`
	// Cluster and Message are, for a failed rollout, the first cluster that failed its gate and Argo CD's message.
	Cluster string `json:"cluster,omitempty"`
	Message string `json:"message,omitempty"`
}

// field is r's Field, AddonsRepoRevision when empty.
func (r Record) field() string {
	if r.Field == "" {
		return AddonsRepoRevision
	}
	return r.Field
}

// parseRecord reads a record from its config value; "" is no record.
func parseRecord(value string) (*Record, error) {
	if value == "" {
		return nil, nil
	}
	var r Record
	if err := json.Unmarshal([]byte(value), &r); err != nil {
		return nil, fmt.Errorf("%s: %w", RecordKey, err)
	}
	return &r, nil
}

// value is r as its config value.
func (r Record) value() string {
	data, _ := json.Marshal(r) // a struct of strings, ints and a map of strings always marshals
	return string(data)
}
