package mcpprobe

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness/internal/refusal"
)

// refusalHint names the likely cause of a refusal the probe recognises, or
// returns "". The cause is a clause to append to the receipt's reason.
//
// One cause is known. By default, the MCP Go SDK's Streamable HTTP handler
// refuses a request that reached it on a loopback address with a Host
// header that is not a loopback name. That is its DNS-rebinding protection,
// after [MCP security best practices]. It answers 403 "Forbidden: invalid
// Host header". So a server behind a reverse proxy on its own machine
// refuses every request, and so does one probed by a name mapped to
// loopback.
//
// [MCP security best practices]: https://modelcontextprotocol.io/specification/2025-11-25/basic/security_best_practices#local-mcp-server-compromise
func refusalHint(e *exchange) string {
	if e.Status == http.StatusForbidden && bytes.Contains(e.body, []byte("invalid Host header")) {
		return "; likely cause: the server's DNS-rebinding protection (the MCP Go SDK's default) refused the Host header because the request reached it on a loopback address, as it does behind a reverse proxy on the same machine: have the proxy pass a Host the server accepts, or list the public host among those it accepts (StreamableHTTPOptions.DisableLocalhostProtection turns the check off)"
	}
	return ""
}

// receipt classifies the session.
func (s *session) receipt(o *Options) *Receipt {
	r := &Receipt{
		Endpoint:   s.endpoint,
		Protocol:   Protocol{Offered: o.ProtocolVersion, Offers: []Offer{}, Negotiated: s.negotiated},
		Initialize: s.initialized,
		ToolsList:  s.listed,
		ServerInfo: s.serverInfo,
		Auth:       Auth{Mode: "none", PKCE: []string{}, Documents: []Document{}},
		Tools:      Tools{ListedWithoutToken: s.tools, WithReadOnlyHint: s.readOnly, Pages: s.pages, PagesCapped: s.pageCapped},
		Handshake:  make([]Exchange, 0, len(s.exchanges)),
	}
	for i, e := range s.exchanges {
		x := e.Exchange
		x.Body = bodyText(e.body)
		r.Handshake = append(r.Handshake, x)
		if e.Offered != "" && i >= s.firstAttempt {
			r.Protocol.Offers = append(r.Protocol.Offers, Offer{RPC: e.RPC, Version: e.Offered})
		}
	}
	if len(r.Protocol.Offers) > 0 {
		r.Protocol.Offered = r.Protocol.Offers[0].Version
	}
	r.Omissions = s.cacheableOmissions()
	r.Protocol.Returned = s.returnedVersion()
	if r.Protocol.Returned == "" {
		r.Protocol.Returned = s.negotiated
	}

	unauth := s.unauthorized()
	if unauth != nil {
		r.Auth.Mode = "token"
		if ps, ok := parseChallenge(unauth.WWWAuthenticate); ok {
			r.Auth.Mode = "oauth"
			r.Auth.Challenge = &Challenge{URL: unauth.URL, ResourceMetadata: clip(ps["resource_metadata"], 2000), Scope: clip(ps["scope"], 500), Error: clip(ps["error"], 100)}
		}
		r.Auth.BeforeVersion = !s.initialized
	}
	init := s.initExchange()
	failed := s.failedExchange()
	switch {
	case s.initialized && s.listed:
		r.Outcome = OutcomeListed
		r.Reason = fmt.Sprintf("%s negotiated; %s listed without a token in %s", s.negotiated, plural.N(s.tools, "tool", "tools"), plural.N(s.pages, "page", "pages"))
		if s.pageCapped {
			r.Reason += fmt.Sprintf("; stopped after %s: more tools may exist", plural.N(s.pages, "page", "pages"))
		}
	case r.Auth.Challenge != nil:
		r.Outcome = OutcomeSignInRequired
		if s.initialized {
			r.Reason = fmt.Sprintf("%s negotiated; %s %s (%s) answered 401 with a Bearer challenge: listing needs a token", s.negotiated, unauth.Method, unauth.URL, unauth.RPC)
		} else {
			r.Reason = fmt.Sprintf("%s %s (%s) answered 401 with a Bearer challenge before any version was negotiated", unauth.Method, unauth.URL, unauth.RPC)
		}
	case failed != nil:
		// A transport failure, a time-out or a cap is not an answer,
		// whatever came before it.
		r.Outcome = OutcomeUnanswered
		r.Reason = fmt.Sprintf("%s %s (%s): %s", failed.Method, failed.URL, failed.RPC, cmp.Or(failed.Error, "no answer"))
	case s.initialized:
		r.Outcome = OutcomeInitialized
		r.Reason = fmt.Sprintf("%s negotiated, but tools/list failed: %s", s.negotiated, errText(s.listErr))
	case r.Protocol.Returned != "" && !slices.Contains(Versions(), r.Protocol.Returned) && init != nil:
		r.Outcome = OutcomeUnsupportedVersion
		r.Reason = fmt.Sprintf("initialize at %s answered with protocol version %q, which this client does not implement (it implements %s)", init.URL, r.Protocol.Returned, strings.Join(Versions(), ", "))
	case init != nil && refusal.Refused(init.Status):
		r.Outcome = OutcomeUnanswered
		r.Reason = fmt.Sprintf("initialize at %s: the server answered %d: a refusal or failure is not an answer", init.URL, init.Status) + refusalHint(init)
	case init == nil:
		if d := s.refusedExchange(); d != nil {
			r.Outcome = OutcomeUnanswered
			r.Reason = fmt.Sprintf("%s %s (%s): the server answered %d: a refusal or failure is not an answer", d.Method, d.URL, d.RPC, d.Status) + refusalHint(d)
		} else if d := s.discoverAnswer(); d != nil {
			r.Outcome = OutcomeNotMCP
			r.Reason = fmt.Sprintf("server/discover at %s answered %d %s, and no initialize followed: %s", d.URL, d.Status, cmp.Or(d.ContentType, "(no type)"), errText(s.connectErr))
		} else {
			r.Outcome = OutcomeUnanswered
			r.Reason = "no initialize request was made: " + errText(s.connectErr)
		}
	case init.Status == http.StatusUnauthorized:
		r.Outcome = OutcomeUnauthorized
		r.Reason = fmt.Sprintf("initialize at %s answered 401 without a Bearer challenge", init.URL)
	case init.Status == http.StatusOK && init.isJSONRPC():
		// A JSON-RPC answer that the client could not use.
		r.Outcome = OutcomeInitialized
		r.Reason = fmt.Sprintf("initialize at %s answered JSON-RPC, but no session was established: %s", init.URL, errText(s.connectErr))
	default:
		r.Outcome = OutcomeNotMCP
		r.Reason = fmt.Sprintf("initialize at %s answered %d %s, not MCP", init.URL, init.Status, cmp.Or(init.ContentType, "(no type)"))
	}
	if r.Outcome.IsMCP() {
		r.Transport = "streamable-http"
	}
	return r
}

// initExchange returns the last exchange that carried initialize (of the
// last attempt), or nil.
func (s *session) initExchange() *exchange {
	var out *exchange
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.RPC == "initialize" {
			out = e
		}
	}
	return out
}

// discoverAnswer returns the server/discover exchange that got an answer
// (not a refusal, not a 401), or nil.
func (s *session) discoverAnswer() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.RPC == "server/discover" && e.Status != 0 && e.Status != http.StatusUnauthorized && !refusal.Refused(e.Status) {
			return e
		}
	}
	return nil
}

// refusedExchange returns the first exchange answered with a refusal, or nil.
func (s *session) refusedExchange() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if refusal.Refused(e.Status) {
			return e
		}
	}
	return nil
}

// unauthorized returns the first exchange (of the last attempt) answered
// 401, or nil.
func (s *session) unauthorized() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status == http.StatusUnauthorized {
			return e
		}
	}
	return nil
}

// failedExchange returns the first exchange of the last attempt that got no
// answer, or nil. No answer means a transport error, a time-out or a cap.
// The closing DELETE of a session that did its work is not counted.
func (s *session) failedExchange() *exchange {
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status == 0 || e.Capped || e.err != nil {
			if e.Method == http.MethodDelete && s.initialized && (s.listed || s.listErr == nil) {
				continue
			}
			return e
		}
	}
	return nil
}

// returnedVersion reads the protocol version of the initialize result from
// the raw answer: JSON, or an SSE data event carrying a result. So a
// version the client refused is still on record.
func (s *session) returnedVersion() string {
	e := s.initExchange()
	if e == nil || e.Status != http.StatusOK {
		return ""
	}
	for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
		var m struct {
			Result struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &m) == nil && m.Result.ProtocolVersion != "" {
			return clip(m.Result.ProtocolVersion, 40)
		}
	}
	return ""
}

// cacheableOmissions names what a 2026-07-28 server left out of the
// results that version makes cacheable (MCP 2026-07-28, schema
// "CacheableResult"). Those results need ttlMs, a number of at least 0, and
// cacheScope, "public" or "private". They are the server/discover result
// and, in a session negotiated at 2026-07-28, every */list result read. A
// result that could not be read (past the bytes kept, not JSON) is not
// judged.
func (s *session) cacheableOmissions() []string {
	var out []string
	for _, e := range s.exchanges[s.firstAttempt:] {
		if e.Status != http.StatusOK || !(e.RPC == "server/discover" || s.negotiated == Version20260728 && strings.HasSuffix(e.RPC, "/list")) {
			continue
		}
		for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
			var m struct {
				Result map[string]json.RawMessage `json:"result"`
			}
			if json.Unmarshal(msg, &m) != nil || m.Result == nil {
				continue
			}
			var missing []string
			var ttl float64
			if raw, ok := m.Result["ttlMs"]; !ok || json.Unmarshal(raw, &ttl) != nil || ttl < 0 {
				missing = append(missing, "ttlMs (a number of milliseconds, at least 0)")
			}
			var scope string
			if raw, ok := m.Result["cacheScope"]; !ok || json.Unmarshal(raw, &scope) != nil || scope != "public" && scope != "private" {
				missing = append(missing, `cacheScope ("public" or "private")`)
			}
			if len(missing) > 0 && len(out) < 8 {
				out = append(out, fmt.Sprintf("the %s result at %s has no valid %s, which %s requires on cacheable results", e.RPC, e.URL, strings.Join(missing, " and no valid "), Version20260728))
			}
			break
		}
	}
	return out
}

// jsonRPCMessages splits a response body into JSON texts. They are the body
// itself for JSON, and the data of each event for an SSE stream.
func jsonRPCMessages(contentType string, body []byte) [][]byte {
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "text/event-stream") {
		return [][]byte{body}
	}
	var out [][]byte
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), keepBody)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				out = append(out, data)
				data = nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	if len(data) > 0 {
		out = append(out, data)
	}
	return out
}

// isJSONRPC reports whether an exchange answered with a JSON-RPC message.
func (e *exchange) isJSONRPC() bool {
	for _, msg := range jsonRPCMessages(e.ContentType, e.body) {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if json.Unmarshal(msg, &m) == nil && m.JSONRPC == "2.0" && (m.Result != nil || m.Error != nil) {
			return true
		}
	}
	return false
}

// receiptBody is how much of a kept body the receipt shows.
const receiptBody = 2 << 10

// bodyText is the receipt form of a kept body: valid UTF-8, at most
// receiptBody bytes.
func bodyText(b []byte) string {
	if len(b) > receiptBody {
		b = b[:receiptBody]
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// clip makes remote text safe to show. It replaces control characters and
// keeps at most n bytes of valid UTF-8.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return shorten.Bytes(s, n)
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return clip(strings.TrimPrefix(err.Error(), "calling \""), 200)
}
