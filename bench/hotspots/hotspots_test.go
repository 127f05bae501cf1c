package hotspots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestV8SumsSelfSamplesAcrossFilesAndRanksThem(t *testing.T) {
	dir := t.TempDir()
	profile := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	profile("a.cpuprofile", `{"nodes":[
		{"callFrame":{"functionName":"(idle)","url":"","lineNumber":-1},"hitCount":10},
		{"callFrame":{"functionName":"serialize","url":"file:///w/node_modules/@pulumi/pulumi/runtime/rpc.js","lineNumber":99},"hitCount":30}]}`)
	profile("b.cpuprofile", `{"nodes":[
		{"callFrame":{"functionName":"serialize","url":"file:///w/node_modules/@pulumi/pulumi/runtime/rpc.js","lineNumber":99},"hitCount":30},
		{"callFrame":{"functionName":"","url":"file:///w/x.js","lineNumber":0},"hitCount":30}]}`)
	got, err := V8(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{" 60.0%  serialize (@pulumi/pulumi/runtime/rpc.js:100)", " 30.0%  (anonymous) (file:///w/x.js:1)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("V8 = %q, want %q", got, want)
	}
	if _, err := V8(t.TempDir(), 3); err == nil {
		t.Error("V8 of a directory without profiles: want an error")
	}
}
