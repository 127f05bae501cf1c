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

// lock is what the file backend writes into a stack's lock (pulumi/pkg/v3 backend/diy lockContent).
type lock struct {
	Pid      int    `json:"pid"`
	Hostname string `json:"hostname"`
}

// ClearStaleLocks removes the locks of stack in the Env's file backend (.pulumi/locks/<org>/<project>/<stack>)
// whose process is gone: written on this host by a process that no longer runs, as a `make demo` killed during
// `up` leaves behind. Every later run would otherwise fail with "the stack is currently locked", and the
// `pulumi cancel` the message advises needs the CLI, backend and passphrase of the runner. A lock of a live
// process, or of another host, stays. It returns the paths it removed.
func (e *Env) ClearStaleLocks(stack string) ([]string, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(e.Dir, "state", ".pulumi", "locks")
	var removed []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		var l lock
		if err := json.Unmarshal(data, &l); err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		if l.Hostname != host || l.Pid <= 0 || alive(l.Pid) {
			return nil
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		removed = append(removed, path)
		return nil
	})
	return removed, err
}

// alive says whether process pid runs (signal 0 reaches it, or it exists but belongs to another user).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
