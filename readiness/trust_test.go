package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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

// asOrigin is authorization server metadata whose issuer is the site's origin.
const asOrigin = `{"issuer": "https://shop.example", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token", "code_challenge_methods_supported": ["S256"]}`

// TestTrustChecks scans sites with sign-in and policy documents and judges
// three Trust checks together. Each case asserts all three verdicts, so the
// table stays whole, beside no single check.
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
