package readiness

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errTestSentinel = errors.New("test: invalid")

func TestProblemNotes(t *testing.T) {
	ve := problem.New([]problem.Problem{
		{Pointer: "/resources/0/url", Rule: problem.RuleURLHTTPS, Message: "must be an https URL"},
		{Pointer: "", Rule: "json-syntax", Message: "unexpected end\nof input"},
	}, errTestSentinel)
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"no error", nil, nil},
		{"not a validation error", errors.New("agentic: body too large"), []string{"agentic: body too large"}},
		{"pointer, rule and message; the root is /; one line", ve,
			[]string{"/resources/0/url [url-https] must be an https URL", "/ [json-syntax] unexpected endof input"}},
		{"wrapped", fmt.Errorf("fetch: %w", ve),
			[]string{"/resources/0/url [url-https] must be an https URL", "/ [json-syntax] unexpected endof input"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, problemNotes(tc.err))
		})
	}
}

// TestProblemNotesOfEverySpecPackage feeds each spec package's validator an
// invalid document. Every problem it reports must become one note with its
// pointer, rule and message. The four packages share one ValidationError
// type, so one body reads all of them.
func TestProblemNotesOfEverySpecPackage(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"agentic", func() error { _, err := agentic.ParseSite([]byte(`{"version":"1.1"}`)); return err }()},
		{"linkset", func() error { _, err := linkset.Parse([]byte(`{"linkset":[{"anchor":1}]}`)); return err }()},
		{"openagent", func() error { _, err := openagent.Parse([]byte(`{"name":7}`)); return err }()},
		{"agentsignup", func() error { _, err := agentsignup.Parse([]byte(`{"agent_identity":{}}`)); return err }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ve *problem.ValidationError
			require.ErrorAs(t, tc.err, &ve)
			require.NotEmpty(t, ve.Problems)
			var want []string
			for _, p := range ve.Problems {
				want = append(want, problemNote(problem.Problem{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}))
				assert.NotEmpty(t, p.Rule)
			}
			got := problemNotes(tc.err)
			assert.Equal(t, want, got)
			for i, p := range ve.Problems {
				assert.Contains(t, got[i], "["+p.Rule+"]")
			}
		})
	}
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
