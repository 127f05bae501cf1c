package offline

import (
	"bytes"
	"io"
	"regexp"
	"sync"
)

// ambientWarning is the engine's notice that it loaded a plugin from PATH, printed once per plugin load; in an
// offline run every plugin comes from PATH on purpose (that is how the emulators stand in for the real ones).
var ambientWarning = regexp.MustCompile(`warning: using pulumi-resource-[a-z]+ from \$PATH at `)

// Quiet wraps w so that lines with the engine's "using pulumi-resource-... from $PATH" warning are dropped;
// everything else passes through line by line.
func Quiet(w io.Writer) io.Writer { return &quiet{w: w} }

type quiet struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (q *quiet) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = append(q.buf, p...)
	for {
		i := bytes.IndexByte(q.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := q.buf[:i+1]
		if !ambientWarning.Match(line) {
			if _, err := q.w.Write(line); err != nil {
				return 0, err
			}
		}
		q.buf = q.buf[i+1:]
	}
}
