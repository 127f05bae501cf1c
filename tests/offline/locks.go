package offline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Lock is one lock of a stack in the Env's file backend (.pulumi/locks/<org>/<project>/<stack>/<id>.json), with what
// the backend writes into it (pulumi/pkg/v3 backend/diy lockContent): the process that holds it and its host.
type Lock struct {
	Path     string `json:"-"`
	Pid      int    `json:"pid"`
	Hostname string `json:"hostname"`
}

// Locks are the locks of stack in the Env's file backend; none while no operation holds it.
func (e *Env) Locks(stack string) ([]Lock, error) {
	var locks []Lock
	err := filepath.WalkDir(filepath.Join(e.Dir, "state", ".pulumi", "locks"), func(path string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return err
		case d.IsDir() || filepath.Base(filepath.Dir(path)) != stack || filepath.Ext(path) != ".json":
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		l := Lock{Path: path}
		if err := json.Unmarshal(data, &l); err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		locks = append(locks, l)
		return nil
	})
	return locks, err
}

// ClearStaleLocks removes the locks of stack in the Env's file backend whose process is gone: written on this host
// by a process that no longer runs, as a `make demo` killed during `up` leaves behind. Every later run would
// otherwise fail with "the stack is currently locked", and the `pulumi cancel` the message advises needs the CLI,
// backend and passphrase of the runner. A lock of a live process, or of another host, stays. It returns the paths
// it removed.
func (e *Env) ClearStaleLocks(stack string) ([]string, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	locks, err := e.Locks(stack)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, l := range locks {
		if l.Hostname != host || l.Pid <= 0 || alive(l.Pid) {
			continue
		}
		if err := os.Remove(l.Path); err != nil {
			return removed, err
		}
		removed = append(removed, l.Path)
	}
	return removed, nil
}

// alive says whether process pid runs (signal 0 reaches it, or it exists but belongs to another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
