package offline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// noAutomaticLogs turns the Pulumi CLI's automatic logging off for the runs whose PULUMI_HOME is home.
//
// Since pulumi/pulumi#23731 every CLI command writes a debug log of everything the engine does, at every
// verbosity, gzip'd and then encrypted with the stack's secrets provider, to $PULUMI_HOME/logs; no flag or
// variable turns it off. In the end-to-end tests it took about a fifth of the CLI's CPU (TestDay2, `perf record`:
// slog's JSON handler, gzip and AES-GCM under every logging.V call).
// The CLI skips it when it cannot make that folder (pkg/logging's StartLogging: "automatic logging unavailable",
// logged below the default verbosity), so an empty file of that name stands where the folder would be. A home that
// already has the folder (an Env made before this) keeps logging. TestNoAutomaticLogs runs the pinned CLI both ways.
func noAutomaticLogs(home string) error {
	f, err := os.OpenFile(filepath.Join(home, "logs"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}
