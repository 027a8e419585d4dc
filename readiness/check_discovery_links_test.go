package readiness

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestDiscoveryLinksReadsLinkFieldsAsRFC8288AppendixB: the scan reads a
// page's Link header fields as RFC 8288 Appendix B reads them (the
// algorithm for clients). A field with an unquoted media type is common on
// real sites, and the grammar of RFC 8288 Section 3 refuses it. It still
// announces llms.txt: straying from the grammar is a note, never a dropped
// header.
func TestDiscoveryLinksReadsLinkFieldsAsRFC8288AppendixB(t *testing.T) {
	llms := map[string]string{"/llms.txt": "# Shop\n\n> A shop.\n"}
	tests := []struct {
		name     string
		links    []string
		head     string
		want     Verdict
		received string
		note     string // a substring of a note ("" : no grammar note)
	}{
		{
			name:  "an unquoted media type, header only",
			links: []string{`</llms.txt>; rel=describedby; type=text/plain`},
			want:  VerdictPartial, received: "announced in the Link header only, not in the <head>", note: "RFC 8288 Appendix B",
		},
		{
			name:  "an unquoted media type, header and head",
			links: []string{`</llms.txt>; rel=describedby; type=text/plain`}, head: `<link rel="describedby" href="/llms.txt" type="text/plain">`,
			want: VerdictPass, received: "announced in the Link header and in the <head>", note: "RFC 8288 Appendix B",
		},
		{
			name:  "a quote inside the target and upper-case names",
			links: []string{`</x"y>; REL=preload, </.well-known/agents.json>; Rel=Alternate; Type=application/json`},
			want:  VerdictPartial, received: "announced in the Link header only, not in the <head>", note: "section 3",
		},
		{
			name:  "a field the grammar accepts has no note",
			links: []string{`</llms.txt>; rel="describedby"; type="text/plain"`},
			want:  VerdictPartial, received: "announced in the Link header only, not in the <head>",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", &docSite{links: tc.links, head: tc.head, docs: llms, types: map[string]string{"/llms.txt": "text/plain"}}, 5*time.Second)
			c := checkByID(r, "discovery_links")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
			assert.Equal(t, tc.received, c.Receipt.Received)
			joined := strings.Join(c.Receipt.Notes, "\n")
			if tc.note == "" {
				assert.NotContains(t, joined, "RFC 8288")
				return
			}
			assert.Contains(t, joined, tc.note)
		})
	}
}
