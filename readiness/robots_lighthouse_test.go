package readiness

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The directives Lighthouse 13.5.0's robots-txt audit accepts raise no note;
// any other does, once, with its header alternative where there is one.
func TestLighthouseRobotsNotes(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"every safelisted directive", "User-agent: *\nDisallow: /a\nAllow: /\nSitemap: https://x.example/s.xml\nCrawl-delay: 1\nClean-param: a\nHost: x.example\nRequest-rate: 1/5\nVisit-time: 0600-0845\nNoindex: /b\nCONTENT-SIGNAL: search=yes\n", nil},
		{"comments and blank lines", "# Agentmap: /x\n\n   \nUser-agent: *\n", nil},
		{"a line without a colon is not a directive", "Agentmap /x\n", nil},
		{"Content-Usage", "User-agent: *\nContent-Usage: train-ai=n\n", []string{`line 2: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "content-usage" as unknown; to keep that audit clean, send the same preferences as a Content-Usage response header`}},
		{"an unknown directive with no alternative", "\rX-Robots: 1\r", []string{`line 2: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "x-robots" as unknown`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lighthouseRobotsNotes([]byte(tc.body))
			assert.Len(t, got, len(tc.want), "%q", got)
			for i := range min(len(got), len(tc.want)) {
				assert.Contains(t, got[i], tc.want[i])
			}
		})
	}
	t.Run("only the directives asked for", func(t *testing.T) {
		got := lighthouseRobotsNotes([]byte("Agentmap: /a\nContent-Usage: train-ai=n\n"), "content-usage")
		assert.Len(t, got, 1)
		assert.Contains(t, got[0], `"content-usage"`)
	})
	t.Run("bounded", func(t *testing.T) {
		var b strings.Builder
		for i := range 5000 {
			fmt.Fprintf(&b, "D%d: x\n", i)
		}
		got := lighthouseRobotsNotes([]byte(b.String()))
		assert.Len(t, got, maxLighthouseNotes)
	})
}

func FuzzLighthouseRobotsNotes(f *testing.F) {
	f.Add([]byte("User-agent: *\nAgentmap: /a\nLicense: b\n"))
	f.Add([]byte("\r\r:\n#:"))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := lighthouseRobotsNotes(body)
		assert.LessOrEqual(t, len(got), maxLighthouseNotes)
	})
}
