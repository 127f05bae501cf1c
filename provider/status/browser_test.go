package status

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
)

// chromium is Debian's Chromium (package chromium), which .ci/run installs.
const chromium = "/usr/bin/chromium"

// TestHTMLInChromium opens the fixture's page in a real browser (headless Chromium through chromedp) and reads
// the matrix as it is shown: each cell's state, its colour as computed from the page's own style (nothing is
// loaded from elsewhere), and that following a failed cell's link shows that add-on's details with Argo CD's
// message. FLEET_STATUS_SCREENSHOT=<file.png> also writes a screenshot of the page there (the README's, with
// `make screenshot`).
func TestHTMLInChromium(t *testing.T) {
	if _, err := exec.LookPath(chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %v (.ci/run installs Debian's chromium)", chromium, err)
		}
		t.Skipf("%s is not installed (apt-get install chromium)", chromium)
	}
	page := filepath.Join(t.TempDir(), "status.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := HTML(f, fixture(t), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 700))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	// cell is what the browser shows of a matrix cell: its text and its computed background colour.
	type cell struct{ Text, Colour string }
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	matrix, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]map[string]cell](`(() => {
		const m = {};
		for (const tr of document.querySelectorAll('#matrix tr[data-cluster]')) {
			const row = m[tr.dataset.cluster] = {};
			for (const td of tr.querySelectorAll('td[data-addon]')) {
				row[td.dataset.addon] = {Text: td.innerText.trim(), Colour: getComputedStyle(td).backgroundColor};
			}
		}
		return m;
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	requests, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`performance.getEntriesByType('resource').map(e => e.name)`))
	if err != nil {
		t.Fatal(err)
	}
	screenshot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`tr[data-cluster="spoke-use2"] td[data-addon="metrics_server"] a`)); err != nil {
		t.Fatal(err)
	}
	details, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(location.hash).innerText`))
	if err != nil {
		t.Fatal(err)
	}
	green, yellow, red, grey, white := "rgb(200, 247, 197)", "rgb(253, 241, 184)", "rgb(248, 196, 196)", "rgb(228, 228, 228)", "rgb(255, 255, 255)"
	want := map[string]map[string]cell{
		"hub": {"aws_load_balancer_controller": {"unknown", grey}, "karpenter": {"-", white},
			"metrics_server": {"ok", green}},
		"spoke-use2": {"aws_load_balancer_controller": {"-", white}, "karpenter": {"progressing", yellow},
			"metrics_server": {"failed", red}},
		"spoke-usw2": {"aws_load_balancer_controller": {"-", white}, "karpenter": {"-", white},
			"metrics_server": {"ok", green}},
	}
	if d := cmp.Diff(want, matrix); d != "" {
		t.Errorf("the matrix as Chromium shows it (-want +got):\n%s", d)
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
