package coldstart

import (
	"strings"
	"testing"
)

func TestMeasureReportsAPluginThatPrintsNoPort(t *testing.T) {
	_, err := Measure("/bin/true", 3)
	if err == nil || !strings.Contains(err.Error(), "reading the plugin's port") {
		t.Errorf("Measure of a plugin that exits at once = %v, want the missing port reported", err)
	}
}
