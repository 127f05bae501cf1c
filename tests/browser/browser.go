// Package browser opens a `fleet status -html` page in a real browser, headless Chromium through chromedp, and reads
// what it shows: the cluster x add-on matrix as rendered (each cell's text and computed colour), the resources the
// page loaded, a screenshot, and the details a cell's link leads to. Debian's Chromium (package chromium) is the
// browser; .ci/run installs it. A test helper: product code never imports it.
package browser

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium is Debian's Chromium.
const Chromium = "/usr/bin/chromium"

// Cell is what the browser shows of a matrix cell: its text and its computed background colour ("rgb(r, g, b)").
type Cell struct{ Text, Colour string }

// Page is a page open in Chromium, closed when the test ends.
type Page struct {
	t   testing.TB
	ctx context.Context
}

// Open opens the page file in headless Chromium with no network, for the rest of t. Without Chromium the test is
// skipped, or fails in CI (CI set), where .ci/run installs it.
func Open(t testing.TB, file string) *Page {
	t.Helper()
	if _, err := exec.LookPath(Chromium); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s: %v (.ci/run installs Debian's chromium)", Chromium, err)
		}
		t.Skipf("%s is not installed (apt-get install chromium)", Chromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(Chromium), chromedp.NoSandbox,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 700))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancel(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	return &Page{t: t, ctx: ctx}
}

// Matrix is the matrix as shown: cluster (its row's data-cluster) -> add-on (its cell's data-addon) -> the cell.
func (p *Page) Matrix() map[string]map[string]Cell {
	return evaluate[map[string]map[string]Cell](p, `(() => {
		const m = {};
		for (const tr of document.querySelectorAll('#matrix tr[data-cluster]')) {
			const row = m[tr.dataset.cluster] = {};
			for (const td of tr.querySelectorAll('td[data-addon]')) {
				row[td.dataset.addon] = {Text: td.innerText.trim(), Colour: getComputedStyle(td).backgroundColor};
			}
		}
		return m;
	})()`)
}

// Connections are the matrix's Argo CD connection cells by cluster (td[data-connection]): text and background
// colour as shown.
func (p *Page) Connections() map[string]Cell {
	return evaluate[map[string]Cell](p, `(() => {
		const m = {};
		for (const tr of document.querySelectorAll('#matrix tr[data-cluster]')) {
			const td = tr.querySelector('td[data-connection]');
			if (td) m[tr.dataset.cluster] = {Text: td.innerText.trim(), Colour: getComputedStyle(td).backgroundColor};
		}
		return m;
	})()`)
}

// Requests are the URLs of every resource the page loaded.
func (p *Page) Requests() []string {
	return evaluate[[]string](p, `performance.getEntriesByType('resource').map(e => e.name)`)
}

// Screenshot is the whole page as a PNG.
func (p *Page) Screenshot() []byte {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	return png
}

// Follow clicks the link of the matrix cell of cluster and addon and returns the text of the details it leads to.
func (p *Page) Follow(cluster, addon string) string {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Click(`tr[data-cluster="`+cluster+`"] td[data-addon="`+addon+`"] a`)); err != nil {
		p.t.Fatal(err)
	}
	return evaluate[string](p, `document.querySelector(location.hash).innerText`)
}

func evaluate[T any](p *Page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}
