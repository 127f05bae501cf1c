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

	"github.com/gitops-fleet/pulumi-fleet/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
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
	cmd := exec.Command(bin)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	port, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		tb.Fatalf("reading the plugin's port: %v", err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		_ = cmd.Process.Kill()
		tb.Fatal(err)
	}
	return pulumirpc.NewResourceProviderClient(conn), func() {
		_ = conn.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
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

// BenchmarkColdStart measures exec of the plugin to its first GetSchema answer (target: median under 100 ms).
func BenchmarkColdStart(b *testing.B) {
	bin := buildPlugin(b)
	b.ResetTimer()
	for b.Loop() {
		client, stop := startPlugin(b, bin)
		if _, err := client.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		stop()
		b.StartTimer()
	}
}
