package service

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/agentweb/agentweb/readiness"
)

// startTime is the Last-Modified of the embedded files.
var startTime = time.Now()

// badge serves /badge/{host}.svg: the badge of the last finished scan of
// the site (readiness.Summary.Badge: its score on a colour by band). It
// sends an ETag of its bytes and a short Cache-Control, and 404 for a
// site never scanned here.
func (s *Service) badge(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("file"), ".svg")
	host, valid := normHost(name)
	if !ok || !valid {
		writeError(w, http.StatusNotFound, "not_found", "a badge is /badge/{host}.svg")
		return
	}
	sums, err := s.st.summaries(r.Context(), host, time.Now().Add(time.Hour), 1)
	if err != nil {
		s.storeRefusal(err).write(w)
		return
	}
	if len(sums) == 0 {
		writeError(w, http.StatusNotFound, "not_found", "this service has not scanned that site")
		return
	}
	svg := sums[0].Badge()
	sum := sha256.Sum256(svg)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(svg)
}

// trend returns the summaries of the scans of host finished before the
// given time, oldest first: a report's Trend.
func (s *Service) trend(r *http.Request, host string, before time.Time) []readiness.Summary {
	sums, err := s.st.summaries(r.Context(), host, before, maxHistory)
	if err != nil {
		s.log.Error("service: trend", "host", host, "err", err)
		return nil
	}
	for i, j := 0, len(sums)-1; i < j; i, j = i+1, j-1 {
		sums[i], sums[j] = sums[j], sums[i]
	}
	return sums
}

// decodeSummaries reads stored summaries, skipping any that do not decode.
func decodeSummaries(raw []string) []readiness.Summary {
	out := make([]readiness.Summary, 0, len(raw))
	for _, r := range raw {
		var s readiness.Summary
		if json.Unmarshal([]byte(r), &s) == nil {
			out = append(out, s)
		}
	}
	return out
}
