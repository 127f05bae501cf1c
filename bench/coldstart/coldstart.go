package coldstart

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Start runs the plugin binary, reads the port it prints on its first line and connects to it. stop closes the
// connection and kills the plugin. The plugin's stderr goes to stderr (nil: discarded).
func Start(bin string, stderr io.Writer) (client pulumirpc.ResourceProviderClient, stop func(), err error) {
	cmd := exec.Command(bin)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	kill := func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	port, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		kill()
		return nil, nil, fmt.Errorf("reading the plugin's port: %w", err)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(port), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		kill()
		return nil, nil, err
	}
	return pulumirpc.NewResourceProviderClient(conn), func() { _ = conn.Close(); kill() }, nil
}

// Result is the spread of runs cold starts.
type Result struct {
	Runs                  int
	Min, Median, P90, Max time.Duration
}

// Measure starts bin runs times, each to its first GetSchema answer, one after another.
func Measure(bin string, runs int) (Result, error) {
	times := make([]time.Duration, 0, runs)
	for range runs {
		start := time.Now()
		client, stop, err := Start(bin, nil)
		if err != nil {
			return Result{}, err
		}
		_, err = client.GetSchema(context.Background(), &pulumirpc.GetSchemaRequest{})
		elapsed := time.Since(start)
		stop()
		if err != nil {
			return Result{}, fmt.Errorf("GetSchema: %w", err)
		}
		times = append(times, elapsed)
	}
	slices.Sort(times)
	at := func(q float64) time.Duration { return times[min(len(times)-1, int(q*float64(len(times))))] }
	return Result{Runs: runs, Min: times[0], Median: at(0.5), P90: at(0.9), Max: times[len(times)-1]}, nil
}
