package readiness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// mcpServerCardPaths are the MCP server card locations: SEP-2127's
// /.well-known/mcp/server-card ([MCP Server Cards], a draft), then the two
// older locations of SEP-1649, /.well-known/mcp.json and
// /.well-known/mcp/server-card.json. The first card found is the one read.
//
// [MCP Server Cards]: https://github.com/modelcontextprotocol/modelcontextprotocol/pull/2127
var mcpServerCardPaths = []string{"/.well-known/mcp/server-card", "/.well-known/mcp.json", "/.well-known/mcp/server-card.json"}

// serverCard is one MCP server card location as read.
type serverCard struct {
	f        *fetched
	found    bool // a 2xx JSON object
	value    map[string]any
	endpoint string
	problem  string
}

// serverCards reads every MCP server card location, once per scan.
func (s *scan) serverCards() []*serverCard {
	return readOnce(s, "mcp-server-cards", func() []*serverCard {
		out := make([]*serverCard, len(mcpServerCardPaths))
		var wg sync.WaitGroup
		for i, p := range mcpServerCardPaths {
			wg.Go(func() {
				c := &serverCard{f: s.get(s.resolve(p), "")}
				if c.f.ok() && !looksLikeHTML(c.f.body()) {
					v, err := strictjson.Decode(c.f.body())
					m, isObj := v.(map[string]any)
					switch {
					case err != nil:
						c.problem = "not valid JSON: " + clean(err.Error())
					case !isObj:
						c.problem = "not a JSON object"
					default:
						c.found, c.value = true, m
						c.endpoint = serverCardEndpoint(m)
					}
				}
				out[i] = c
			})
		}
		wg.Wait()
		return out
	})
}

// serverCardEndpoint reads the endpoint of a server card. It tries
// remotes[].url as the MCP registry's server.json writes it, streamable-http
// first. Then it tries the server-card proposal's transport.endpoint (or
// transport.url), the first of endpoints[], and a top-level url or endpoint.
func serverCardEndpoint(m map[string]any) string {
	var other string
	for _, it := range list(m["remotes"]) {
		o, ok := it.(map[string]any)
		if !ok {
			continue
		}
		u := str(o["url"])
		t := strings.ToLower(cmp.Or(str(o["type"]), str(o["transport_type"])))
		if u != "" && (t == "streamable-http" || t == "http") {
			return u
		}
		if other == "" {
			other = u
		}
	}
	if t, ok := m["transport"].(map[string]any); ok {
		// The server-card proposal (SEP-1649) names it transport.endpoint.
		if u := cmp.Or(str(t["endpoint"]), str(t["url"])); u != "" {
			return u
		}
	}
	for _, it := range list(m["endpoints"]) {
		if u := str(it); u != "" {
			return u
		}
		if o, ok := it.(map[string]any); ok && str(o["url"]) != "" {
			return str(o["url"])
		}
	}
	return cmp.Or(other, str(m["url"]), str(m["endpoint"]))
}

// mcpRead is what the Connect checks share: the MCP endpoint found, where it
// was found, the probe and the sign-in discovery.
type mcpRead struct {
	endpoint string
	source   string
	declared bool // named by the card, a server card or agentic.json
	probe    *mcpProbe
	notes    []string
	requests []*fetched // the documents the endpoint was found in
	card     *card

	// authNeeded: something asks for a token (a 401, or the card says the
	// MCP interface needs sign-in).
	authNeeded bool
	signin     *signinResult
}

// isMCP reports whether the endpoint answered as MCP: a session, a JSON-RPC
// answer to initialize, or a 401 with a Bearer challenge. The challenge is MCP
// authorization's way to say a token is needed. A guessed /mcp that answers so
// is an MCP endpoint whose sign-in is discovered.
func (o *mcpRead) isMCP() bool {
	return o.probe != nil && o.probe.r.Outcome.IsMCP()
}

// sameRegistrable reports whether u is on the scanned site: the same host, its
// www counterpart, or a host of the same registrable domain. Endpoints on
// other sites are named, never probed.
func (s *scan) sameRegistrable(u *url.URL) bool {
	if u == nil || u.Scheme != "https" && !(u.Scheme == "http" && s.page.Scheme == "http") {
		return false
	}
	h, ph, ok := s.hosts(u)
	if !ok || u.Port() != s.page.Port() {
		return false
	}
	if h == ph || weburl.IsWWWCounterpart(h, ph) {
		return true
	}
	d := weburl.RegistrableDomain(h)
	return d != "" && d == weburl.RegistrableDomain(ph)
}

// hosts returns u's host and the scanned page's, each in
// [weburl.NormalizeHost]'s form. It reports false when either is not a host
// that form accepts. The scan's same-site tests compare hosts this way.
func (s *scan) hosts(u *url.URL) (host, page string, ok bool) {
	host, err := weburl.NormalizeHost(u.Hostname())
	if err != nil {
		return "", "", false
	}
	page, err = weburl.NormalizeHost(s.page.Hostname())
	if err != nil {
		return "", "", false
	}
	return host, page, true
}

// mcpRead finds the MCP endpoint, probes it and discovers its sign-in, once
// per scan.
func (s *scan) mcpRead() *mcpRead {
	return readOnce(s, "mcp", s.readMCP)
}

func (s *scan) readMCP() *mcpRead {
	o := &mcpRead{}
	cards := s.cardsRead()
	o.requests = append(o.requests, cards.wellKnown.f, cards.root.f)
	for _, cp := range []*cardCopy{cards.wellKnown, cards.root} {
		if cp.card != nil && o.card == nil {
			o.card = cp.card
		}
	}
	base, _ := url.Parse(s.page.String())
	consider := func(raw, source string) bool {
		u, err := base.Parse(strings.TrimSpace(raw))
		if err != nil || raw == "" {
			return false
		}
		u.Fragment, u.RawFragment = "", ""
		if !s.sameRegistrable(u) {
			o.notes = append(o.notes, fmt.Sprintf("%s names the MCP endpoint %s on another site: named, not probed", source, shorten.Runes(clean(u.String()), 120)))
			return false
		}
		o.endpoint, o.source, o.declared = u.String(), source, true
		return true
	}
	found := false
	if o.card != nil {
		for _, it := range o.card.Interfaces {
			if it.Type == "mcp" && consider(it.URL, "the capability card") {
				found = true
				break
			}
		}
	}
	if !found {
		for _, sc := range s.serverCards() {
			o.requests = append(o.requests, sc.f)
			if sc.found && sc.endpoint != "" && consider(sc.endpoint, "the MCP server card at "+sc.f.url) {
				found = true
				break
			}
		}
	}
	if !found {
		if a := s.agenticRead(); a.value != nil {
			o.requests = append(o.requests, a.f)
			for _, r := range agenticResources(a.value) {
				if r.kind == "mcp" && consider(r.url, "agentic.json") {
					found = true
					break
				}
			}
		}
	}
	if !found {
		o.endpoint, o.source = s.resolve("/mcp"), "the default path /mcp"
	}
	// Sign-in discovery's requests go through the scan's fetch memo, so a
	// document another check reads is fetched once.
	get := func(_ context.Context, u string) (*safefetch.Response, error) {
		f := s.get(u, "application/json")
		return f.resp, f.err
	}
	o.probe = probeMCP(s.ctx, s.client, o.endpoint, o.cardSaysSignIn(), get)
	r := o.probe.r
	for _, e := range r.Handshake {
		var err error
		if e.Status == 0 {
			err = errors.New(cmp.Or(e.Error, "no answer"))
		}
		s.emit(Event{Kind: EventKindFetchDone, Method: e.Method, URL: e.URL, Status: e.Status, Err: err})
	}
	o.authNeeded = o.probe.unauthorized() != nil || o.cardSaysSignIn()
	if o.authNeeded && o.isMCP() && r.Auth.Rules != "" {
		o.signin = newSignin(&r.Auth, func(u string) *fetched { return s.get(u, "application/json") })
	}
	// Checks append to the shared requests: clipped, every append copies.
	o.requests = slices.Clip(o.requests)
	return o
}

// cardSaysSignIn reports whether the card says the MCP interface (or the
// service) needs a token.
func (o *mcpRead) cardSaysSignIn() bool {
	if o.card == nil {
		return false
	}
	for _, it := range o.card.Interfaces {
		if it.Type == "mcp" && it.Auth != "" && !isNoAuth(it.Auth) {
			return true
		}
	}
	if a := o.card.Auth; a != nil {
		if len(a.TokenRequired) > 0 || (a.Required != nil && *a.Required) {
			return true
		}
	}
	return false
}

func isNoAuth(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "public", "anonymous", "no":
		return true
	}
	return false
}

// documented says where the service states which capabilities need a token
// ("" when nowhere), and whether it says at least that sign-in exists.
func (o *mcpRead) documented() (where string, signInStated bool) {
	if c := o.card; c != nil && c.Auth != nil {
		if len(c.Auth.Public) > 0 || len(c.Auth.TokenRequired) > 0 {
			return "the capability manifest", true
		}
		signInStated = true
	}
	if o.card != nil {
		for _, it := range o.card.Interfaces {
			if it.Type == "mcp" && it.Auth != "" {
				if isNoAuth(it.Auth) && !o.authNeeded {
					// The card says the interface is open, and nothing
					// asks for a token: it states what needs one (nothing).
					return "the capability manifest", true
				}
				signInStated = true
			}
		}
	}
	if o.signin != nil && o.signin.prm != nil && len(o.signin.prm.ScopesSupported) > 0 {
		signInStated = true
	}
	if o.probe != nil && o.probe.r.Auth.Challenge != nil {
		signInStated = true
	}
	return "", signInStated
}

// mcpReceipt is the probe's receipt, with the verdict of mcp_discovery as its
// status. It adds where the service states which capabilities need a token.
// That is the same reading as mcp_documented_access: scopes in protected
// resource metadata say that sign-in exists, not what needs it.
func (o *mcpRead) mcpReceipt(status Verdict) *MCPReceipt {
	r := *o.probe.r
	r.Status = string(status)
	if where, _ := o.documented(); where != "" {
		r.Auth.RequirementsDocumentedAt = where
	}
	if r.Auth.Mode == "none" && o.cardSaysSignIn() {
		r.Auth.Mode = "oauth"
	}
	return &r
}
