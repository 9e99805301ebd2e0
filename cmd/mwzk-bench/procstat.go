package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times; it
// is 100 on every Linux the bench runs on.
const clockTicks = 100

// cpuSeconds is the user plus system CPU time of the processes, all their
// threads included (the JVM's too); a process that is gone counts 0.
func cpuSeconds(pids []int) float64 {
	var sum float64
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The command name may hold spaces: fields count after its ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseFloat(f[11], 64) // utime, field 14 of the whole line
		k, _ := strconv.ParseFloat(f[12], 64) // stime, field 15
		sum += (u + k) / clockTicks
	}
	return sum
}

// ownCPUSeconds is this process's CPU time: the load generator's.
func ownCPUSeconds() float64 { return cpuSeconds([]int{os.Getpid()}) }

// rssMiB is a process's resident set size, from /proc/<pid>/status.
func rssMiB(pid int) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("bench: rss of pid %d: %w", pid, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err != nil {
				return 0, fmt.Errorf("bench: rss of pid %d: %q: %w", pid, v, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("bench: rss of pid %d: no VmRSS line in /proc/%d/status", pid, pid)
}
