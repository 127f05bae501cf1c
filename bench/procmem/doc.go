// Package procmem samples a process tree through Linux's /proc: for every process that descends from a root
// while it runs, its peak resident memory (VmHWM, which the kernel keeps, so a peak between two samples is not
// lost) and its CPU time (utime+stime), grouped by what the process is.
package procmem
