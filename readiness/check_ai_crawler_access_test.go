package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aiCrawlerAccessEdges are the edge cases of the ai_crawler_access check.
func aiCrawlerAccessEdges(t testing.TB) []scanEdge {
	return []scanEdge{
		{
			// Lighthouse's SEO robots-txt audit fails on directives it does
			// not know; the check says so and keeps its verdict.
			name:  "robots.txt with directives Lighthouse flags",
			paths: map[string]http.HandlerFunc{"/robots.txt": text("text/plain", "User-agent: *\r\nAllow: /\r\nContent-Signal: search=yes\r\nAgentmap: /catalog.json\r\nLicense: https://shop.example/license.xml\r\nlicense: x # again\r\n# Agentmap: in a comment\r\n")},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass},
			check: func(t *testing.T, r *Report) {
				notes := checkByID(r, "ai_crawler_access").Receipt.Notes
				require.Len(t, notes, 2, "%q", notes)
				assert.Contains(t, notes[0], `robots.txt line 4: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "agentmap" as unknown; to keep that audit clean, advertise the AI catalog with a Link: </.well-known/ai-catalog.json>; rel="ai-catalog" response header`)
				assert.Contains(t, notes[1], `robots.txt line 5: Lighthouse's SEO robots-txt audit (13.5.0) fails the directive "license" as unknown (2 lines in all); to keep that audit clean, state the licence with a Link: <URL>; rel="license" response header`)
			},
		},
		{
			name:  "robots.txt fails on the server",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusServiceUnavailable)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictUnverified, "sitemap": VerdictPass},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "503")
			},
		},
		{
			// RFC 9309 Section 2.3.1.2: at least five redirects are followed for
			// robots.txt by a client that allows five.
			name:      "robots.txt behind five redirects",
			redirects: 5,
			paths: robotsRedirected("/r", text("text/plain", "User-agent: OAI-SearchBot\nDisallow: /\n"),
				http.StatusFound, http.StatusMovedPermanently, http.StatusFound, http.StatusFound, http.StatusFound),
			want: map[string]Verdict{"ai_crawler_access": VerdictPartial},
		},
		{
			// A request never raises the client's limit: the default
			// client follows three, and the scan says it could not read.
			name: "robots.txt behind four redirects with the default client",
			paths: robotsRedirected("/q", text("text/plain", "User-agent: *\nDisallow: /\n"),
				http.StatusFound, http.StatusFound, http.StatusFound, http.StatusFound),
			want: map[string]Verdict{"ai_crawler_access": VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "redirect")
			},
		},
		{
			// Section 2.3.1.2 lets a crawler take the file as unavailable past
			// five redirects; the scan could not read it, and says so.
			name:      "robots.txt behind six redirects",
			redirects: 5,
			paths: robotsRedirected("/s", text("text/plain", "User-agent: *\nDisallow: /\n"),
				http.StatusFound, http.StatusFound, http.StatusFound, http.StatusFound, http.StatusFound, http.StatusFound),
			want: map[string]Verdict{"ai_crawler_access": VerdictUnverified},
			check: func(t *testing.T, r *Report) {
				assert.Contains(t, checkByID(r, "ai_crawler_access").Receipt.Received, "redirect")
			},
		},
		{
			// RFC 9309 Section 2.3.1.3: a 4xx, 401 and 403 included, is
			// "unavailable": crawlers may access any resource.
			name:  "robots.txt refused with 403",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusForbidden)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass},
		},
		{
			name:  "robots.txt is missing",
			paths: map[string]http.HandlerFunc{"/robots.txt": status(http.StatusNotFound)},
			want:  map[string]Verdict{"ai_crawler_access": VerdictPass, "sitemap": VerdictPass},
		},
	}
}

// robotsRedirected serves /robots.txt through one redirect per code, to
// prefix1, prefix2 and so on, and answers the last of them with last.
func robotsRedirected(prefix string, last http.HandlerFunc, codes ...int) map[string]http.HandlerFunc {
	paths := map[string]http.HandlerFunc{}
	from := "/robots.txt"
	for i, code := range codes {
		to := fmt.Sprintf("%s%d", prefix, i+1)
		paths[from] = http.RedirectHandler(to, code).ServeHTTP
		from = to
	}
	paths[from] = last
	return paths
}
