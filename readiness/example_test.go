package readiness_test

import (
	"fmt"
	"time"

	"github.com/agentweb/agentweb/readiness"
)

// Composing a report from check results applies the method's scoring. This
// engine reads only the Discover section and reports every other check as
// unverified, which keeps its weight and earns nothing: the partial sitemap
// earns half its weight, the unverified llms.txt nothing, and no requirement
// outside Discover is met.
func ExampleCompose() {
	ran := map[string]readiness.CheckResult{
		"sitemap":             {Verdict: readiness.VerdictPartial, Receipt: readiness.Receipt{Received: "urlset with a foreign loc"}},
		"llms_txt":            {Verdict: readiness.VerdictUnverified, Receipt: readiness.Receipt{Received: "no answer: timeout"}},
		"capability_manifest": {Verdict: readiness.VerdictPass},
		"manifest_twins":      {Verdict: readiness.VerdictPass},
		"discovery_links":     {Verdict: readiness.VerdictPass},
		"ai_crawler_access":   {Verdict: readiness.VerdictPass},
	}
	var results []readiness.CheckResult
	for _, c := range readiness.Catalogue() {
		r, ok := ran[c.ID]
		if !ok {
			r = readiness.CheckResult{Verdict: readiness.VerdictUnverified,
				Receipt: readiness.Receipt{Received: "not run", Notes: []string{"this engine reads the Discover section only"}}}
		}
		r.ID = c.ID
		results = append(results, r)
	}
	r, err := readiness.Compose("https://shop.example/", time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), results, readiness.Scope{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range r.Sections {
		fmt.Printf("%s: %.1f / %.0f\n", s.ID, s.Score, s.Points)
	}
	fmt.Printf("total: %.1f, ready: %v, unverified: %d\n", r.Score, r.Ready, len(r.Unverified))
	for _, q := range r.Requirements[:4] {
		fmt.Printf("%s %s: %s\n", q.ID, q.Status, q.Why)
	}
	// Output:
	// discover: 9.0 / 15
	// understand: 0.0 / 15
	// read: 0.0 / 20
	// act: 0.0 / 20
	// connect: 0.0 / 20
	// trust: 0.0 / 10
	// total: 9.0, ready: false, unverified: 30
	// R1 unverified: initial_html_content: unverified (not run)
	// R2 unverified: markdown_representation: unverified (not run)
	// R3 partial: sitemap: partial (urlset with a foreign loc)
	// R4 unverified: llms_txt: unverified (no answer: timeout)
}
