package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    options
		problem string
	}{
		{nil, options{dir: ".", eks: true, connection: true}, ""},
		{[]string{"-C", "fleet", "-stack", "hub", "-stack", "shard-eu", "-drift", "-eks=false", "-html", "s.html", "-watch", "30s"},
			options{dir: "fleet", stacks: stackList{"hub", "shard-eu"}, drift: true, html: "s.html", watch: 30 * time.Second, connection: true}, ""},
		{[]string{"-connection=false"}, options{dir: ".", eks: true}, ""},
		{[]string{"-connection=false", "-argocd-metrics", "http://localhost:8082/metrics"}, options{},
			"-argocd-metrics with -connection=false: choose one"},
		{[]string{"-failing", "-wave", "1", "-wave", "2", "-cluster", "spoke-a"},
			options{dir: ".", eks: true, connection: true, filter: status.Filter{Failing: true, Waves: []int{1, 2}, Clusters: []string{"spoke-a"}}}, ""},
		{[]string{"-json", "-html", "s.html"}, options{}, "-json, -html and -addons: choose one"},
		{[]string{"-addons", "-json"}, options{}, "-json, -html and -addons: choose one"},
		{[]string{"-addons"}, options{dir: ".", eks: true, connection: true, addons: true}, ""},
		{[]string{"-watch", "1s", "extra"}, options{}, `unexpected arguments ["extra"]; -watch 1s: at least 5s`},
		{[]string{"-argocd-metrics", "http://localhost:8082/metrics", "-argocd-metrics", "https://shard-1:8082/metrics"},
			options{dir: ".", eks: true, connection: true, metrics: stackList{"http://localhost:8082/metrics", "https://shard-1:8082/metrics"}}, ""},
		{[]string{"-argocd-metrics", "localhost:8082", "-argocd-metrics", "ftp://h/metrics"}, options{},
			`-argocd-metrics "localhost:8082": an http or https URL (http://localhost:8082/metrics); ` +
				`-argocd-metrics "ftp://h/metrics": an http or https URL (http://localhost:8082/metrics)`},
	} {
		var out strings.Builder
		got, err := parse(tc.args, &out)
		if tc.problem != "" {
			if err == nil || err.Error() != tc.problem || !strings.Contains(out.String(), tc.problem) {
				t.Errorf("%q: error %v, printed %q; want %q", tc.args, err, out.String(), tc.problem)
			}
			continue
		}
		if err != nil || got.dir != tc.want.dir || got.stacks.String() != tc.want.stacks.String() || got.drift != tc.want.drift ||
			got.eks != tc.want.eks || got.html != tc.want.html || got.watch != tc.want.watch || got.json != tc.want.json ||
			got.addons != tc.want.addons || got.metrics.String() != tc.want.metrics.String() || got.connection != tc.want.connection ||
			!reflect.DeepEqual(got.filter, tc.want.filter) {
			t.Errorf("%q: %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	if _, err := parse([]string{"-wave", "-1"}, io.Discard); err == nil {
		t.Error("-wave -1: want an error")
	}
	if _, err := parse([]string{"-h"}, io.Discard); err == nil {
		t.Error("-h: want flag.ErrHelp")
	}
}

// TestWatchRewritesThePage: under -watch the page is written again each round, whole (through a temporary file
// renamed into place, none left behind) and reloading itself, until the context ends; a project that cannot be read
// is reported as unreachable every round.
func TestWatchRewritesThePage(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "status.html")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	var out strings.Builder
	if err := runStatus(ctx, options{dir: dir, html: page, watch: time.Second}, &out); err != nil {
		t.Fatal(err)
	}
	if rounds := strings.Count(out.String(), page+": 0 clusters, 1 unreachable sources"); rounds < 2 {
		t.Errorf("%d rounds in 4 s every second:\n%s", rounds, out.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `<meta http-equiv="refresh" content="1">`) || !strings.Contains(string(data), "<h2>Unreachable</h2>") {
		t.Errorf("the watched page:\n%s", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the page's directory holds %d files, want the page only", len(entries))
	}
}
