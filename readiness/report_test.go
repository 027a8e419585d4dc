package readiness

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var at = time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC)

func result(id string, v Verdict) CheckResult {
	return CheckResult{ID: id, Verdict: v, Receipt: Receipt{Received: "got " + string(v)}}
}

func TestCatalogueIsConsistent(t *testing.T) {
	weights := map[SectionID]float64{}
	ids := map[string]bool{}
	scored, optional := 0, 0
	for _, c := range Catalogue() {
		assert.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
		assert.Regexp(t, `^[a-z0-9]+(_[a-z0-9]+)*$`, c.ID)
		_, ok := sectionOf(c.Section)
		assert.True(t, ok, "check %s has unknown section %q", c.ID, c.Section)
		weights[c.Section] += c.Weight
		if c.Optional {
			optional++
			assert.Zero(t, c.Weight, c.ID)
		} else {
			scored++
			assert.Positive(t, c.Weight, c.ID)
		}
	}
	assert.Equal(t, 27, scored, "scored checks")
	assert.Equal(t, 8, optional, "optional conventions")
	var total float64
	for _, s := range Sections() {
		assert.Equal(t, s.Points, weights[s.ID], "weights of section %s add up to its points", s.ID)
		total += s.Points
	}
	assert.Equal(t, 100.0, total)
	reqs := Requirements()
	require.Len(t, reqs, 10)
	for _, r := range reqs {
		for _, id := range r.Checks {
			spec, ok := specOf(id)
			require.True(t, ok, "%s names unknown check %s", r.ID, id)
			assert.Equal(t, r.ID, spec.Requirement, "check %s", id)
		}
	}
	assert.Len(t, reqs[9].Checks, 2, "R10 needs both of its checks")
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

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), string(got), "%s differs from the golden file (go test -update rewrites it)", path)
}

func TestGolden(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	t.Run("json", func(t *testing.T) { golden(t, "report.json", js) })
	t.Run("markdown", func(t *testing.T) { golden(t, "report.md", r.Markdown()) })
	t.Run("html", func(t *testing.T) { golden(t, "report.html", r.HTML()) })
}

func TestJSONFieldNamesAndRoundTrip(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	var generic map[string]any
	require.NoError(t, json.Unmarshal(js, &generic))
	for _, k := range []string{"method", "site", "scanned_at", "ready", "score", "possible", "sections", "requirements", "checks", "unverified", "scope"} {
		assert.Contains(t, generic, k)
	}
	// The documented top-level order.
	idx := func(k string) int { return bytes.Index(js, []byte(`"`+k+`":`)) }
	assert.Less(t, idx("method"), idx("site"))
	assert.Less(t, idx("site"), idx("scanned_at"))
	assert.Less(t, idx("ready"), idx("score"))
	assert.Less(t, idx("checks"), idx("unverified"))
	var back Report
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, *r, back)
	assert.Equal(t, "1.2", back.Method)
}

// TestHTMLIsSelfContained parses the page back with an HTML5 parser and
// checks that nothing in it refers outside the page.
func TestHTMLIsSelfContained(t *testing.T) {
	r := fixedReport()
	page := r.HTML()
	assertSelfContained(t, r, page)
	assert.NotContains(t, string(page), "<b>&amp;</b>", "body text from a site is escaped")
}

func assertSelfContained(t *testing.T, r *Report, page []byte) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	require.NoError(t, err)
	var details, svgs, badges, scripts int
	for n := range doc.Descendants() {
		if n.Type == html.DoctypeNode {
			assert.Equal(t, "html", n.Data)
		}
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script":
			scripts++
			require.NotNil(t, n.FirstChild, "an inline script")
			sum := sha256.Sum256([]byte(n.FirstChild.Data))
			assert.Contains(t, string(page), "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "the page's CSP allows its one script by hash")
		case "link", "img", "iframe", "object", "embed", "base", "form", "image", "use", "foreignObject":
			t.Errorf("element <%s> in a self-contained report", n.Data)
		case "details":
			details++
		case "svg":
			svgs++
		}
		for _, a := range n.Attr {
			switch strings.ToLower(a.Key) {
			case "src", "srcset", "action", "formaction", "xlink:href", "poster", "data":
				t.Errorf("<%s %s=%q> refers outside the page", n.Data, a.Key, a.Val)
			case "href":
				assert.True(t, strings.HasPrefix(a.Val, "#"), "<%s href=%q> is not an in-page anchor", n.Data, a.Val)
			case "style":
				assert.NotContains(t, a.Val, "url(")
			case "class":
				if strings.Contains(a.Val, "badge") {
					badges++
				}
			}
			assert.False(t, strings.HasPrefix(strings.ToLower(a.Key), "on"), "event handler %s", a.Key)
		}
		if n.Data == "style" && n.FirstChild != nil {
			css := n.FirstChild.Data
			assert.NotContains(t, css, "url(")
			assert.NotContains(t, css, "@import")
		}
	}
	prompts := len(r.Fixes)
	if prompts > 0 {
		prompts++ // one for all
	}
	assert.Equal(t, len(r.Checks)+len(r.Observations)+prompts, details, "one receipt per check and per observation, one prompt per fix and one for all")
	trend := 0
	if r.Trend != nil {
		trend = 1
	}
	assert.Equal(t, 2+trend, svgs, "the gauge, the section bars and the trend when there is one")
	assert.Equal(t, 1, scripts, "the one script of the Copy prompt buttons")
	assert.Contains(t, string(page), `<meta http-equiv="Content-Security-Policy" content="default-src 'none';`, "a policy that allows no request")
	assert.Equal(t, len(r.Checks)+len(r.Requirements), badges)
}

// TestThreeFormsAgree renders one report three ways and compares every total,
// section score and verdict.
func TestThreeFormsAgree(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	var fromJSON Report
	require.NoError(t, json.Unmarshal(js, &fromJSON))

	// The numbers as a reader sees them, from the JSON.
	total := oneDecimal(fromJSON.Score)
	sections := map[string]string{}
	for _, s := range fromJSON.Sections {
		sections[s.Title] = sectionScoreText(s)
	}
	verdicts := map[string]string{}
	earned := map[string]string{}
	for _, c := range fromJSON.Checks {
		verdicts[c.ID] = verdictLabel(c.Verdict)
		earned[c.ID] = points(c.Earned)
	}

	// Markdown.
	md := string(r.Markdown())
	m := regexp.MustCompile(`Score: \*\*([0-9.]+) / 100\*\*`).FindStringSubmatch(md)
	require.NotNil(t, m)
	assert.Equal(t, total, m[1], "markdown total")
	assert.Contains(t, md, "Ready: **"+readyWord(fromJSON.Ready)+"**")
	for title, score := range sections {
		assert.Regexp(t, `(?m)^\| `+regexp.QuoteMeta(title)+` \| `+regexp.QuoteMeta(score)+` \|`, md, "markdown section %s", title)
		assert.Regexp(t, `(?m)^## `+regexp.QuoteMeta(title)+` \(`+regexp.QuoteMeta(score)+` /`, md, "markdown heading %s", title)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| [^|]+ \\| ([a-z/_]+) \\| ([0-9.]+) \\|").FindAllStringSubmatch(md, -1)
	assert.Len(t, rows, len(verdicts))
	for _, row := range rows {
		assert.Equal(t, verdicts[row[1]], row[2], "markdown verdict of %s", row[1])
		assert.Equal(t, earned[row[1]], row[3], "markdown earned of %s", row[1])
	}

	// HTML.
	doc, err := html.Parse(bytes.NewReader(r.HTML()))
	require.NoError(t, err)
	attr := func(n *html.Node, k string) (string, bool) {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val, true
			}
		}
		return "", false
	}
	seenChecks, seenSections := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id, _ := attr(n, "id"); id == "total" {
			s, _ := attr(n, "data-score")
			assert.Equal(t, total, s, "html total")
			assert.Equal(t, total, n.FirstChild.Data)
		}
		if v, ok := attr(n, "data-ready"); ok {
			assert.Equal(t, fromJSON.Ready, v == "true")
		}
		if id, ok := attr(n, "data-check"); ok {
			seenChecks++
			v, _ := attr(n, "data-verdict")
			e, _ := attr(n, "data-earned")
			assert.Equal(t, verdicts[id], verdictLabel(Verdict(v)), "html verdict of %s", id)
			assert.Equal(t, earned[id], e, "html earned of %s", id)
		}
		if id, ok := attr(n, "data-section"); ok {
			seenSections++
			s, _ := attr(n, "data-score")
			for _, sec := range fromJSON.Sections {
				if string(sec.ID) == id {
					assert.Equal(t, sectionScoreText(sec), s, "html section %s", id)
				}
			}
		}
	}
	assert.Equal(t, len(verdicts), seenChecks)
	assert.Equal(t, len(sections), seenSections)
}

func BenchmarkRender(b *testing.B) {
	r := fixedReport()
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.JSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("markdown", func(b *testing.B) {
		for b.Loop() {
			r.Markdown()
		}
	})
	b.Run("html", func(b *testing.B) {
		for b.Loop() {
			r.HTML()
		}
	})
}

// The fix-first list holds every check that leaves points and can pass,
// ordered by the points passing it would add, then by requirement, then in
// catalogue order; a not applicable check leaves none, mcp_tested_execution
// can never pass (the scoring method, Section 07), and passing any one entry adds
// exactly its points to the sections' earned points.
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
