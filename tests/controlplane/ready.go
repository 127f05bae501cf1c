package controlplane

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// authenticatorLog is the authenticator's log, which kwokctl keeps with its components' (Dir/logs).
func (c Clusters) authenticatorLog(name string) string {
	return filepath.Join(c.Dir(name), "logs", "aws-iam-authenticator.log")
}

// authenticatorStarted waits until the control plane's authenticator says in its log (which kwokctl truncates
// whenever it starts it: runtime.ForkExec, v0.8) that it serves ("listening on") and, with the DynamicFile backend,
// that it has read the access file, after which it watches it at once (pkg/fileutil): until then an access write
// could be missed, and a token refused. kwokctl waits for the API server only; an authenticator that died (its port
// taken) fails here, with its log, instead of later as every token refused.
func (c Clusters) authenticatorStarted(ctx context.Context, name string) error {
	if !c.Authenticates(name) {
		return nil
	}
	_, err := os.Stat(c.accessFile(name))
	dynamicFile := err == nil
	deadline := time.Now().Add(time.Minute)
	for {
		data, _ := os.ReadFile(c.authenticatorLog(name))
		log := string(data)
		serving := strings.Contains(log, `msg="listening on `)
		loaded := !dynamicFile || strings.Contains(log, `msg="LoadDynamicFile: `)
		switch {
		case serving && loaded:
			return nil
		case strings.Contains(log, "level=fatal"), time.Now().After(deadline):
			return fmt.Errorf("control plane %s: its authenticator did not start; its log:\n%s", name, tail(log, 20))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
