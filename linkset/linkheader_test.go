package linkset

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProfileLinkHeaderReadAndJudged: the profile carried in a Link header
// field with an unquoted rel and type, which RFC 8288 Section 3 refuses and
// its Appendix B reads, is found in every mode; a publisher is told the
// field strays from the grammar, a reader only notes it.
func TestProfileLinkHeaderReadAndJudged(t *testing.T) {
	n := newNetwork(t)
	d := parseVector(t, vectorFull)
	body := canonical(t, d)
	for _, tc := range []struct {
		name, link string
		grammar    bool
	}{
		{"quoted", `<` + ProfileURI + `>; rel="profile"`, true},
		{"unquoted URI", `<` + ProfileURI + `>; rel=profile; type=application/linkset+json`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n.Site("example.org", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", MediaType)
				w.Header().Set("Link", tc.link)
				w.Header().Set("ETag", `"1"`)
				w.Header().Set("Cache-Control", "no-cache")
				w.Header().Set("Access-Control-Allow-Origin", "*")
				w.Header().Set("Access-Control-Expose-Headers", "Link, ETag, Content-Type")
				_, _ = w.Write(body)
			}))
			for _, mode := range []Mode{ModePublisher, ModeReader} {
				f, err := Fetch(t.Context(), "https://example.org"+WellKnownPath, &FetchOptions{Client: n.Client(), Mode: mode})
				requireRead(t, f, err)
				assert.True(t, f.ProfileInLink, "Appendix B reads the profile link")
				assert.NotContains(t, rulesOf(f.Report.Problems), RuleProfileMissing)
				switch {
				case tc.grammar:
					assert.NotContains(t, append(rulesOf(f.Report.Problems), rulesOf(f.Report.Notices)...), RuleLinkHeaderSyntax)
				case mode == ModePublisher:
					assert.Contains(t, rulesOf(f.Report.Problems), RuleLinkHeaderSyntax)
				default:
					assert.NotContains(t, rulesOf(f.Report.Problems), RuleLinkHeaderSyntax)
					assert.Contains(t, rulesOf(f.Report.Notices), RuleLinkHeaderSyntax)
				}
			}
		})
	}
}
