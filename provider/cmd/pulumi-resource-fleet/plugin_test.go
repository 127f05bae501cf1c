package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/bench/coldstart"
	"github.com/gitops-fleet/pulumi-fleet/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"
)

const stampedVersion = "9.8.7"

// binDir holds the plugin the tests and benchmarks of this package share; TestMain removes it.
var (
	binDir    string
	buildOnce sync.Once
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildPlugin compiles the plugin with a version stamp, once for every test and benchmark of the run.
func buildPlugin(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "pulumi-resource-fleet-"); buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "pulumi-resource-fleet"),
			"-ldflags", "-X github.com/gitops-fleet/pulumi-fleet/provider.version="+stampedVersion, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return filepath.Join(binDir, "pulumi-resource-fleet")
}

// checkCommittedSchema fails the test when served, a schema as the plugin answers it, is not schema.json.
func checkCommittedSchema(t *testing.T, served []byte, source string) {
	t.Helper()
	got, err := provider.Normalize(served)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s gives a schema other than schema.json; run `make schema`", source)
	}
}

// startPlugin runs the plugin as the engine does, reads the port it prints and connects to it.
func startPlugin(tb testing.TB, bin string) (pulumirpc.ResourceProviderClient, func()) {
	tb.Helper()
	client, stop, err := coldstart.Start(bin, os.Stderr)
	if err != nil {
		tb.Fatal(err)
	}
	return client, stop
}

func TestPluginServesInfoAndSchema(t *testing.T) {
	client, stop := startPlugin(t, buildPlugin(t))
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	info, err := client.GetPluginInfo(ctx, &emptypb.Empty{})
	if err != nil {
		t.Fatalf("GetPluginInfo: %v", err)
	}
	if info.GetVersion() != stampedVersion {
		t.Errorf("version = %q, want the stamped %q", info.GetVersion(), stampedVersion)
	}
	resp, err := client.GetSchema(ctx, &pulumirpc.GetSchemaRequest{})
	if err != nil {
		t.Fatalf("GetSchema: %v", err)
	}
	checkCommittedSchema(t, []byte(resp.GetSchema()), "the plugin's GetSchema")
	if !strings.Contains(resp.GetSchema(), `"version": "`+stampedVersion+`"`) &&
		!strings.Contains(resp.GetSchema(), `"version":"`+stampedVersion+`"`) {
		t.Errorf("the served schema does not carry the plugin version %s", stampedVersion)
	}
}

func TestPluginWritesACPUProfileWhenStoppedLikeTheEngineDoes(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "fleet.pprof")
	cmd := exec.Command(buildPlugin(t))
	cmd.Env = append(os.Environ(), CPUProfileEnv+"="+profile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil { // the port: it is serving
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("plugin exit after SIGINT: %v", err)
	}
	data, err := os.ReadFile(profile)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b { // pprof files are gzipped protobuf
		t.Errorf("%s is not a finished pprof profile (%d bytes, %v)", profile, len(data), err)
	}
}
