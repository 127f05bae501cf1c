package hotspots

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Pprof is the top n functions by flat CPU of a pprof profile, as `go tool pprof -top` prints them.
func Pprof(binary string, profiles []string, n int) ([]string, error) {
	args := append([]string{"tool", "pprof", "-top", fmt.Sprintf("-nodecount=%d", n), binary}, profiles...)
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go tool pprof %s: %w\n%s", strings.Join(profiles, " "), err, out)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i, l := range lines { // skip the header up to the column titles
		if strings.Contains(l, "flat%") {
			return lines[i:], nil
		}
	}
	return lines, nil
}

// v8Profile is the part of a V8 .cpuprofile (node --cpu-prof) read here.
type v8Profile struct {
	Nodes []struct {
		CallFrame struct {
			FunctionName string `json:"functionName"`
			URL          string `json:"url"`
			LineNumber   int    `json:"lineNumber"`
		} `json:"callFrame"`
		HitCount int `json:"hitCount"`
	} `json:"nodes"`
}

// V8 is the top n functions by self samples over every .cpuprofile in dir, with their share of the samples.
// Functions are named "function (file:line)", file relative to node_modules when it is under one.
func V8(dir string, n int) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.cpuprofile"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no .cpuprofile in %s (%v)", dir, err)
	}
	self := map[string]int{}
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var p v8Profile
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, node := range p.Nodes {
			cf := node.CallFrame
			name := cf.FunctionName
			if name == "" {
				name = "(anonymous)"
			}
			if cf.URL != "" {
				url := cf.URL
				if i := strings.LastIndex(url, "node_modules/"); i >= 0 {
					url = url[i+len("node_modules/"):]
				}
				name = fmt.Sprintf("%s (%s:%d)", name, url, cf.LineNumber+1)
			}
			self[name] += node.HitCount
			total += node.HitCount
		}
	}
	type entry struct {
		name string
		hits int
	}
	var entries []entry
	for name, hits := range self {
		entries = append(entries, entry{name, hits})
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Or(cmp.Compare(b.hits, a.hits), cmp.Compare(a.name, b.name)) })
	var out []string
	for _, e := range entries[:min(n, len(entries))] {
		out = append(out, fmt.Sprintf("%5.1f%%  %s", 100*float64(e.hits)/float64(max(total, 1)), e.name))
	}
	return out, nil
}
