package rollout

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// TestStatusReadsTheRecord: fleet status reads the record (status.Rollout) under the key and in the shape Run writes.
func TestStatusReadsTheRecord(t *testing.T) {
	if RecordKey != status.RolloutKey {
		t.Errorf("Run records under %s, fleet status reads %s", RecordKey, status.RolloutKey)
	}
	for _, field := range []string{"", KubernetesVersion} {
		rec := Record{Field: field, Revision: good, LastGood: map[string]string{"hub": old}, Wave: 2, State: Failed,
			Cluster: "stage-a", Message: "refused"}
		var got status.Rollout
		if err := json.Unmarshal([]byte(rec.value()), &got); err != nil {
			t.Fatal(err)
		}
		want := status.Rollout{Field: field, Revision: good, Wave: 2, State: Failed, Cluster: "stage-a", Message: "refused"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("fleet status reads (-want +got):\n%s", diff)
		}
		if s := got.String(); (field == KubernetesVersion) != strings.HasPrefix(s, "Kubernetes ") {
			t.Errorf("fleet status says %q of a rollout of field %q", s, field)
		}
	}
}
