package readiness

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// contentSignalsCases are the cases of the content_signals observation.
func contentSignalsCases(t testing.TB) []observationCase {
	return []observationCase{
		{name: "signals: per user-agent group", id: "content_signals",
			paths: map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "User-agent * — Content-Signal: ai-input=yes, ai-train=no, search=yes; Content-Usage: train-ai=n")
			}},
		{name: "signals: none in robots.txt", id: "content_signals", want: ObservationAbsent,
			check: func(t *testing.T, o Observation) {
				assert.Equal(t, "absent: robots.txt has no Content-Signal or Content-Usage line, and no page read answered with either header", o.Receipt.Received)
			}},
		{name: "signals: a Content-Signal response header, without robots.txt lines", id: "content_signals",
			paths: map[string]http.HandlerFunc{"/": withHeaders(text("text/html", signalsPage), "Content-Signal", "ai-train=yes, search=yes, ai-input=yes")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "header of https://shop.example/ — Content-Signal: ai-input=yes, ai-train=yes, search=yes")
				assert.Empty(t, o.Receipt.Notes)
			}},
		{name: "signals: robots.txt and a header disagree: the stricter is read, and said", id: "content_signals",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: *\nContent-Signal: search=yes, ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n"),
				"/":           withHeaders(text("text/html", signalsPage), "Content-Signal", "ai-train=yes, search=yes", "Content-Usage", "train-ai=y, search=y"),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "robots.txt: User-agent * — Content-Signal: ai-train=no, search=yes")
				assert.Contains(t, o.Receipt.Received, "header of https://shop.example/ — Content-Signal: ai-train=yes, search=yes; Content-Usage: search=y, train-ai=y")
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, "Content-Signal ai-train: robots.txt (User-agent *) says no, the header of https://shop.example/ says yes; the texts are silent on which wins")
				assert.Contains(t, notes, "this reader takes the stricter, no")
				assert.Contains(t, notes, "Content-Usage train-ai: robots.txt (User-agent *) says n, the header of https://shop.example/ says y")
				assert.NotContains(t, notes, "Content-Signal search:", "where both agree there is nothing to say")
				assert.Contains(t, notes, `robots.txt line 3: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "content-usage" as unknown`)
			}},
		{name: "signals: malformed header values", id: "content_signals",
			paths: map[string]http.HandlerFunc{"/": withHeaders(text("text/html", signalsPage), "Content-Signal", "ai-train=perhaps", "Content-Usage", "/x train-ai=n")},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, `the Content-Signal header of https://shop.example/: ai-train="perhaps": the value must be yes or no`)
				assert.Contains(t, notes, "the Content-Usage header of https://shop.example/: a path in a header field")
			}},
		{name: "signals: malformed values", id: "content_signals",
			paths: map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "Content-Signal: ai-train=no\nUser-agent: *\nContent-Signal: search=maybe\nContent-Usage: train-ai=\"no\"\n")},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, "a preference line before any User-agent line applies to no crawler")
				assert.Contains(t, notes, `line 3 (Content-Signal): search="maybe": the value must be yes or no`)
				assert.Contains(t, notes, "line 4 (Content-Usage): train-ai: the value must be the token y or n")
			}},
		{name: "signals: a robots.txt of endless groups", id: "content_signals",
			paths: map[string]http.HandlerFunc{"/robots.txt": text("text/plain", strings.Repeat("User-agent: bot\nContent-Signal: search=yes\n", 12000))},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "longer than this reader keeps")
				assert.LessOrEqual(t, len(o.Receipt.Received), 64*310)
			}},
	}
}
