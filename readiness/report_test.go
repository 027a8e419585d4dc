package readiness

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var at = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

func result(id string, v Verdict) CheckResult {
	return CheckResult{ID: id, Verdict: v, Receipt: Receipt{Received: "got " + string(v)}}
}

// everyCheck is one result for every catalogue check: pass (optional for the
// optional conventions), except the results given, which replace theirs.
func everyCheck(extra ...CheckResult) []CheckResult {
	var out []CheckResult
	over := map[string]CheckResult{}
	for _, e := range extra {
		over[e.ID] = e
	}
	for _, c := range Catalogue() {
		if e, ok := over[c.ID]; ok {
			out = append(out, e)
			continue
		}
		v := VerdictPass
		if c.Optional {
			v = VerdictOptional
		}
		out = append(out, result(c.ID, v))
	}
	return out
}

func TestCompose(t *testing.T) {
	allPass := everyCheck
	tests := []struct {
		name      string
		results   []CheckResult
		score     float64
		ready     bool
		sections  map[SectionID]float64
		unscored  []SectionID
		reqStatus map[string]RequirementStatus
		unverif   []string
	}{
		{name: "everything passes", results: allPass(), score: 100, ready: true,
			sections: map[SectionID]float64{SectionDiscover: 15, SectionUnderstand: 15, SectionRead: 20, SectionAct: 20, SectionConnect: 20, SectionTrust: 10}},
		{name: "unverified keeps its weight and earns nothing", results: allPass(result("mcp_tested_execution", VerdictUnverified)),
			score: 98, ready: true, sections: map[SectionID]float64{SectionConnect: 18}, unverif: []string{"mcp_tested_execution"}},
		{name: "not applicable leaves the denominator", results: allPass(result("page_tool_quality", VerdictNotApplicable), result("page_tool_permissions", VerdictFail)),
			score: 100 * (15 + 15 + 20 + 20*12.0/16 + 20 + 10) / 100, ready: true, sections: map[SectionID]float64{SectionAct: 15}},
		{name: "a section with no applicable check leaves the total", results: allPass(
			result("page_actions_declared", VerdictNotApplicable), result("page_tool_quality", VerdictNotApplicable), result("page_tool_permissions", VerdictNotApplicable)),
			score: 100, ready: true, unscored: []SectionID{SectionAct}, reqStatus: map[string]RequirementStatus{"R8": RequirementStatusNotApplicable}},
		{name: "partial credit is half", results: allPass(result("sitemap", VerdictPartial)), score: 98, ready: false,
			sections: map[SectionID]float64{SectionDiscover: 13}, reqStatus: map[string]RequirementStatus{"R3": RequirementStatusPartial}},
		{name: "R10 needs both of its checks", results: allPass(result("access_policy", VerdictFail)), score: 96, ready: false,
			sections: map[SectionID]float64{SectionTrust: 6}, reqStatus: map[string]RequirementStatus{"R10": RequirementStatusFail}},
		{name: "an unverified requirement is not met", results: allPass(result("llms_txt", VerdictUnverified)), score: 96, ready: false,
			reqStatus: map[string]RequirementStatus{"R4": RequirementStatusUnverified}, unverif: []string{"llms_txt"}},
		{name: "fail outranks partial in a requirement", results: allPass(result("human_handoff", VerdictPartial), result("access_policy", VerdictFail)), score: 94, ready: false,
			reqStatus: map[string]RequirementStatus{"R10": RequirementStatusFail}},
		{name: "checks an engine did not run are unverified: weight kept, nothing earned, not ready", results: discoverOnly(), score: 15, ready: false,
			sections:  map[SectionID]float64{SectionDiscover: 15, SectionUnderstand: 0, SectionTrust: 0},
			reqStatus: map[string]RequirementStatus{"R3": RequirementStatusPass, "R1": RequirementStatusUnverified, "R10": RequirementStatusUnverified}, unverif: notDiscover()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compose("https://shop.example/", at, tc.results, Scope{})
			require.NoError(t, err)
			assert.InDelta(t, tc.score, r.Score, 1e-9, "total")
			assert.Equal(t, tc.ready, r.Ready, "ready")
			for _, s := range r.Sections {
				if want, ok := tc.sections[s.ID]; ok {
					assert.InDelta(t, want, s.Score, 1e-9, "section %s", s.ID)
				}
			}
			for _, id := range tc.unscored {
				for _, s := range r.Sections {
					if s.ID == id {
						assert.False(t, s.Scored, "section %s should leave the denominator", id)
					}
				}
			}
			for _, q := range r.Requirements {
				if want, ok := tc.reqStatus[q.ID]; ok {
					assert.Equal(t, want, q.Status, "requirement %s", q.ID)
					assert.Equal(t, want == RequirementStatusPass || want == RequirementStatusNotApplicable, q.Met, "requirement %s met", q.ID)
					assert.NotEmpty(t, q.Why)
				}
			}
			if tc.unverif == nil {
				tc.unverif = []string{}
			}
			assert.Equal(t, tc.unverif, r.Unverified)
		})
	}
}

// discoverOnly is the result of an engine that runs only the scored
// Discover checks and reports every other check as unverified.
func discoverOnly() []CheckResult {
	var out []CheckResult
	for _, c := range Catalogue() {
		if c.Section == SectionDiscover && !c.Optional {
			out = append(out, result(c.ID, VerdictPass))
		} else {
			out = append(out, result(c.ID, VerdictUnverified))
		}
	}
	return out
}

func notDiscover() []string {
	var out []string
	for _, c := range Catalogue() {
		if c.Section != SectionDiscover || c.Optional {
			out = append(out, c.ID)
		}
	}
	return out
}

func TestComposeRejects(t *testing.T) {
	tests := []struct {
		name    string
		results []CheckResult
		says    string
	}{
		{"unknown id", append(everyCheck(), result("no_such_check", VerdictPass)), `unknown check "no_such_check"`},
		{"repeated id", append(everyCheck(), result("sitemap", VerdictFail)), `check "sitemap" appears twice`},
		{"invalid verdict", everyCheck(result("sitemap", "great")), `check "sitemap" has verdict "great"`},
		{"optional verdict on a scored check", everyCheck(result("sitemap", VerdictOptional)), `check "sitemap": verdict "optional" does not fit its kind`},
		{"pass on an optional convention", everyCheck(result("api_catalog", VerdictPass)), `check "api_catalog": verdict "pass" does not fit its kind`},
		{"a catalogue check without a result", everyCheck()[1:], "no result for sitemap"},
		{"a fix on a pass", everyCheck(CheckResult{ID: "sitemap", Verdict: VerdictPass, Fix: "publish a sitemap"}), `check "sitemap": a fix on verdict "pass"`},
		{"a fix on not_applicable", everyCheck(CheckResult{ID: "auth_discovery", Verdict: VerdictNotApplicable, Fix: "Nothing on the site needs sign-in."}), `check "auth_discovery": a fix on verdict "not_applicable"`},
		{"a fix on an optional convention", everyCheck(CheckResult{ID: "api_catalog", Verdict: VerdictOptional, Fix: "publish one"}), `check "api_catalog": a fix on verdict "optional"`},
		{"no result at all", nil, "no result for sitemap, llms_txt,"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compose("https://shop.example/", at, tc.results, Scope{})
			require.ErrorIs(t, err, ErrInvalidReport)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
}

// The fix-first list holds every check that leaves points and can pass. It
// is ordered by the points passing would add, then by requirement, then in
// catalogue order. A not applicable check leaves none. mcp_tested_execution
// can never pass (the scoring method, Section 07). Passing any one entry
// adds exactly its points to the sections' earned points.
func TestFixFirstOrder(t *testing.T) {
	results := everyCheck(
		result("llms_txt", VerdictFail),             // Discover, R4: 15 × 4/15 = 4
		result("sitemap", VerdictFail),              // Discover, R3: 4, before R4
		result("page_tool_quality", VerdictPartial), // Act: 20 × 2/20 = 2
		result("identity_node", VerdictFail),        // Understand without freshness: 15 × 1/14
		result("content_freshness", VerdictNotApplicable),
		result("mcp_tested_execution", VerdictUnverified), // Connect: never passes, never listed
		result("api_catalog", VerdictOptional),
	)
	r, err := Compose("https://shop.example/", at, results, Scope{})
	require.NoError(t, err)
	var order []string
	for _, f := range r.Fixes {
		order = append(order, f.Check)
	}
	assert.Equal(t, []string{"sitemap", "llms_txt", "page_tool_quality", "identity_node"}, order)
	want := map[string]float64{"sitemap": 4, "llms_txt": 4, "page_tool_quality": 2, "identity_node": 15.0 / 14}
	for _, f := range r.Fixes {
		assert.InDelta(t, want[f.Check], f.Points, 1e-9, f.Check)
		// Passing this one check adds exactly its points.
		fixed := slices.Clone(results)
		for i := range fixed {
			if fixed[i].ID == f.Check {
				fixed[i] = result(f.Check, VerdictPass)
			}
		}
		r2, err := Compose("https://shop.example/", at, fixed, Scope{})
		require.NoError(t, err)
		assert.InDelta(t, r.Earned+f.Points, r2.Earned, 1e-9, f.Check)
	}

	r, err = Compose("https://shop.example/", at, everyCheck(), Scope{})
	require.NoError(t, err)
	assert.NotNil(t, r.Fixes)
	assert.Empty(t, r.Fixes, "nothing to fix on a site that passes everything")
}

// brochure is a site with no tool or API and no page action that does not
// say so: backend_interface_declared fails, everything else passes or does
// not apply.
func brochure(extra ...CheckResult) []CheckResult {
	base := []CheckResult{
		result("backend_interface_declared", VerdictFail),
		result("mcp_discovery", VerdictNotApplicable),
		result("mcp_documented_access", VerdictNotApplicable),
		result("mcp_signin_discovery", VerdictNotApplicable),
		result("mcp_tested_execution", VerdictNotApplicable),
		result("auth_discovery", VerdictNotApplicable),
	}
	over := map[string]bool{}
	for _, e := range extra {
		over[e.ID] = true
	}
	for _, b := range base {
		if !over[b.ID] {
			extra = append(extra, b)
		}
	}
	return everyCheck(extra...)
}

// Every entry of the fix-first list can be acted on and earns what it
// says. mcp_tested_execution never appears: the scanner never executes a
// tool, so no change of the site's makes it pass. That is the scoring
// method, Section 07, "no perfect connection score", and the check
// catalogue, Connect. A brochure site's backend fix leads with the cheap true
// answer: the card states that the site offers none. The catalogue says "n/a
// only when the card states the site offers no tool or API". Its points count
// the mcp_tested_execution weight a live interface brings: 20 × 8/10, not 20.
// access_policy's fix names MCP fields only for a site with MCP.
func TestFixFirstCanBeActedOn(t *testing.T) {
	r, err := Compose("https://shop.example/", at, brochure(), Scope{})
	require.NoError(t, err)
	require.Len(t, r.Fixes, 1)
	f := r.Fixes[0]
	assert.Equal(t, "backend_interface_declared", f.Check)
	assert.InDelta(t, 16.0, f.Points, 1e-9, "a live interface brings mcp_tested_execution, unverified")
	live, err := Compose("https://shop.example/", at, brochure(result("backend_interface_declared", VerdictPass), result("mcp_tested_execution", VerdictUnverified)), Scope{})
	require.NoError(t, err)
	assert.InDelta(t, r.Earned+f.Points, live.Earned, 1e-9, "the fix earns what it says")
	assert.True(t, strings.HasPrefix(fixFor("backend_interface_declared", VerdictFail), "If the site offers no tool or API, say so in the card"))

	// A site with MCP whose only shortfall is the execution nobody tests
	// has nothing to fix.
	mcp, err := Compose("https://shop.example/", at, everyCheck(result("mcp_tested_execution", VerdictUnverified)), Scope{})
	require.NoError(t, err)
	assert.Empty(t, mcp.Fixes)
	assert.Less(t, mcp.Score, 100.0, "the points stay unverified")

	assert.Contains(t, fixFor("access_policy", VerdictFail), "nothing needs sign-in for a site without an MCP endpoint")
}

// The report adds up for a reader in every form. The total states its
// denominator when a section does not apply: "60.0 of the 80 points that
// apply". The scoring method, Section 02, says checks that cannot apply
// leave the denominator. The section scores sum to Earned. Fix points are
// in the sections' points: failing page_actions_declared (12 of Act's 20)
// is "+12.0 points" beside "Act 8.0 / 20", not +15.0 in score units.
func TestReportAddsUp(t *testing.T) {
	r, err := Compose("https://shop.example/", at, everyCheck(
		result("backend_interface_declared", VerdictNotApplicable),
		result("mcp_discovery", VerdictNotApplicable),
		result("mcp_documented_access", VerdictNotApplicable),
		result("mcp_signin_discovery", VerdictNotApplicable),
		result("mcp_tested_execution", VerdictNotApplicable),
		result("page_actions_declared", VerdictFail),
	), Scope{})
	require.NoError(t, err)
	sum := 0.0
	for _, s := range r.Sections {
		sum += s.Score
	}
	assert.InDelta(t, r.Earned, sum, 1e-9)
	assert.InDelta(t, 80.0, r.Applicable, 1e-9)
	assert.InDelta(t, 100*r.Earned/r.Applicable, r.Score, 1e-9)
	require.Len(t, r.Fixes, 1)
	assert.InDelta(t, 12.0, r.Fixes[0].Points, 1e-9)

	md := string(r.Markdown())
	assert.Contains(t, md, "- Score: **85.0 / 100**: 68.0 of the 80 points that apply (Connect does not apply, so 20 points leave the denominator)")
	assert.Contains(t, md, "**+12.0 points** [`page_actions_declared`]")
	assert.Contains(t, md, "| Act | 8.0 | 20 |")
	assert.Contains(t, md, "| Connect | does not apply | 20 |")
	html := string(r.HTML())
	assert.Contains(t, html, "Score 85.0 of 100: 68.0 of the 80 points that apply")
	assert.Contains(t, html, "<strong>+12.0 points</strong>")
	assert.NotContains(t, html, ": scored<", "a section's line says what it earned")
	assert.Contains(t, html, "Discover: 15.0 of 15 points")
	js, err := r.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(js), `"earned": 68`)
	assert.Contains(t, string(js), `"applicable": 80`)
}
