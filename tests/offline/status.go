package offline

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ProjectDir is where Stack keeps the project of projectDir (a directory with a Pulumi.yaml) for stack: its
// Pulumi.yaml with the run's plugins, and the stack's file.
func (e *Env) ProjectDir(projectDir, stack string) string {
	return filepath.Join(e.Dir, "projects", filepath.Base(projectDir)+"-"+stack)
}

// FleetStatus runs the fleet command (bin/fleet, make provider) as `fleet status -C <the stack's project> args...`,
// as a user would, in the run's environment: the CLI, backend, secrets provider and network (AWS, the control planes)
// the stack's operations use. It returns what the command printed.
func (e *Env) FleetStatus(projectDir, stack string, args ...string) ([]byte, error) {
	return e.Fleet(append([]string{"status", "-C", e.ProjectDir(projectDir, stack)}, args...)...)
}

// Fleet runs the fleet command (bin/fleet, make provider) with args in the run's environment, and returns what it
// printed to standard output; an error carries its standard error.
func (e *Env) Fleet(args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(e.Root, "bin", "fleet"), args...)
	cmd.Env = os.Environ()
	for k, v := range e.Vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("fleet %q: %w\n%s", args, err, stderr.String())
	}
	return out, nil
}
