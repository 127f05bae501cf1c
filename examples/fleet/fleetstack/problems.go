package fleetstack

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with the stack config, at a config key such as gitops-fleet:clusters[1].vpcCidr.
type Problem struct {
	Key     string
	Message string
}

// Problems is every problem of a config, reported together.
type Problems []Problem

func (ps *Problems) add(key, format string, args ...any) {
	*ps = append(*ps, Problem{Key: key, Message: fmt.Sprintf(format, args...)})
}

func (ps *Problems) Error() string {
	lines := make([]string, len(*ps))
	for i, p := range *ps {
		lines[i] = fmt.Sprintf("  %s: %s", p.Key, p.Message)
	}
	return fmt.Sprintf("invalid stack config (%d problems; nothing was created):\n%s", len(*ps), strings.Join(lines, "\n"))
}

// err is nil when there are no problems.
func (ps *Problems) err() error {
	if len(*ps) == 0 {
		return nil
	}
	return ps
}
