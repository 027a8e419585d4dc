package service

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// events streams a scan's progress as server-sent events (HTML Living
// Standard, "Server-sent events"). First come every progress event stored
// so far: a late subscriber gets what it missed, and a Last-Event-ID
// header skips what it had. Then new ones come as checks finish. Then one
// done or failed event carries the scan object, and the stream ends.
// Events come from the store, so a stream served by one instance follows
// a scan that another runs. A stream lasts at most maxStream and ends
// when the service closes.
func (s *Service) events(w http.ResponseWriter, r *http.Request) {
	row, ok := s.lookup(w, r)
	if !ok {
		return
	}
	after := 0
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			after = n
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_ = rc.Flush()

	ctx := r.Context()
	deadline := time.NewTimer(maxStream)
	defer deadline.Stop()
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	lastBeat := time.Now()
	for {
		// Subscribe before reading, so that no change is missed between.
		changed := s.changes()
		evs, err := s.st.events(ctx, row.ID, after, 500)
		if err != nil {
			return
		}
		for _, e := range evs {
			if _, err := w.Write([]byte("id: " + strconv.Itoa(e.Seq) + "\nevent: progress\ndata: " + e.Data + "\n\n")); err != nil {
				return
			}
			after = e.Seq
		}
		if len(evs) == 500 {
			continue
		}
		cur, err := s.st.get(ctx, row.ID)
		if err != nil {
			return
		}
		if cur.Status == statusDone || cur.Status == statusFailed {
			// The events written before the outcome are all stored by now:
			// the worker flushes them before it records the outcome.
			if more, err := s.st.events(ctx, row.ID, after, 500); err == nil && len(more) > 0 {
				continue
			}
			data, _ := json.Marshal(s.scanObject(cur, true))
			_, _ = w.Write([]byte("event: " + cur.Status + "\ndata: " + string(data) + "\n\n"))
			_ = rc.Flush()
			return
		}
		if len(evs) > 0 {
			_ = rc.Flush()
		} else if time.Since(lastBeat) > 15*time.Second {
			// A comment keeps proxies from closing an idle stream.
			if _, err := w.Write([]byte(": " + cur.Status + "\n\n")); err != nil {
				return
			}
			_ = rc.Flush()
			lastBeat = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case <-deadline.C:
			return
		case <-changed:
		case <-poll.C:
		}
	}
}
