package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// CPUProfileEnv names the environment variable that, when set to a path, makes the plugin write a CPU profile
// (pprof) of its whole life there; "{pid}" in the path becomes the process ID, so that the several plugin
// processes of one run (a Fleet's ledger has a provider of its own) write a file each. The engine stops plugins
// with SIGINT, so the profile is finished on SIGINT or SIGTERM as well as on a normal exit. `make bench` uses
// it; read the files with `go tool pprof` (which merges several).
const CPUProfileEnv = "PULUMI_FLEET_CPU_PROFILE"

// startProfile starts the CPU profile CPUProfileEnv asks for, if any, and returns the function that finishes it.
func startProfile() (stop func(), err error) {
	path := os.Getenv(CPUProfileEnv)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(strings.ReplaceAll(path, "{pid}", strconv.Itoa(os.Getpid())))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CPUProfileEnv, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", CPUProfileEnv, err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		})
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		stop()
		os.Exit(0)
	}()
	return stop, nil
}
