package readiness_test

import (
	"fmt"
	"time"

	"github.com/agentweb/agentweb/readiness"
)

// Composing a report from check results applies the method's scoring: the
// partial sitemap earns half its weight, the unverified llms.txt keeps its
// weight and earns nothing, and sections none of whose checks ran leave the
// total.
func ExampleCompose() {
	results := []readiness.CheckResult{
		{ID: "sitemap", Verdict: readiness.VerdictPartial, Receipt: readiness.Receipt{Received: "urlset with a foreign loc"}},
		{ID: "llms_txt", Verdict: readiness.VerdictUnverified, Receipt: readiness.Receipt{Received: "no answer: timeout"}},
		{ID: "capability_manifest", Verdict: readiness.VerdictPass},
		{ID: "manifest_twins", Verdict: readiness.VerdictPass},
		{ID: "discovery_links", Verdict: readiness.VerdictPass},
		{ID: "ai_crawler_access", Verdict: readiness.VerdictPass},
	}
	r, err := readiness.Compose("https://shop.example/", time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), results, readiness.Scope{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range r.Sections {
		if s.Scored {
			fmt.Printf("%s: %.1f / %.0f\n", s.ID, s.Score, s.Points)
		}
	}
	fmt.Printf("total: %.1f, ready: %v, unverified: %v\n", r.Score, r.Ready, r.Unverified)
	for _, q := range r.Requirements[2:4] {
		fmt.Printf("%s %s: %s\n", q.ID, q.Status, q.Why)
	}
	// Output:
	// discover: 9.0 / 15
	// total: 60.0, ready: false, unverified: [llms_txt]
	// R3 partial: sitemap: partial (urlset with a foreign loc)
	// R4 unverified: llms_txt: unverified (no answer: timeout)
}
