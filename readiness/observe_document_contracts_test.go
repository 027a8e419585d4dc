package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// documentContractsCases are the cases of the document_contracts observation.
func documentContractsCases(t testing.TB) []observationCase {
	var manyDocs, manyLinks string
	for i := range 60 {
		manyDocs += fmt.Sprintf("- [Doc %d](/docs/%d): a page\n", i, i)
	}
	for i := range 7 {
		manyLinks += fmt.Sprintf("</gone/%d.json>; rel=\"describedby\", ", i)
	}
	manyLinks = strings.TrimSuffix(manyLinks, ", ")
	return []observationCase{
		{name: "contracts: llms.txt names a path robots.txt closes to AI search", id: "document_contracts",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: OAI-SearchBot\nUser-agent: Claude-User\nDisallow: /docs/\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
				"/llms.txt":   text("text/plain", "# Shop\n\n> Outdoor gear.\n\n- [API docs](/docs/api): the API\n- [Products](/products): what we sell\n"),
				"/docs/api":   text("text/html", signalsPage),
				"/":           text("text/html", signalsPage),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "1 disagreement between the site's documents")
				assert.Equal(t, "llms.txt names https://shop.example/docs/api, which robots.txt disallows for OAI-SearchBot, Claude-User (AI search or user-access crawlers): an agent sent there by llms.txt is refused by the site's own rules. Fix: allow the path for those crawlers in robots.txt, or stop naming it in llms.txt", o.Receipt.Notes[0])
			}},
		{name: "contracts: a disallow for training crawlers only is no finding", id: "document_contracts",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
				"/llms.txt":   text("text/plain", "# Shop\n\n> Outdoor gear.\n\n- [Products](/products): what we sell\n"),
				"/":           text("text/html", signalsPage),
			},
			want: ObservationAbsent,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "the documents agree: 2 endpoints compared with robots.txt, the page answered alike to an AI user-access agent")
			}},
		{name: "contracts: a firewall that refuses the AI user-access agent", id: "document_contracts",
			paths: map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.UserAgent(), "ChatGPT-User") {
					http.Error(w, "forbidden", http.StatusForbidden)
					return
				}
				text("text/html", signalsPage)(w, r)
			}},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Notes[0], "the page answers an AI user-access agent (ChatGPT-User) 403 and the scanner 200")
				var uaRequests int
				for _, r := range o.Receipt.Requests {
					if r.URL == "https://shop.example/" {
						uaRequests++
					}
				}
				assert.Equal(t, 1, uaRequests, "one request of its own, never the memo's")
			}},
		{name: "contracts: a challenge page for the AI user-access agent", id: "document_contracts",
			paths: map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.UserAgent(), "ChatGPT-User") {
					text("text/html", `<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/x.js"></script></body></html>`)(w, r)
					return
				}
				text("text/html", signalsPage)(w, r)
			}},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Notes[0], "with a challenge page, and the scanner with the page")
			}},
		{name: "contracts: the agent's page is endless", id: "document_contracts",
			paths: map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
				if strings.Contains(r.UserAgent(), "ChatGPT-User") {
					endless("text/html", "<p>more</p>")(w, r)
					return
				}
				text("text/html", signalsPage)(w, r)
			}, "/llms.txt": text("text/plain", "# Shop\n\n> Outdoor gear.\n\n- [Products](/products): what we sell\n")},
			want: ObservationUnverified},
		{name: "contracts: an MCP server card that disagrees with the live server", id: "document_contracts",
			paths: map[string]http.HandlerFunc{
				"/.well-known/mcp/server-card.json": text("application/json", `{"serverInfo": {"name": "shop", "version": "1"}, "protocolVersion": "2024-11-05", "transport": {"type": "streamable-http", "endpoint": "/mcp"}, "tools": [{"name": "a"}]}`),
				"/mcp":                              newMCPServer(3, true, nil, 0).ServeHTTP,
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				notes := strings.Join(o.Receipt.Notes, "\n")
				assert.Contains(t, notes, "the MCP server card https://shop.example/.well-known/mcp/server-card.json declares protocol version 2024-11-05, and the live server https://shop.example/mcp answered 20")
				assert.Contains(t, notes, "lists 1 tool, and the live server https://shop.example/mcp lists 3 without a token")
			}},
		{name: "contracts: more disagreements than the notes hold", id: "document_contracts",
			paths: map[string]http.HandlerFunc{
				"/robots.txt": text("text/plain", "User-agent: OAI-SearchBot\nDisallow: /docs/\n\nUser-agent: *\nAllow: /\n"),
				"/llms.txt":   text("text/plain", "# Shop\n\n> Outdoor gear.\n\n"+manyDocs),
				"/":           withHeaders(text("text/html", signalsPage), "Link", manyLinks),
			},
			want: ObservationFound,
			check: func(t *testing.T, o Observation) {
				// The first 50 of 60 endpoints, which robots.txt disallows, the
				// first 5 llms.txt links and the first 5 Link header targets
				// answering 404.
				assert.Contains(t, o.Receipt.Received, "60 disagreements between the site's documents (in the notes, each with its fix); 50 endpoints compared with robots.txt")
				require.Len(t, o.Receipt.Notes, maxProblemNotes+1)
				assert.Equal(t, "… and 40 more problems", o.Receipt.Notes[maxProblemNotes])
				gone := 0
				for _, r := range o.Receipt.Requests {
					if strings.HasPrefix(r.URL, "https://shop.example/gone/") {
						gone++
					}
				}
				assert.Equal(t, maxContractLinks, gone, "the first 5 of 7 Link header targets fetched")
			}},
		{name: "contracts: a Link header target that is not there", id: "document_contracts",
			paths: map[string]http.HandlerFunc{"/": withHeaders(text("text/html", signalsPage), "Link", `</gone.json>; rel="describedby"`)},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Notes, "the page's Link header names https://shop.example/gone.json (rel describedby), which answered 404. Fix: serve it, or drop the link")
			}},
	}
}
