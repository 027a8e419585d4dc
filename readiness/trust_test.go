package readiness

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docSite serves a page (body inside <body>, head inside <head>, header
// Link values) and documents by path.
type docSite struct {
	head, body string
	links      []string
	docs       map[string]string
	types      map[string]string
}

func (d *docSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/" {
		for _, l := range d.links {
			w.Header().Add("Link", l)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title>`+d.head+`</head><body><h1>Shop</h1>`+d.body+`</body></html>`)
		return
	}
	doc, ok := d.docs[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	ct := "application/json"
	if t := d.types[r.URL.Path]; t != "" {
		ct = t
	}
	w.Header().Set("Content-Type", ct)
	fmt.Fprint(w, doc)
}

const asOrigin = `{"issuer": "https://shop.example", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token", "code_challenge_methods_supported": ["S256"]}`

func TestTrustChecks(t *testing.T) {
	signup := readTestdata(t, "conventions/agent-signup-example.json")
	tests := []struct {
		name string
		site *docSite
		want [3]Verdict // human_handoff, access_policy, auth_discovery
		recv [3]string  // substrings of the received lines ("" : not checked)
	}{
		{
			name: "nothing", site: &docSite{},
			want: [3]Verdict{VerdictFail, VerdictFail, VerdictNotApplicable},
		},
		{
			name: "a mailto link", site: &docSite{body: `<a href="mailto:help@shop.example">Write to us</a>`},
			want: [3]Verdict{VerdictPass, VerdictFail, VerdictNotApplicable}, recv: [3]string{"a mailto: link on https://shop.example/"},
		},
		{
			name: "a contact page link", site: &docSite{body: `<a href="/contact-us/">Contact</a>`},
			want: [3]Verdict{VerdictPass, VerdictFail, VerdictNotApplicable}, recv: [3]string{"the contact page https://shop.example/contact-us/"},
		},
		{
			name: "a link to another site's contact page does not count", site: &docSite{body: `<a href="https://other.example/contact">Contact</a>`},
			want: [3]Verdict{VerdictFail, VerdictFail, VerdictNotApplicable},
		},
		{
			name: "JSON-LD contactPoint",
			site: &docSite{head: `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Shop","contactPoint":{"@type":"ContactPoint","telephone":"+1-555-0100"}}</script>`},
			want: [3]Verdict{VerdictPass, VerdictFail, VerdictNotApplicable}, recv: [3]string{"JSON-LD contact data"},
		},
		{
			name: "a contact in llms.txt",
			site: &docSite{docs: map[string]string{"/llms.txt": "# Shop\n\n- [Contact us](https://shop.example/help-desk): a person answers\n"}, types: map[string]string{"/llms.txt": "text/plain"}},
			want: [3]Verdict{VerdictPass, VerdictFail, VerdictNotApplicable}, recv: [3]string{"a contact in llms.txt"},
		},
		{
			name: "the card: contact and sign-in section, with valid OAuth metadata",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json":                `{"name": "Shop", "contact": {"email": "a@shop.example"}, "auth": {"type": "oauth2", "token_required": ["place_order"]}}`,
				"/.well-known/oauth-authorization-server": asOrigin,
			}},
			want: [3]Verdict{VerdictPass, VerdictPass, VerdictPass},
			recv: [3]string{"a contact in the card", "the sign-in section of the card", "OAuth metadata at https://shop.example/.well-known/oauth-authorization-server"},
		},
		{
			name: "an auth statement for each interface, sign-in metadata missing",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json": `{"name": "Shop", "interfaces": [{"type": "openapi", "url": "https://shop.example/openapi.json", "auth": "oauth2"}]}`,
			}},
			want: [3]Verdict{VerdictFail, VerdictPass, VerdictFail},
			recv: [3]string{"", "an auth statement for each interface", "no OAuth metadata"},
		},
		{
			name: "a terms-of-service link", site: &docSite{head: `<link rel="terms-of-service" href="/terms">`},
			want: [3]Verdict{VerdictFail, VerdictPass, VerdictNotApplicable}, recv: [3]string{"", "terms-of-service"},
		},
		{
			name: "sign-in exists, nothing says who may do what: OAuth metadata whose issuer does not match",
			site: &docSite{docs: map[string]string{"/.well-known/oauth-authorization-server": strings.Replace(asOrigin, `"issuer": "https://shop.example"`, `"issuer": "https://idp.example"`, 1)}},
			want: [3]Verdict{VerdictFail, VerdictPartial, VerdictPartial},
			recv: [3]string{"", "sign-in exists", "does not match"},
		},
		{
			name: "agent sign-up discovery, valid",
			site: &docSite{docs: map[string]string{"/.well-known/agent-signup.json": signup}},
			want: [3]Verdict{VerdictFail, VerdictPartial, VerdictPass}, recv: [3]string{"", "", "agent sign-up discovery at"},
		},
		{
			name: "valid OAuth metadata beside invalid agent sign-up discovery",
			site: &docSite{docs: map[string]string{
				"/.well-known/agents.json":                `{"name": "Shop", "auth": {"type": "oauth2"}}`,
				"/.well-known/oauth-authorization-server": asOrigin,
				"/.well-known/agent-signup.json":          strings.Replace(signup, `"sha256:`, `"sha256:00`, 1),
			}},
			want: [3]Verdict{VerdictFail, VerdictPass, VerdictPass}, recv: [3]string{"", "", "(and 1 invalid document, see notes)"},
		},
		{
			name: "an Agent Auth configuration, valid",
			site: &docSite{docs: map[string]string{"/.well-known/agent-configuration": `{"issuer": "https://shop.example", "endpoints": {"register": "https://shop.example/agents/register"}}`}},
			want: [3]Verdict{VerdictFail, VerdictPartial, VerdictPass}, recv: [3]string{"", "", "an Agent Auth configuration at https://shop.example/.well-known/agent-configuration"},
		},
		{
			name: "an Agent Auth configuration without endpoints",
			site: &docSite{docs: map[string]string{"/.well-known/agent-configuration": `{"issuer": "https://shop.example"}`}},
			want: [3]Verdict{VerdictFail, VerdictPartial, VerdictPartial}, recv: [3]string{"", "", `"endpoints" is not an object`},
		},
		{
			name: "agent sign-up discovery, invalid",
			site: &docSite{docs: map[string]string{"/.well-known/agent-signup.json": strings.Replace(signup, `"sha256:`, `"sha256:00`, 1)}},
			want: [3]Verdict{VerdictFail, VerdictPartial, VerdictPartial}, recv: [3]string{"", "", "present but invalid"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := scanMux(t, "shop.example", tc.site, 5*time.Second)
			for i, id := range []string{"human_handoff", "access_policy", "auth_discovery"} {
				c := checkByID(r, id)
				assert.Equal(t, tc.want[i], c.Verdict, "%s: %s %q", id, c.Receipt.Received, c.Receipt.Notes)
				assert.Contains(t, c.Receipt.Received, tc.recv[i], id)
			}
		})
	}
}

func TestTrustUnverified(t *testing.T) {
	site := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	r := scanMux(t, "shop.example", site, 2*time.Second)
	for _, id := range []string{"human_handoff", "access_policy", "auth_discovery", "mcp_server_card", "agent_signup"} {
		c := checkByID(r, id)
		assert.Equal(t, VerdictUnverified, c.Verdict, "%s: a server that fails is not an absence (%s)", id, c.Receipt.Received)
	}
}

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return string(b)
}

func TestConventions(t *testing.T) {
	docs := map[string]string{
		"/agentic.json":                           readTestdata(t, "conventions/agentic-site-example.json"),
		"/agentic.txt":                            readTestdata(t, "conventions/agentic-site-example.txt"),
		"/.well-known/knowledge-linkset":          readTestdata(t, "conventions/knowledge-linkset-appendix-a-full.json"),
		"/.well-known/openagent.json":             readTestdata(t, "conventions/openagent-example.json"),
		"/.well-known/agent-signup.json":          readTestdata(t, "conventions/agent-signup-example.json"),
		"/.well-known/mcp.json":                   `{"name": "service", "remotes": [{"type": "streamable-http", "url": "https://service.example/mcp"}]}`,
		"/.well-known/agent-card.json":            `{"name": "Service agent", "supportedInterfaces": [{"url": "https://service.example/a2a", "protocolBinding": "JSONRPC"}], "skills": []}`,
		"/.well-known/api-catalog":                `{"linkset": [{"anchor": "https://service.example/.well-known/api-catalog", "item": [{"href": "https://service.example/openapi.json"}]}]}`,
		"/.well-known/oauth-authorization-server": `{"issuer": "https://service.example", "authorization_endpoint": "https://service.example/a", "token_endpoint": "https://service.example/t", "registration_endpoint": "https://service.example/register"}`,
	}
	types := map[string]string{"/agentic.txt": "text/plain; charset=utf-8", "/.well-known/knowledge-linkset": "application/linkset+json", "/.well-known/api-catalog": "application/linkset+json"}
	ids := []string{"mcp_server_card", "a2a_agent_card", "api_catalog", "agentic_site_profile", "knowledge_linkset", "openagent_profile", "agent_signup", "dynamic_client_registration"}

	t.Run("found", func(t *testing.T) {
		r := scanMux(t, "service.example", &docSite{docs: docs, types: types}, 5*time.Second)
		for _, id := range ids {
			c := checkByID(r, id)
			assert.Equal(t, VerdictOptional, c.Verdict, id)
			assert.Zero(t, c.Weight, id)
			assert.True(t, strings.HasPrefix(c.Receipt.Received, "found"), "%s: %s", id, c.Receipt.Received)
		}
		assert.Contains(t, checkByID(r, "agentic_site_profile").Receipt.Received, "/agentic.txt matched")
		assert.Empty(t, checkByID(r, "agentic_site_profile").Receipt.Notes)
		assert.Empty(t, checkByID(r, "openagent_profile").Receipt.Notes)
		assert.Empty(t, checkByID(r, "agent_signup").Receipt.Notes)
		assert.Contains(t, checkByID(r, "mcp_server_card").Receipt.Received, "naming https://service.example/mcp")
		assert.Contains(t, checkByID(r, "dynamic_client_registration").Receipt.Received, "registration_endpoint")
		for _, id := range ids {
			assert.Zero(t, checkByID(r, id).Earned, "%s: an optional convention never earns", id)
			assert.NotContains(t, r.Unverified, id)
		}
	})
	// MCP 2026-07-28 asks clients for client ID metadata documents first and
	// keeps Dynamic Client Registration as a fallback: an authorization
	// server with either is found alike, each labelled with its version,
	// and one with only client ID metadata documents loses nothing.
	t.Run("registration: CIMD, DCR, both", func(t *testing.T) {
		const base = `"issuer": "https://service.example", "authorization_endpoint": "https://service.example/a", "token_endpoint": "https://service.example/t"`
		for name, tc := range map[string]struct {
			meta  string
			notes []string
		}{
			"client ID metadata documents only": {`{` + base + `, "client_id_metadata_document_supported": true}`, []string{"client ID metadata documents: the registration MCP 2025-11-25 introduced and 2026-07-28 asks clients to try first"}},
			"registration_endpoint only":        {`{` + base + `, "registration_endpoint": "https://service.example/register"}`, []string{"2026-07-28 keeps it as the fallback for backwards compatibility", "serves 2026-07-28 clients first"}},
			"both":                              {`{` + base + `, "registration_endpoint": "https://service.example/register", "client_id_metadata_document_supported": true}`, []string{"client ID metadata documents: the registration", "2026-07-28 keeps it as the fallback"}},
		} {
			t.Run(name, func(t *testing.T) {
				r := scanMux(t, "service.example", &docSite{docs: map[string]string{"/.well-known/oauth-authorization-server": tc.meta}}, 5*time.Second)
				c := checkByID(r, "dynamic_client_registration")
				assert.Equal(t, VerdictOptional, c.Verdict)
				assert.True(t, strings.HasPrefix(c.Receipt.Received, "found"), c.Receipt.Received)
				notes := strings.Join(c.Receipt.Notes, "\n")
				for _, n := range tc.notes {
					assert.Contains(t, notes, n)
				}
				if name == "both" {
					assert.NotContains(t, notes, "serves 2026-07-28 clients first")
				}
			})
		}
	})
	t.Run("found but invalid", func(t *testing.T) {
		bad := map[string]string{
			"/agentic.json":                  `{"agentic": "1.1.0", "type": "site", "origin": "http://service.example/x", "name": "", "description": "d", "resources": []}`,
			"/.well-known/openagent.json":    `{"type": "logicsrc.agent", "version": "0.1"}`,
			"/.well-known/agent-signup.json": strings.Replace(docs["/.well-known/agent-signup.json"], `"sha256:`, `"sha256:00`, 1),
			"/.well-known/mcp.json":          `[1, 2]`,
			"/.well-known/agent-card.json":   `{"description": "no name"}`,
			"/.well-known/api-catalog":       `{"linkset": "no"}`,
			"/.well-known/knowledge-linkset": `{"linkset": [{"anchor": 7}]}`,
		}
		r := scanMux(t, "service.example", &docSite{docs: bad}, 5*time.Second)
		for _, id := range ids[:7] {
			c := checkByID(r, id)
			assert.Equal(t, VerdictOptional, c.Verdict, id)
			assert.Contains(t, c.Receipt.Received, "validation problem", id)
			assert.NotEmpty(t, c.Receipt.Notes, "%s: the problems travel in the receipt", id)
		}
		assert.Contains(t, checkByID(r, "dynamic_client_registration").Receipt.Received, "absent")
	})
	t.Run("absent", func(t *testing.T) {
		r := scanMux(t, "service.example", &docSite{}, 5*time.Second)
		for _, id := range ids {
			c := checkByID(r, id)
			assert.Equal(t, VerdictOptional, c.Verdict, id)
			assert.True(t, strings.HasPrefix(c.Receipt.Received, "absent"), "%s: %s", id, c.Receipt.Received)
		}
	})
}
