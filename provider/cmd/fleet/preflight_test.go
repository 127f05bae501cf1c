package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

func TestParsePreflight(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    preflightOptions
		problem string
	}{
		{[]string{"-stack", "aws"}, preflightOptions{dir: ".", stack: "aws"}, ""},
		{[]string{"-C", "fleet", "-events", "preview.log", "-json"}, preflightOptions{dir: "fleet", events: "preview.log", json: true}, ""},
		{[]string{"-events", "preview.log", "-policy"}, preflightOptions{dir: ".", events: "preview.log", policy: true}, ""},
		{nil, preflightOptions{}, "-stack or -events: give one"},
		{[]string{"-stack", "aws", "-json", "-policy", "extra"}, preflightOptions{}, `unexpected arguments ["extra"]; -policy and -json: choose one`},
	} {
		var out strings.Builder
		got, err := parsePreflight(tc.args, &out)
		if tc.problem != "" {
			if err == nil || err.Error() != tc.problem || !strings.Contains(out.String(), tc.problem) {
				t.Errorf("%q: error %v, printed %q; want %q", tc.args, err, out.String(), tc.problem)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
}

// TestPreflightPolicy reads an event log as `pulumi preview --event-log` writes it (one event a line) and writes the
// policy of its plan, with no AWS call.
func TestPreflightPolicy(t *testing.T) {
	log := filepath.Join(t.TempDir(), "events.json")
	var lines []string
	for _, e := range []apitype.EngineEvent{
		{Sequence: 1, PreludeEvent: &apitype.PreludeEvent{}},
		{Sequence: 2, ResourcePreEvent: &apitype.ResourcePreEvent{Metadata: apitype.StepEventMetadata{Op: apitype.OpCreate,
			URN: "urn:pulumi:aws::gitops-fleet::aws:sqs/queue:Queue::q", Type: "aws:sqs/queue:Queue",
			New: &apitype.StepEventStateMetadata{Inputs: map[string]any{"name": "q"}}}}},
	} {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(data))
	}
	if err := os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := runPreflight(t.Context(), preflightOptions{events: log, policy: true}, &out); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Statement []struct{ Sid string } }
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil || len(doc.Statement) != 1 || doc.Statement[0].Sid != "FleetSqs" {
		t.Errorf("policy %s (%v); want the queue's statement", out.String(), err)
	}
	if err := os.WriteFile(log, []byte("{not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := runPreflight(t.Context(), preflightOptions{events: log, policy: true}, &out); err == nil || !strings.Contains(err.Error(), ":1: not an engine event") {
		t.Errorf("a broken log: %v", err)
	}
}
