package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/mcpserver"
)

var toolNames = []string{"validate_document", "discover_site", "scan_site", "probe_mcp", "explain_check"}

// Every tool is listed with its annotations and both schemas, over both
// transports.
func TestListTools(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			srv, err := mcpserver.New(&mcpserver.Options{Client: world(t).Client()})
			require.NoError(t, err)
			cs := tr.connect(t, srv)
			res, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err)
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
				a := tool.Annotations
				require.NotNil(t, a, tool.Name)
				assert.True(t, a.ReadOnlyHint, tool.Name)
				assert.True(t, a.IdempotentHint, tool.Name)
				require.NotNil(t, a.OpenWorldHint, tool.Name)
				assert.Equal(t, tool.Name != "explain_check", *a.OpenWorldHint, "openWorldHint exactly where %s fetches", tool.Name)
				assert.NotNil(t, tool.OutputSchema, tool.Name)
				var in struct {
					Type       string                    `json:"type"`
					Properties map[string]map[string]any `json:"properties"`
				}
				b, _ := json.Marshal(tool.InputSchema)
				require.NoError(t, json.Unmarshal(b, &in))
				assert.Equal(t, "object", in.Type)
				for p, s := range in.Properties {
					assert.NotEmpty(t, s["description"], "%s.%s is described", tool.Name, p)
				}
				assert.NotEmpty(t, tool.Description)
			}
			assert.ElementsMatch(t, toolNames, names)

			rs, err := cs.ListResources(context.Background(), nil)
			require.NoError(t, err)
			require.Len(t, rs.Resources, 1)
			assert.Equal(t, mcpserver.CatalogueURI, rs.Resources[0].URI)
			rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.CatalogueURI})
			require.NoError(t, err)
			var cat struct {
				Checks []struct {
					ID  string  `json:"id"`
					Pts float64 `json:"points"`
				} `json:"checks"`
			}
			require.NoError(t, json.Unmarshal([]byte(rr.Contents[0].Text), &cat))
			assert.Len(t, cat.Checks, len(readiness.Catalogue()))
			sum := 0.0
			for _, c := range cat.Checks {
				sum += c.Pts
			}
			assert.InDelta(t, 100, sum, 1e-9, "the points of every check add up to 100")

			ps, err := cs.ListPrompts(context.Background(), nil)
			require.NoError(t, err)
			require.Len(t, ps.Prompts, 1)
			assert.Equal(t, "fix_site", ps.Prompts[0].Name)
		})
	}
}

func tools(t testing.TB, cs *mcp.ClientSession) map[string]*mcp.Tool {
	res, err := cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	m := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		m[tool.Name] = tool
	}
	return m
}

// Every tool, called by the go-sdk client over both transports on sites of
// a fake internet.
func TestCallTools(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			n := world(t)
			srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), TargetPerMinute: -1})
			require.NoError(t, err)
			cs := tr.connect(t, srv)
			schemas := tools(t, cs)

			t.Run("validate_document content", func(t *testing.T) {
				r := callTool(t, cs, "validate_document", map[string]any{"kind": "agentic_site", "content": brokenAgentic})
				requireOutputSchema(t, schemas["validate_document"], r)
				var v struct {
					Kind     string `json:"kind"`
					Valid    bool   `json:"valid"`
					Problems []struct{ Pointer, Rule, Message, Section, Severity string }
				}
				structured(t, r, &v)
				assert.False(t, v.Valid)
				assert.Equal(t, "agentic_site", v.Kind)
				require.NotEmpty(t, v.Problems)
				seen := map[string]string{}
				for _, p := range v.Problems {
					assert.NotEmpty(t, p.Rule)
					assert.NotEmpty(t, p.Pointer)
					assert.NotEmpty(t, p.Section, "%s %s cites its section", p.Pointer, p.Rule)
					assert.Equal(t, "error", p.Severity)
					seen[p.Pointer+" "+p.Rule] = p.Section
				}
				assert.Equal(t, "Required JSON fields", seen["/origin origin-form"])
				assert.Equal(t, "Resource records", seen["/resources/0/url url-https"])
				assert.Equal(t, "OpenAPI indexes", seen["/apis/0/operations/0/path path-form"])
				assert.Contains(t, text(r), "not valid")
			})
			t.Run("validate_document url", func(t *testing.T) {
				r := callTool(t, cs, "validate_document", map[string]any{"kind": "agents_json", "url": "https://tea.example/.well-known/agents.json"})
				requireOutputSchema(t, schemas["validate_document"], r)
				var v struct {
					Valid      bool `json:"valid"`
					Provenance struct {
						URL        string `json:"url"`
						StatusCode int    `json:"status_code"`
					} `json:"provenance"`
				}
				structured(t, r, &v)
				assert.True(t, v.Valid, text(r))
				assert.Equal(t, 200, v.Provenance.StatusCode)
				assert.Equal(t, "https://tea.example/.well-known/agents.json", v.Provenance.URL)
			})
			t.Run("discover_site", func(t *testing.T) {
				r := callTool(t, cs, "discover_site", map[string]any{"url": "https://tea.example/teas"})
				requireOutputSchema(t, schemas["discover_site"], r)
				var d struct {
					Origin    string `json:"origin"`
					Documents []struct {
						Kind, URL, Status, Reason string
					} `json:"documents"`
				}
				structured(t, r, &d)
				assert.Equal(t, "https://tea.example", d.Origin)
				status := map[string]string{}
				for _, doc := range d.Documents {
					status[doc.Kind] = doc.Status
				}
				assert.Equal(t, "found", status["agents_json"])
				assert.Equal(t, "found", status["llms_txt"])
				assert.Equal(t, "found", status["robots_txt"])
				assert.Equal(t, "found", status["sitemap"])
				assert.Equal(t, "absent", status["agent_signup"])
				assert.Equal(t, "absent", status["mcp_endpoint"])

				r = callTool(t, cs, "discover_site", map[string]any{"url": "https://broken.example/"})
				structured(t, r, &d)
				status = map[string]string{}
				for _, doc := range d.Documents {
					status[doc.Kind] = doc.Status
				}
				assert.Equal(t, "invalid", status["agentic_site"])
				assert.Equal(t, "absent", status["llms_txt"])

				// A sitemap robots.txt names on another site is not fetched.
				n.Site("elsewhere.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path == "/robots.txt" {
						io.WriteString(w, "User-agent: *\nAllow: /\nSitemap: https://other.example/sitemap.xml\n")
						return
					}
					http.NotFound(w, r)
				}))
				structured(t, callTool(t, cs, "discover_site", map[string]any{"url": "https://elsewhere.example/"}), &d)
				for _, doc := range d.Documents {
					if doc.Kind == "sitemap" {
						assert.Equal(t, "unverified", doc.Status)
						assert.Equal(t, "https://other.example/sitemap.xml", doc.URL)
						assert.Contains(t, doc.Reason, "another site")
					}
				}
			})
			t.Run("scan_site scores the kit site 100", func(t *testing.T) {
				r := callTool(t, cs, "scan_site", map[string]any{"url": "https://tea.example/"})
				requireOutputSchema(t, schemas["scan_site"], r)
				var rep readiness.Report
				structured(t, r, &rep)
				assert.InDelta(t, 100, rep.Score, 1e-9)
				assert.True(t, rep.Ready)
				assert.Contains(t, text(r), "scores 100.0 of 100")
				assert.Contains(t, text(r), "R10 met")

				direct, err := readiness.Scan(context.Background(), "https://tea.example/", &readiness.Options{Client: n.Client()})
				require.NoError(t, err)
				assert.Equal(t, verdicts(direct), verdicts(&rep), "the same verdicts a direct call gives")
			})
			t.Run("scan_site of a broken site lists the fixes", func(t *testing.T) {
				r := callTool(t, cs, "scan_site", map[string]any{"url": "https://broken.example/"})
				var rep readiness.Report
				structured(t, r, &rep)
				require.NotEmpty(t, rep.Fixes)
				assert.Contains(t, text(r), "Fix first")
				assert.Contains(t, text(r), rep.Fixes[0].Fix)
			})
			t.Run("scan_site browser without a renderer", func(t *testing.T) {
				r := callTool(t, cs, "scan_site", map[string]any{"url": "https://tea.example/", "browser": true})
				assert.True(t, r.IsError)
				assert.Contains(t, text(r), "no browser")
			})
			t.Run("probe_mcp", func(t *testing.T) {
				r := callTool(t, cs, "probe_mcp", map[string]any{"url": "https://tea.example/mcp"})
				require.False(t, r.IsError, text(r))
				requireOutputSchema(t, schemas["probe_mcp"], r)
				var rec struct {
					Endpoint, Outcome string
				}
				structured(t, r, &rec)
				assert.Equal(t, "https://tea.example/mcp", rec.Endpoint)
				assert.NotEmpty(t, rec.Outcome)
			})
			t.Run("explain_check", func(t *testing.T) {
				r := callTool(t, cs, "explain_check", map[string]any{"id": "llms_txt"})
				requireOutputSchema(t, schemas["explain_check"], r)
				var e struct {
					ID, Requirement, Fix, Passes string
					Points                       float64
				}
				structured(t, r, &e)
				assert.Equal(t, "R4", e.Requirement)
				assert.Equal(t, 4.0, e.Points)
				assert.Contains(t, e.Fix, "/llms.txt")
				assert.NotEmpty(t, e.Passes)

				r = callTool(t, cs, "explain_check", map[string]any{"id": "nope"})
				assert.True(t, r.IsError)
				for _, c := range readiness.Catalogue() {
					assert.Contains(t, text(r), c.ID, "an unknown id lists the ids")
				}
			})
		})
	}
}

func verdicts(r *readiness.Report) map[string]readiness.Verdict {
	m := map[string]readiness.Verdict{}
	for _, c := range r.Checks {
		m[c.ID] = c.Verdict
	}
	return m
}

// Wrong arguments, a fetch that failed and a refused URL are tool errors
// that say why, never JSON-RPC errors; the refused URL sends no request.
func TestToolErrors(t *testing.T) {
	n := world(t)
	srv, err := mcpserver.New(&mcpserver.Options{Client: n.Client(), TargetPerMinute: -1})
	require.NoError(t, err)
	cs := connectHTTP(t, srv)
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"unknown kind", "validate_document", map[string]any{"kind": "nope", "content": "{}"}, "kind \"nope\" is none of"},
		{"both content and url", "validate_document", map[string]any{"kind": "openagent", "content": "{}", "url": "https://tea.example/"}, "exactly one of content"},
		{"neither", "validate_document", map[string]any{"kind": "openagent"}, "exactly one of content"},
		{"missing kind", "validate_document", map[string]any{"content": "{}"}, "\"kind\" is required"},
		{"unknown argument", "scan_site", map[string]any{"url": "https://tea.example/", "deep": true}, "unknown field"},
		{"wrong type", "scan_site", map[string]any{"url": 7}, "invalid arguments"},
		{"absent document", "validate_document", map[string]any{"kind": "agent_signup", "url": "https://tea.example/.well-known/agent-signup.json"}, "404"},
		{"private address", "scan_site", map[string]any{"url": "https://private.example/"}, "10.0.0.0/8"},
		{"private address discover", "discover_site", map[string]any{"url": "https://private.example/"}, "10.0.0.0/8"},
		{"private address probe", "probe_mcp", map[string]any{"url": "https://private.example/mcp"}, "10.0.0.0/8"},
		{"private address validate", "validate_document", map[string]any{"kind": "agentic_site", "url": "https://private.example/agentic.json"}, "10.0.0.0/8"},
		{"plain http", "scan_site", map[string]any{"url": "http://tea.example/"}, "refused"},
		{"loopback literal", "scan_site", map[string]any{"url": "https://127.0.0.1/"}, "Loopback"},
		{"no such host", "discover_site", map[string]any{"url": "https://nowhere.example/"}, "nowhere.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := callTool(t, cs, tt.tool, tt.args)
			assert.True(t, r.IsError)
			assert.Contains(t, text(r), tt.want)
		})
	}
	assert.Zero(t, n.Dials(n.Addr("private.example")), "a refused URL sends no request")
}

// An error repeats at most a few hundred bytes of an argument, however
// long the argument the client sent.
func TestErrorsEchoArgumentsCut(t *testing.T) {
	srv, err := mcpserver.New(&mcpserver.Options{TargetPerMinute: -1})
	require.NoError(t, err)
	cs := connectStdio(t, srv)
	long := strings.Repeat("x", 100<<10)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"explain_check", map[string]any{"id": long}, "unknown check id"},
		{"validate_document", map[string]any{"kind": long, "content": "{}"}, "is none of"},
		{"scan_site", map[string]any{"url": "https://" + long + ".example/"}, "refused"},
		{"discover_site", map[string]any{"url": "ftp://" + long}, "refused"},
	} {
		r := callTool(t, cs, c.tool, c.args)
		require.True(t, r.IsError, c.tool)
		assert.Contains(t, text(r), c.want, c.tool)
		assert.Contains(t, text(r), "…", c.tool)
		assert.Less(t, len(text(r)), 2<<10, c.tool)
	}
}

// A scan called with a progress token sends increasing progress, at least
// one notification per section.
func TestScanProgress(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			srv, err := mcpserver.New(&mcpserver.Options{Client: world(t).Client()})
			require.NoError(t, err)
			var mu sync.Mutex
			var got []float64
			opts := &mcp.ClientOptions{ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
				mu.Lock()
				got = append(got, req.Params.Progress)
				mu.Unlock()
			}}
			var cs *mcp.ClientSession
			if tr.name == "http" {
				cs = connectHTTPWith(t, srv, opts)
			} else {
				cs = connectStdioWith(t, srv, opts)
			}
			params := &mcp.CallToolParams{Name: "scan_site", Arguments: map[string]any{"url": "https://tea.example/"}}
			params.SetProgressToken("scan-1")
			res, err := cs.CallTool(context.Background(), params)
			require.NoError(t, err)
			require.False(t, res.IsError, text(res))
			require.Eventually(t, func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(got) > 0 && got[len(got)-1] == float64(len(readiness.Catalogue())+1)
			}, 5*time.Second, 10*time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			assert.GreaterOrEqual(t, len(got), len(readiness.Sections()))
			for i := 1; i < len(got); i++ {
				assert.Greater(t, got[i], got[i-1], "progress increases")
			}
		})
	}
}
