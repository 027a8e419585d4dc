package readiness

import (
	"time"
)

// fixedReport is the report behind the golden files: checks from every
// section, every verdict, receipts with headers and bodies, text that needs
// escaping in each form, and three sections not scanned at all.
func fixedReport() *Report {
	site := "https://shop.example/"
	page := []string{site}
	res := func(id string, v Verdict, received string, reqs ...RequestRecord) CheckResult {
		return CheckResult{ID: id, Verdict: v, Scope: page, Receipt: Receipt{
			Requests: reqs, Expected: "see the catalogue", Received: received,
		}}
	}
	get := func(u string, accept string, status int, media string, body string) RequestRecord {
		rr := RequestRecord{Method: "GET", URL: u, Response: &ResponseRecord{Status: status, MediaType: media, Bytes: len(body), Body: body}}
		if accept != "" {
			rr.Headers = map[string]string{"Accept": accept}
		}
		return rr
	}
	results := []CheckResult{
		res("sitemap", Pass, "urlset with 3 locs, all on shop.example", get(site+"sitemap.xml", "", 200, "application/xml", `<?xml version="1.0"?><urlset ...>`)),
		res("llms_txt", Partial, "H1 only: no Markdown link", get(site+"llms.txt", "", 200, "text/plain", "# Shop <b>&amp;</b> | pipes")),
		res("capability_manifest", Pass, "card (agentweb) naming interfaces and contact", get(site+".well-known/agents.json", "", 200, "application/json", `{"name":"Example Shop"}`)),
		res("manifest_twins", NotApplicable, "no copy of agents.json"),
		{ID: "discovery_links", Verdict: Unverified, Scope: page, Receipt: Receipt{
			Requests: []RequestRecord{{Method: "GET", URL: site, Headers: map[string]string{"Accept": "text/html"}, Error: "safefetch: request timed out"}},
			Expected: "describedby in header and head", Received: "no answer: timeout", Notes: []string{"a timeout is never a pass nor a fail"},
		}},
		res("ai_crawler_access", Pass, "search and user agents allowed; training blocked (free)"),
		res("language_and_canonical", Pass, `lang="en", canonical https://shop.example/`),
		res("structured_business_data", Fail, "no JSON-LD"),
		res("identity_node", Fail, "no identity node"),
		res("content_freshness", NotApplicable, "no CreativeWork node"),
		res("page_metadata", Partial, "<title> only"),
		res("initial_html_content", Pass, "h1 and 812 characters of text"),
		res("markdown_representation", Partial, "text/markdown without Vary: Accept",
			get(site, "text/markdown", 200, "text/markdown", "---\ncanonical: https://shop.example/\n---\n# Shop")),
		res("vary_accept", Fail, "no Vary header"),
		res("markdown_alternate_link", Pass, "in Link header and <head>"),
		res("markdown_frontmatter", Partial, "canonical only"),
	}
	scope := Scope{
		Routes: []string{site, site + "about"},
		Budget: BudgetUse{Attempts: 9, Bytes: 48213, PeakConcurrency: 5, MaxAttempts: 48, MaxBytes: 8 << 20},
	}
	r, err := Compose(site, time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC), results, scope)
	if err != nil {
		panic(err)
	}
	return r
}
