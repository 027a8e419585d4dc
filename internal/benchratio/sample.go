package benchratio

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// OpenFiles counts the process's open file descriptors (Linux /proc), or
// returns -1 where it cannot tell.
func OpenFiles() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// HeapPeak samples the heap in use (runtime.MemStats.HeapInuse) every
// interval until the returned function is called, which returns the
// largest value seen. ReadMemStats stops the world, so an interval much
// under 20 ms slows what it measures.
func HeapPeak(interval time.Duration) (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}
