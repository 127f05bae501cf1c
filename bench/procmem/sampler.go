package procmem

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Process is what was seen of one process of the tree.
type Process struct {
	PID int
	// Label names what the process is (see Label).
	Label string
	// PeakRSS is the process's peak resident set size in bytes (VmHWM), as of the last sample.
	PeakRSS int64
	// CPU is the CPU time (user + system) the process had used, as of the last sample.
	CPU time.Duration
}

// Sampler polls /proc every interval for the descendants of a root process. Start it with Start and read the
// result with Stop.
type Sampler struct {
	root     int
	label    func(argv []string) string
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	seen     map[int]*Process
	peakTree int64
}

// ticksPerSecond is USER_HZ, the unit of utime and stime in /proc/<pid>/stat: 100 on every Linux ABI Go runs on.
const ticksPerSecond = 100

// Start samples root and its descendants every interval until Stop. label names a process from its argv;
// nil uses Label.
func Start(root int, interval time.Duration, label func(argv []string) string) *Sampler {
	if label == nil {
		label = Label
	}
	s := &Sampler{root: root, label: label, stop: make(chan struct{}), done: make(chan struct{}), seen: map[int]*Process{}}
	go func() {
		defer close(s.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop ends sampling and returns every process seen, in order of PID, and the peak of the tree's total
// resident memory over the samples (the sum of VmRSS of the processes alive at one sample).
func (s *Sampler) Stop() (procs []Process, peakTree int64) {
	close(s.stop)
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.seen {
		procs = append(procs, *p)
	}
	sortByPID(procs)
	return procs, s.peakTree
}

func (s *Sampler) sample() {
	parents, cpus := processes()
	var tree int64
	for pid := range parents {
		if !descends(pid, s.root, parents) {
			continue
		}
		hwm, rss, err := memoryOf(pid)
		if err != nil {
			continue // it exited between the listing and now
		}
		cpu := cpus[pid]
		tree += rss
		s.mu.Lock()
		p, ok := s.seen[pid]
		if !ok {
			p = &Process{PID: pid}
			s.seen[pid] = p
		}
		if !ok || isShell(p.Label) { // a wrapper script may have exec'd its program since
			p.Label = s.label(argvOf(pid))
		}
		p.PeakRSS = max(p.PeakRSS, hwm)
		p.CPU = max(p.CPU, cpu)
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.peakTree = max(s.peakTree, tree)
	s.mu.Unlock()
}

// processes are every process's parent and CPU time: one read of /proc/<pid>/stat per process gives both.
func processes() (parents map[int]int, cpus map[int]time.Duration) {
	parents, cpus = map[int]int{}, map[int]time.Duration{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, cpu, err := statOf(pid); err == nil {
			parents[pid], cpus[pid] = ppid, cpu
		}
	}
	return parents, cpus
}

// Descendants are the processes under root now (its children, theirs, and so on; not root), from /proc.
func Descendants(root int) []int {
	parents, _ := processes()
	var out []int
	for pid := range parents {
		if pid != root && descends(pid, root, parents) {
			out = append(out, pid)
		}
	}
	return out
}

func descends(pid, root int, parents map[int]int) bool {
	for range 64 { // process trees here are a few levels deep; the bound guards against PID reuse loops
		if pid == root {
			return true
		}
		ppid, ok := parents[pid]
		if !ok || ppid == 0 {
			return false
		}
		pid = ppid
	}
	return false
}

// statOf reads /proc/<pid>/stat ("pid (comm) state ppid ...", comm may hold spaces): the parent PID and the
// CPU time, utime+stime (fields 4, 14 and 15 in proc(5)).
func statOf(pid int) (ppid int, cpu time.Duration, err error) {
	fields, err := statFields(pid)
	if err != nil {
		return 0, 0, err
	}
	ppid, err = strconv.Atoi(fields[1])
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err != nil || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("/proc/%d/stat: bad ppid, utime or stime", pid)
	}
	return ppid, time.Duration(utime+stime) * time.Second / ticksPerSecond, nil
}

// statFields are the fields of /proc/<pid>/stat after "(comm)": fields[0] is the state (field 3 in proc(5)).
func statFields(pid int) ([]string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 13 {
		return nil, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields))
	}
	return fields, nil
}

// memoryOf reads VmHWM and VmRSS (kB) from /proc/<pid>/status, in bytes.
func memoryOf(pid int) (hwm, rss int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	found := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok || (key != "VmHWM" && key != "VmRSS") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/status %s: %w", pid, key, err)
		}
		if key == "VmHWM" {
			hwm = kb << 10
		} else {
			rss = kb << 10
		}
		found++
	}
	if found < 2 {
		return 0, 0, fmt.Errorf("/proc/%d/status: no VmHWM or VmRSS (a kernel thread or a zombie)", pid)
	}
	return hwm, rss, nil
}

func argvOf(pid int) []string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
}

// Label names a process by its program: the base name of argv[0] ("pulumi", "pulumi-resource-aws"), or for an
// interpreter (node, python, sh) the base name of the script it runs, after the interpreter's name
// ("node index.js").
func Label(argv []string) string {
	if len(argv) == 0 || argv[0] == "" {
		return "?"
	}
	name := filepath.Base(argv[0])
	switch {
	case strings.HasPrefix(name, "node"), strings.HasPrefix(name, "python"), name == "sh", name == "bash":
		for _, a := range argv[1:] {
			if !strings.HasPrefix(a, "-") {
				return name + " " + filepath.Base(a)
			}
		}
	}
	return name
}

func isShell(label string) bool {
	return strings.HasPrefix(label, "sh ") || strings.HasPrefix(label, "bash ")
}

func sortByPID(ps []Process) {
	slices.SortFunc(ps, func(a, b Process) int { return cmp.Compare(a.PID, b.PID) })
}

// Resident is the sum of the resident memory (VmRSS) of pids, in bytes; a process gone is counted as 0.
func Resident(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		if _, rss, err := memoryOf(pid); err == nil {
			total += rss
		}
	}
	return total
}
