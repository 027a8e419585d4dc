package readiness_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A scan of a small site on a fake internet: a page with content, language
// and canonical URL, an llms.txt and a sitemap, and nothing else. Each check
// lands with its verdict; the requirements not met say why.
func ExampleScan() {
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Example Shop</title>
<link rel="canonical" href="https://shop.example/"></head>
<body><h1>Example Shop</h1><p>Tents, sleeping bags and stoves for every season, tested in the Alps
before they reach our shelves, shipped within the EU, with repairs for life and a person who answers
when you write to us about any of them.</p></body></html>`)
	})
	mux.HandleFunc("/llms.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "# Example Shop\n\n> Outdoor gear.\n\n- [Home](https://shop.example/): what we sell\n")
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example/</loc></url></urlset>`)
	})
	n.Site("shop.example", mux)

	rep, err := readiness.Scan(context.Background(), "https://shop.example/", &readiness.Options{
		Client: n.Client(),
		Now:    func() time.Time { return time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range rep.Checks {
		fmt.Printf("%-27s %s\n", c.ID, c.Verdict)
	}
	fmt.Printf("score %.1f, ready %v\n", rep.Score, rep.Ready)
	fmt.Println(rep.Requirements[4].ID, rep.Requirements[4].Status)
	// Output:
	// sitemap                     pass
	// llms_txt                    pass
	// capability_manifest         fail
	// manifest_twins              not_applicable
	// discovery_links             fail
	// ai_crawler_access           pass
	// language_and_canonical      pass
	// structured_business_data    fail
	// identity_node               fail
	// content_freshness           not_applicable
	// page_metadata               partial
	// initial_html_content        pass
	// markdown_representation     fail
	// vary_accept                 not_applicable
	// markdown_alternate_link     not_applicable
	// markdown_frontmatter        not_applicable
	// page_actions_declared       not_applicable
	// page_tool_quality           not_applicable
	// page_tool_permissions       not_applicable
	// backend_interface_declared  fail
	// mcp_discovery               not_applicable
	// mcp_documented_access       not_applicable
	// mcp_signin_discovery        not_applicable
	// mcp_tested_execution        not_applicable
	// human_handoff               fail
	// access_policy               fail
	// auth_discovery              not_applicable
	// mcp_server_card             optional
	// a2a_agent_card              optional
	// api_catalog                 optional
	// agentic_site_profile        optional
	// knowledge_linkset           optional
	// openagent_profile           optional
	// agent_signup                optional
	// dynamic_client_registration optional
	// score 33.3, ready false
	// R5 fail
}
