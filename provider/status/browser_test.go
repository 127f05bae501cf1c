package status

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/tests/browser"
)

// TestHTMLInChromium opens the fixture's page in a real browser (headless Chromium through chromedp) and reads
// the matrix as it is shown: each cell's state, its colour as computed from the page's own style (nothing is
// loaded from elsewhere), and that following a failed cell's link shows that add-on's details with Argo CD's
// message. FLEET_STATUS_SCREENSHOT=<file.png> also writes a screenshot of the page there (the README's, with
// `make screenshot`). tests/e2e's TestStatus opens a live fleet's page the same way.
func TestHTMLInChromium(t *testing.T) {
	file := filepath.Join(t.TempDir(), "status.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := HTML(f, fixture(t), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	page := browser.Open(t, file)
	matrix, connections, requests, screenshot := page.Matrix(), page.Connections(), page.Requests(), page.Screenshot()
	details := page.Follow("spoke-use2", "metrics_server")
	cell := func(text, colour string) browser.Cell { return browser.Cell{Text: text, Colour: colour} }
	green, yellow, red, grey, white := "rgb(200, 247, 197)", "rgb(253, 241, 184)", "rgb(248, 196, 196)", "rgb(228, 228, 228)", "rgb(255, 255, 255)"
	blue := "rgb(197, 228, 247)"
	want := map[string]map[string]browser.Cell{
		"hub": {"aws_for_fluentbit": cell("stack", blue), "aws_load_balancer_controller": cell("unknown", grey),
			"karpenter": cell("-", white), "metrics_server": cell("ok", green)},
		"spoke-use2": {"aws_for_fluentbit": cell("-", white), "aws_load_balancer_controller": cell("-", white),
			"karpenter": cell("progressing", yellow), "metrics_server": cell("failed", red)},
		"spoke-usw2": {"aws_for_fluentbit": cell("-", white), "aws_load_balancer_controller": cell("-", white),
			"karpenter": cell("-", white), "metrics_server": cell("ok", green)},
	}
	if d := cmp.Diff(want, matrix); d != "" {
		t.Errorf("the matrix as Chromium shows it (-want +got):\n%s", d)
	}
	wantConnections := map[string]browser.Cell{"hub": cell("Successful", green), "spoke-use2": cell("Successful", green),
		"spoke-usw2": cell("Unknown", grey)}
	if d := cmp.Diff(wantConnections, connections); d != "" {
		t.Errorf("Argo CD's connections as Chromium shows them (-want +got):\n%s", d)
	}
	if len(requests) > 0 {
		t.Errorf("the page loaded %v", requests)
	}
	if wantDetails := "spoke-use2: metrics_server\n\nApplication addon-spoke-use2-metrics-server; sync OutOfSync, health Missing: " +
		"one or more objects failed to apply: chart metrics-server 9.9.9 not found"; details != wantDetails {
		t.Errorf("the failed cell's link shows %q, want %q", details, wantDetails)
	}
	if out := os.Getenv("FLEET_STATUS_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, screenshot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
