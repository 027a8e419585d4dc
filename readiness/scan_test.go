package readiness

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allPass is the verdict of every implemented check on the well-made site.
func allPass() map[string]Verdict {
	m := map[string]Verdict{}
	for _, id := range catalogueIDs() {
		m[id] = VerdictPass
	}
	// Never executed, on every site (method Section 07).
	m["mcp_tested_execution"] = VerdictUnverified
	for _, c := range Catalogue() {
		if c.Optional {
			m[c.ID] = VerdictOptional
		}
	}
	return m
}

func with(base map[string]Verdict, over map[string]Verdict) map[string]Verdict {
	out := map[string]Verdict{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// TestScanSites scans whole sites, each with faults, and compares every
// verdict of the catalogue. It tests the engine end to end, so it spans
// every check.
func TestScanSites(t *testing.T) {
	tests := []struct {
		name    string
		site    *testSite
		timeout time.Duration
		want    map[string]Verdict
		check   func(t *testing.T, r *Report)
	}{
		{
			name: "well-made site", site: &testSite{}, want: allPass(),
			check: func(t *testing.T, r *Report) {
				// Every section in full but Connect, which scores 18 of 20:
				// mcp_tested_execution is never verified (method Section 07).
				assert.InDelta(t, 98, r.Score, 1e-9)
				for _, sec := range r.Sections {
					want := sec.Points
					if sec.ID == SectionConnect {
						want = 18
					}
					assert.InDelta(t, want, sec.Score, 1e-9, sec.ID)
				}
				assert.Equal(t, []string{"https://shop.example/", "https://shop.example/about", "https://shop.example/products"}, r.Scope.Routes)
				assert.True(t, r.Ready, "all ten requirements are met")
				for _, q := range r.Requirements {
					assert.Equal(t, RequirementStatusPass, q.Status, q.ID)
				}
				assert.Equal(t, []string{"mcp_tested_execution"}, r.Unverified, "the only unverified check")
				assertSelfContained(t, r, r.HTML())
			},
		},
		{
			name: "empty SPA shell", site: &testSite{faults: []siteFault{spaShellOnly}},
			want: map[string]Verdict{
				// Every path answers the shell: no sitemap, llms.txt or card is HTML.
				"sitemap": VerdictFail, "llms_txt": VerdictFail, "capability_manifest": VerdictFail, "manifest_twins": VerdictNotApplicable,
				// An HTML robots.txt has no rules a crawler would obey: everything is allowed.
				"discovery_links": VerdictFail, "ai_crawler_access": VerdictPass,
				"language_and_canonical": VerdictFail, "structured_business_data": VerdictFail, "identity_node": VerdictFail,
				"content_freshness": VerdictNotApplicable, "page_metadata": VerdictPartial,
				"initial_html_content": VerdictFail, "markdown_representation": VerdictFail,
				"vary_accept": VerdictNotApplicable, "markdown_alternate_link": VerdictNotApplicable, "markdown_frontmatter": VerdictNotApplicable,
				// The shell's content is built by a script the scan does not
				// run: its actions could not be checked.
				"page_actions_declared": VerdictUnverified, "page_tool_quality": VerdictUnverified, "page_tool_permissions": VerdictUnverified,
				// /mcp is the shell too: no MCP endpoint, and no API.
				"backend_interface_declared": VerdictFail, "mcp_discovery": VerdictNotApplicable, "mcp_documented_access": VerdictNotApplicable,
				"mcp_signin_discovery": VerdictNotApplicable, "mcp_tested_execution": VerdictNotApplicable,
				"human_handoff": VerdictFail, "access_policy": VerdictFail, "auth_discovery": VerdictNotApplicable,
				"mcp_server_card": VerdictOptional, "a2a_agent_card": VerdictOptional, "api_catalog": VerdictOptional, "agentic_site_profile": VerdictOptional,
				"knowledge_linkset": VerdictOptional, "openagent_profile": VerdictOptional, "agent_signup": VerdictOptional, "dynamic_client_registration": VerdictOptional,
			},
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, []string{"https://shop.example/"}, r.Scope.Routes)
			},
		},
		{
			name: "ignores Accept: text/markdown", site: &testSite{faults: []siteFault{ignoresAccept}},
			want: with(allPass(), map[string]Verdict{
				// The announced alternate is missing too: no Markdown form at all.
				"markdown_representation": VerdictFail, "vary_accept": VerdictNotApplicable, "markdown_alternate_link": VerdictNotApplicable, "markdown_frontmatter": VerdictNotApplicable,
			}),
		},
		{
			name: "Markdown without Vary", site: &testSite{faults: []siteFault{noVary}},
			want: with(allPass(), map[string]Verdict{"markdown_representation": VerdictPartial, "vary_accept": VerdictFail}),
		},
		{
			name: "Markdown only at an announced alternate", site: &testSite{faults: []siteFault{markdownAlternateOnly}},
			want: with(allPass(), map[string]Verdict{"markdown_representation": VerdictPartial}),
		},
		{
			name: "front matter without a date", site: &testSite{faults: []siteFault{frontMatterNoDay}},
			want: with(allPass(), map[string]Verdict{"markdown_frontmatter": VerdictPartial}),
		},
		{
			name: "sitemap that is HTML", site: &testSite{faults: []siteFault{sitemapIsHTML}},
			want: with(allPass(), map[string]Verdict{"sitemap": VerdictFail}),
			check: func(t *testing.T, r *Report) {
				// No sitemap to choose routes from: the page's own links are used.
				assert.Equal(t, []string{"https://shop.example/", "https://shop.example/about", "https://shop.example/products"}, r.Scope.Routes)
			},
		},
		{
			name: "sitemap with foreign hosts", site: &testSite{faults: []siteFault{sitemapForeign}},
			want: with(allPass(), map[string]Verdict{"sitemap": VerdictPartial}),
		},
		{
			name: "robots.txt blocks search crawlers but not training ones",
			site: &testSite{robots: "User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml\n"},
			want: with(allPass(), map[string]Verdict{"ai_crawler_access": VerdictPartial}),
		},
		{
			name: "robots.txt blocks training crawlers but not search ones",
			site: &testSite{robots: "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nUser-agent: CCBot\nDisallow: /\n\n# a prefix of Claude-SearchBot and Claude-User: must not match them\nUser-agent: Claude\nDisallow: /\n\nUser-agent: *\nAllow: /\nSitemap: https://shop.example/sitemap.xml\n"},
			want: allPass(),
		},
		{
			name: "robots.txt blocks everyone",
			site: &testSite{robots: "User-agent: *\nDisallow: /\nCrawl-delay: soon\n"},
			want: with(allPass(), map[string]Verdict{"ai_crawler_access": VerdictFail}),
		},
		{
			name: "twin agents.json that differ", site: &testSite{faults: []siteFault{twinsDiffer}},
			want: with(allPass(), map[string]Verdict{"manifest_twins": VerdictFail}),
		},
		{
			name: "JSON-LD that does not parse", site: &testSite{faults: []siteFault{brokenJSONLD}},
			want: with(allPass(), map[string]Verdict{"structured_business_data": VerdictPartial}),
		},
		{
			name: "server times out on llms.txt", site: &testSite{faults: []siteFault{llmsNeverAnswers}}, timeout: 3 * time.Second,
			want: with(allPass(), map[string]Verdict{"llms_txt": VerdictUnverified}),
			check: func(t *testing.T, r *Report) {
				assert.Equal(t, []string{"llms_txt", "mcp_tested_execution"}, r.Unverified)
				c := checkByID(r, "llms_txt")
				assert.Equal(t, 4.0, c.Weight, "unverified keeps its weight")
				assert.Zero(t, c.Earned)
				assert.Contains(t, c.Receipt.Received, "timeout")
				assert.InDelta(t, 11, r.Sections[0].Score, 1e-9, "Discover: 11 of 15 weight earned")
				assert.Equal(t, RequirementStatusUnverified, r.Requirements[3].Status)
			},
		},
		{
			name: "server that redirects forever", site: &testSite{faults: []siteFault{redirectsForever}},
			want: func() map[string]Verdict {
				m := map[string]Verdict{}
				for _, id := range catalogueIDs() {
					m[id] = VerdictUnverified
				}
				// The MCP probe's POST to the guessed /mcp is answered with a
				// redirect, which an MCP client does not follow: no MCP
				// endpoint there, so the MCP checks do not apply.
				m["mcp_discovery"], m["mcp_documented_access"], m["mcp_signin_discovery"] = VerdictNotApplicable, VerdictNotApplicable, VerdictNotApplicable
				return m
			}(),
			check: func(t *testing.T, r *Report) {
				assert.Len(t, r.Unverified, len(catalogueIDs())-3)
				assert.Zero(t, r.Score)
				assert.Contains(t, checkByID(r, "sitemap").Receipt.Received, "a redirect that never ends")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.site.host = "shop.example"
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			r, _ := scanSite(t, tc.site, timeout, nil)
			require.Len(t, r.Checks, len(catalogueIDs()))
			for _, c := range r.Checks {
				want, ok := tc.want[c.ID]
				if !assert.True(t, ok, "no expectation for %s", c.ID) {
					continue
				}
				assert.Equal(t, want, c.Verdict, "%s: received %q, notes %q", c.ID, c.Receipt.Received, c.Receipt.Notes)
				assert.NotEmpty(t, c.Receipt.Received, c.ID)
				assert.NotEmpty(t, c.Receipt.Expected, c.ID)
				assert.NotEmpty(t, c.Scope, c.ID)
				for _, q := range c.Receipt.Requests {
					for k := range q.Headers {
						assert.Contains(t, []string{"Accept", "MCP-Protocol-Version", "Mcp-Session-Id"}, k, "%s records only the headers that change the answer", c.ID)
					}
				}
			}
			assert.Empty(t, tc.site.repeats(), "every resource is fetched once per scan")
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func TestScanProgressAndBudget(t *testing.T) {
	var mu sync.Mutex
	counts := map[EventKind]int{}
	finished := map[string]Verdict{}
	opts := &Options{Progress: func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		counts[e.Kind]++
		if e.Kind == EventKindCheckFinished {
			finished[e.Check] = e.Verdict
		}
	}}
	ts := &testSite{host: "shop.example"}
	r, n := scanSite(t, ts, 5*time.Second, opts)
	assert.Equal(t, len(catalogueIDs()), counts[EventKindCheckStarted])
	assert.Equal(t, len(catalogueIDs()), counts[EventKindCheckFinished])
	assert.Equal(t, n.Requests("shop.example"), counts[EventKindFetchDone], "one fetch event per request")
	assert.Equal(t, n.Requests("shop.example"), r.Scope.Budget.Attempts)
	assert.LessOrEqual(t, r.Scope.Budget.PeakConcurrency, DefaultConcurrency)
	assert.Equal(t, DefaultAttempts, r.Scope.Budget.MaxAttempts)
	for _, c := range r.Checks {
		assert.Equal(t, c.Verdict, finished[c.ID])
	}
}

func TestScanBudgetExhausted(t *testing.T) {
	ts := &testSite{host: "shop.example"}
	r, _ := scanSite(t, ts, 5*time.Second, &Options{Budget: safefetch.BudgetLimits{Attempts: 2}, MaxPages: -1})
	assert.Equal(t, "attempts", r.Scope.Budget.Exhausted)
	assert.NotEmpty(t, r.Unverified, "what the budget did not cover is unverified")
	for _, c := range r.Checks {
		assert.NotEqual(t, VerdictFail, c.Verdict, "%s: an unanswered probe is never a fail (%s)", c.ID, c.Receipt.Received)
	}
}

func TestScanRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "not a url", "ftp://shop.example/", "https://user:pw@shop.example/", "/relative"} {
		t.Run(u, func(t *testing.T) {
			_, err := Scan(context.Background(), u, nil)
			assert.ErrorIs(t, err, ErrInvalidURL)
		})
	}
}
