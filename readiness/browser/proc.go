package browser

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// watchEvery is how often the watchdog reads the renderers' memory. A page
// that fills memory as fast as it can grows between two readings: the
// bound it may overshoot is on [Options].MaxRendererMemory.
const watchEvery = 50 * time.Millisecond

// pageSize is the unit of /proc/<pid>/statm.
var pageSize = int64(os.Getpagesize())

// watch kills every renderer process of the instance whose resident memory
// is over max, until the instance stops.
func (in *instance) watch(max int64) {
	defer close(in.watchDone)
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-in.ctx.Done():
			return
		case <-t.C:
		}
		for _, pid := range descendants(in.pid, "--type=renderer") {
			rss := residentBytes(pid)
			if rss <= max {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				in.killMu.Lock()
				if len(in.killed) > 1024 {
					clear(in.killed)
				}
				in.killed[pid] = rss
				in.killMu.Unlock()
			}
		}
	}
}

// killedAt returns the resident memory at which the watchdog killed the
// renderer pid, or 0.
func (in *instance) killedAt(pid int) int64 {
	in.killMu.Lock()
	defer in.killMu.Unlock()
	return in.killed[pid]
}

// residentBytes is the resident set size of pid, or 0.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(f[1], 10, 64)
	return n * pageSize
}

// processes maps every live process to its parent.
func processes() map[int]int {
	out := map[int]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[0] == "Z" {
			continue // a zombie holds nothing but its pid
		}
		ppid, _ := strconv.Atoi(f[1])
		out[pid] = ppid
	}
	return out
}

// descendants lists the live processes below root whose command line holds
// arg ("" for all).
func descendants(root int, arg string) []int {
	if root <= 0 {
		return nil
	}
	parent := processes()
	var out []int
	for pid := range parent {
		p := parent[pid]
		for range 16 {
			if p == root || p <= 1 {
				break
			}
			p = parent[p]
		}
		if p != root {
			continue
		}
		if arg != "" {
			cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if err != nil || !bytes.Contains(cmd, []byte(arg)) {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}

// pageRenderers lists the renderer processes below root that render web
// pages: not those of Chromium's own user interface (--top-chrome-webui).
func pageRenderers(root int) []int {
	var out []int
	for _, pid := range descendants(root, "--type=renderer") {
		cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err == nil && !bytes.Contains(cmd, []byte("--top-chrome-webui")) {
			out = append(out, pid)
		}
	}
	return out
}

// killLeftovers kills the processes whose command line names dir: Chromium
// passes --user-data-dir to every child. It stops when none is found three
// times in a row, or after 2 s.
func killLeftovers(dir string) {
	want := []byte(dir)
	self := os.Getpid()
	deadline := time.Now().Add(2 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		found := 0
		for pid := range processes() {
			if pid == self {
				continue
			}
			cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			if err == nil && bytes.Contains(cmd, want) {
				found++
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if found == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}

// removeOrphans removes the directories under tmp that Browsers of
// processes no longer running left. It kills the processes still using
// them first.
func removeOrphans(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, dirPrefix+"*"))
	for _, d := range dirs {
		rest := strings.TrimPrefix(filepath.Base(d), dirPrefix)
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		killLeftovers(d)
		_ = os.RemoveAll(d)
	}
}

// processAlive reports whether a process pid exists (and is no zombie).
func processAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || !bytes.HasPrefix(stat[i+1:], []byte(" Z"))
}
