package demosite_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

func start(t *testing.T, d demosite.Defect) *demosite.Site {
	t.Helper()
	s, err := demosite.Start(&demosite.Options{Defects: d})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

func verdicts(t *testing.T, s *demosite.Site) map[string]readiness.Verdict {
	t.Helper()
	r, err := readiness.Scan(context.Background(), s.URL, &readiness.Options{Client: s.Client()})
	require.NoError(t, err)
	out := map[string]readiness.Verdict{}
	for _, c := range r.Checks {
		out[c.ID] = c.Verdict
	}
	return out
}

// wellMade is what the catalogue expects of the well-made site: every
// scored check passes but mcp_tested_execution, which is always unverified.
func wellMade(id string) readiness.Verdict {
	switch {
	case id == "mcp_tested_execution":
		return readiness.VerdictUnverified
	case slices.ContainsFunc(readiness.Catalogue(), func(c readiness.CheckSpec) bool { return c.ID == id && c.Optional }):
		return readiness.VerdictOptional
	}
	return readiness.VerdictPass
}

// TestDefects starts the site with each defect alone and checks that the
// scan's verdicts differ from the well-made site's in exactly the checks the
// defect targets.
func TestDefects(t *testing.T) {
	good := verdicts(t, start(t, 0))
	for _, c := range readiness.Catalogue() {
		id := c.ID
		assert.Equal(t, wellMade(id), good[id], "well-made site: %s", id)
	}
	targets := map[demosite.Defect]map[string]readiness.Verdict{
		demosite.NoMarkdown: {"markdown_representation": readiness.VerdictFail, "vary_accept": readiness.VerdictNotApplicable,
			"markdown_alternate_link": readiness.VerdictNotApplicable, "markdown_frontmatter": readiness.VerdictNotApplicable},
		demosite.NoVary:       {"vary_accept": readiness.VerdictFail, "markdown_representation": readiness.VerdictPartial},
		demosite.BrokenJSONLD: {"structured_business_data": readiness.VerdictPartial},
		demosite.TwinsDiffer:  {"manifest_twins": readiness.VerdictFail},
		demosite.BadDigest:    {},
		demosite.StaleTerms:   {}, // agent_signup is an optional convention: found, invalid, weight 0
		demosite.MCPNoPKCE:    {"mcp_signin_discovery": readiness.VerdictPartial},
	}
	require.Len(t, targets, len(demosite.Defects()))
	for _, d := range demosite.Defects() {
		t.Run(d.String(), func(t *testing.T) {
			got := verdicts(t, start(t, d))
			for _, c := range readiness.Catalogue() {
				id := c.ID
				want, targeted := targets[d][id]
				if !targeted {
					want = good[id]
				}
				assert.Equal(t, want, got[id], id)
			}
		})
	}
}

func TestDefectString(t *testing.T) {
	assert.Equal(t, "none", demosite.Defect(0).String())
	assert.Equal(t, "no-vary+twins-differ", (demosite.NoVary | demosite.TwinsDiffer).String())
	assert.Equal(t, "no-vary+broken-json-ld+twins-differ+bad-digest+stale-terms+mcp-no-pkce", demosite.Broken.String())
	assert.NotContains(t, demosite.Broken.String(), "no-markdown")
	assert.True(t, demosite.Broken.Has(demosite.NoVary|demosite.StaleTerms))
	assert.False(t, demosite.Broken.Has(demosite.NoMarkdown))
	assert.False(t, demosite.Defect(0).Has(0))
	assert.Contains(t, demosite.Defect(1<<20).String(), "0x")
}

// bearer adds a token to every request of an MCP client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connect(t *testing.T, s *demosite.Site, hc *http.Client) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "demosite-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.URL + "mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// authorize runs the authorization code grant against the shop's OAuth
// server and returns the access token ("" when refused) and the status of
// the authorization request.
func authorize(t *testing.T, s *demosite.Site, pkce bool) (string, int) {
	t.Helper()
	ctx := context.Background()
	opts := s.Network.Options()
	opts.MaxRedirects = -1
	c := safefetch.New(opts)
	verifier := "a-demo-code-verifier-that-is-long-enough-0123456789"
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {"https://agent.example/client"}, "redirect_uri": {"https://agent.example/cb"}, "state": {"xyz"}}
	if pkce {
		q.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))
		q.Set("code_challenge_method", "S256")
	}
	resp, err := c.Get(ctx, s.URL+"oauth/authorize?"+q.Encode(), nil)
	require.NoError(t, err)
	if resp.StatusCode != http.StatusFound {
		return "", resp.StatusCode
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, "xyz", loc.Query().Get("state"))
	form := url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {"https://agent.example/cb"},
		"client_id": {"https://agent.example/client"}, "code_verifier": {verifier}}
	// A wrong verifier is refused and spends the code.
	tr, err := c.Do(ctx, &safefetch.Request{Method: http.MethodPost, URL: s.URL + "oauth/token", Body: []byte(form.Encode()),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, tr.StatusCode, string(tr.Body))
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	require.NoError(t, json.Unmarshal(tr.Body, &tok))
	assert.Equal(t, "Bearer", tok.TokenType)
	again, err := c.Do(ctx, &safefetch.Request{Method: http.MethodPost, URL: s.URL + "oauth/token", Body: []byte(form.Encode()),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, again.StatusCode, "a code is used once")
	return tok.AccessToken, resp.StatusCode
}

func TestMCPAndOAuth(t *testing.T) {
	s := start(t, 0)
	ctx := context.Background()
	cs := connect(t, s, s.Client().HTTPClient())
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	readOnly := 0
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Annotations != nil && tl.Annotations.ReadOnlyHint {
			readOnly++
		}
	}
	assert.ElementsMatch(t, []string{"search_products", "get_product", "place_order"}, names)
	assert.Equal(t, 2, readOnly)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_products", Arguments: map[string]any{"query": "tent"}})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	out, _ := json.Marshal(res.StructuredContent)
	assert.Contains(t, string(out), "TENT-2")

	order := &mcp.CallToolParams{Name: "place_order", Arguments: map[string]any{"sku": "TENT-2", "quantity": 1}}
	res, err = cs.CallTool(ctx, order)
	require.NoError(t, err)
	assert.True(t, res.IsError, "place_order without a token")

	// A made-up token is refused by the SDK's bearer middleware with the
	// RFC 9728 challenge.
	resp, err := s.Client().Do(ctx, &safefetch.Request{Method: http.MethodPost, URL: s.URL + "mcp", Body: []byte(`{}`),
		Header: http.Header{"Authorization": {"Bearer nope"}, "Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `resource_metadata="https://shop.example/.well-known/oauth-protected-resource/mcp"`)

	_, status := authorize(t, s, false)
	assert.Equal(t, http.StatusBadRequest, status, "PKCE is required")
	token, status := authorize(t, s, true)
	require.Equal(t, http.StatusFound, status)
	hc := s.Client().HTTPClient()
	hc.Transport = bearer{token: token, next: hc.Transport}
	res, err = connect(t, s, hc).CallTool(ctx, order)
	require.NoError(t, err)
	require.False(t, res.IsError)
	out, _ = json.Marshal(res.StructuredContent)
	assert.Contains(t, string(out), "ord-TENT-2")

	// Metadata: RFC 9728 names the resource and its server, RFC 8414 S256.
	prm, err := s.Client().Get(ctx, s.URL+".well-known/oauth-protected-resource/mcp", nil)
	require.NoError(t, err)
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	require.NoError(t, json.Unmarshal(prm.Body, &meta))
	assert.Equal(t, "https://shop.example/mcp", meta.Resource)
	assert.Equal(t, []string{"https://shop.example"}, meta.AuthorizationServers)
	as, err := s.Client().Get(ctx, s.URL+".well-known/oauth-authorization-server", nil)
	require.NoError(t, err)
	assert.True(t, bytes.Contains(as.Body, []byte(`"S256"`)))

	weak := start(t, demosite.MCPNoPKCE)
	_, status = authorize(t, weak, false)
	assert.Equal(t, http.StatusFound, status, "MCPNoPKCE accepts a request without PKCE")
	as, err = weak.Client().Get(ctx, weak.URL+".well-known/oauth-authorization-server", nil)
	require.NoError(t, err)
	assert.NotContains(t, string(as.Body), "code_challenge_methods_supported")
}

func TestPages(t *testing.T) {
	s := start(t, 0)
	ctx := context.Background()
	c := s.Client()
	for _, tc := range []struct{ accept, want string }{
		{"", "text/html"},
		{"text/markdown", "text/markdown"},
		{"text/html;q=0.5, text/markdown", "text/markdown"},
		{"text/markdown;q=0.4, text/*;q=0.5", "text/html"},
		{"*/*", "text/html"},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			resp, err := c.Get(ctx, s.URL+"products", http.Header{"Accept": {tc.accept}})
			require.NoError(t, err)
			assert.Contains(t, resp.Header.Get("Content-Type"), tc.want)
			assert.Equal(t, "Accept", resp.Header.Get("Vary"))
		})
	}
	md, err := c.Get(ctx, s.URL+"products", http.Header{"Accept": {"text/markdown"}})
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(md.Body, []byte("---\ntitle: Products\n")), "front matter from the kit: %s", md.Body)
	assert.Contains(t, string(md.Body), "updated: 2026-11-02\nlanguage: en\n---\n\n# Products\n", "then the shop's own Markdown")
	robots, err := c.Get(ctx, s.URL+"robots.txt", nil)
	require.NoError(t, err)
	assert.Contains(t, string(robots.Body), "User-agent: GPTBot\nUser-agent: ClaudeBot\n")
	assert.Contains(t, string(robots.Body), "Disallow: /cart\n")

	a, err := c.Get(ctx, s.URL+".well-known/agents.json", nil)
	require.NoError(t, err)
	b, err := c.Get(ctx, s.URL+"agents.json", nil)
	require.NoError(t, err)
	var va, vb any
	require.NoError(t, json.Unmarshal(a.Body, &va))
	require.NoError(t, json.Unmarshal(b.Body, &vb))
	assert.Equal(t, va, vb, "the twins are JSON-equal")
}

// Options.Host serves the shop, its peer and its broker under other names,
// so that two shops share a network.
func TestHost(t *testing.T) {
	first := start(t, 0)
	second, err := demosite.Start(&demosite.Options{Host: "shop7.example", Network: first.Network})
	require.NoError(t, err)
	t.Cleanup(second.Close)
	assert.Equal(t, "https://shop7.example/", second.URL)
	assert.Equal(t, [2]string{"guide7.example", "broker7.example"}, [2]string{second.PeerHost, second.BrokerHost})
	assert.Equal(t, "https://broker7.example", second.BrokerIssuer)
	other, err := demosite.Start(&demosite.Options{Host: "outdoor.example", Network: first.Network})
	require.NoError(t, err)
	assert.Equal(t, [2]string{"guide.outdoor.example", "broker.outdoor.example"}, [2]string{other.PeerHost, other.BrokerHost})

	r, err := readiness.Scan(context.Background(), second.URL, &readiness.Options{Client: first.Client()})
	require.NoError(t, err)
	assert.InDelta(t, 98.0, r.Score, 1e-9)
	card, err := first.Client().Get(context.Background(), second.URL+".well-known/agents.json", nil)
	require.NoError(t, err)
	assert.Contains(t, string(card.Body), `"email": "agents@shop7.example"`)
	assert.NotContains(t, string(card.Body), "https://shop.example")
}
