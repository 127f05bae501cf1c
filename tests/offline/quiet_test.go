package offline

import (
	"strings"
	"testing"
)

func TestQuietDropsOnlyAmbientPluginWarnings(t *testing.T) {
	in := []string{
		"Updating (dev):\n",
		"    pulumi:pulumi:Stack gitops-fleet-dev  warning: using pulumi-resource-aws from $PATH at /x/bin/emulator/pulumi-resource-aws\n",
		" +  aws:iam:Role hub-node-role created (0.1s)\n",
		"    warning: using pulumi-resource-eks from $PATH at /x/tests/emulator/tools/pulumi-resource-eks\n",
		"    warning: resource plugin kubernetes is expected to have version >=4.34.2, but has 4.33.0\n",
	}
	var out strings.Builder
	q := Quiet(&out)
	// Split writes mid-line, as a progress stream does.
	for _, s := range in {
		half := len(s) / 2
		if _, err := q.Write([]byte(s[:half])); err != nil {
			t.Fatal(err)
		}
		if _, err := q.Write([]byte(s[half:])); err != nil {
			t.Fatal(err)
		}
	}
	want := in[0] + in[2] + in[4]
	if out.String() != want {
		t.Errorf("Quiet passed\n%q\nwant\n%q", out.String(), want)
	}
}
