package mcpprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/testhook"
	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newServer is a real MCP server (the official Go SDK) with n tools,
// speaking only the given protocol versions (nil: the SDK's defaults).
func newServer(n int, versions []string) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1.0.0"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})
	for i := range n {
		srv.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%02d", i), Description: "A tool.", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				panic("the probe never calls a tool")
			})
	}
	// 2026-07-28 is served by the go-sdk only on a stateless handler.
	stateless := slices.Contains(versions, "2026-07-28")
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true, Stateless: stateless})
}

// site serves the MCP handler at /mcp and JSON documents by path, and
// records the paths asked for and the capabilities of every initialize.
type site struct {
	mcp   http.Handler
	docs  map[string]string
	mu    sync.Mutex
	paths []string
	caps  []map[string]any
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	if r.URL.Path == "/mcp" && s.mcp != nil {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(b))
		var m struct {
			Method string `json:"method"`
			Params struct {
				Capabilities map[string]any `json:"capabilities"`
			} `json:"params"`
		}
		if json.Unmarshal(b, &m) == nil && m.Method == "initialize" {
			s.mu.Lock()
			s.caps = append(s.caps, m.Params.Capabilities)
			s.mu.Unlock()
		}
		s.mcp.ServeHTTP(w, r)
		return
	}
	if d, ok := s.docs[r.URL.Path]; ok {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, d)
		return
	}
	http.NotFound(w, r)
}

func (s *site) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// bearer answers 401 with a Bearer challenge (naming resourceMetadata when
// not empty) to every request.
func bearer(resourceMetadata string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := `Bearer realm="shop"`
		if resourceMetadata != "" {
			v += `, resource_metadata="` + resourceMetadata + `"`
		}
		w.Header().Set("WWW-Authenticate", v)
		http.Error(w, "sign in", http.StatusUnauthorized)
	})
}

func probe(t *testing.T, s *site, opts *Options) *Receipt {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", s)
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Client = n.Client()
	r, err := Probe(context.Background(), "https://shop.example/mcp", &o)
	require.NoError(t, err)
	return r
}

const (
	prm = `{"resource": "https://shop.example/mcp", "authorization_servers": ["https://shop.example/tenant"], "scopes_supported": ["orders"]}`
	as  = `{"issuer": "https://shop.example/tenant", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token",
  "registration_endpoint": "https://shop.example/register", "code_challenge_methods_supported": ["S256"]}`
	originAS = `{"issuer": "https://shop.example", "authorization_endpoint": "https://shop.example/authorize", "token_endpoint": "https://shop.example/token", "code_challenge_methods_supported": ["S256"]}`
)

func TestProbeNegotiatesDown(t *testing.T) {
	tests := []struct {
		versions   []string
		negotiated string
		offers     []Offer
	}{
		{[]string{"2026-07-28", "2025-11-25"}, "2026-07-28", []Offer{{"server/discover", "2026-07-28"}}},
		{nil, "2025-11-25", []Offer{{"server/discover", "2026-07-28"}, {"initialize", "2025-11-25"}}},
		{[]string{"2025-06-18"}, "2025-06-18", []Offer{{"server/discover", "2026-07-28"}, {"initialize", "2025-11-25"}}},
		{[]string{"2025-03-26"}, "2025-03-26", []Offer{{"server/discover", "2026-07-28"}, {"initialize", "2025-11-25"}}},
	}
	for _, tc := range tests {
		t.Run(tc.negotiated, func(t *testing.T) {
			s := &site{mcp: newServer(3, tc.versions)}
			r := probe(t, s, nil)
			assert.Equal(t, OutcomeListed, r.Outcome, r.Reason)
			assert.Equal(t, "2026-07-28", r.Protocol.Offered)
			assert.Equal(t, tc.offers, r.Protocol.Offers)
			assert.Equal(t, tc.negotiated, r.Protocol.Negotiated)
			assert.Equal(t, tc.negotiated, r.Protocol.Returned)
			assert.Equal(t, 3, r.Tools.ListedWithoutToken)
			assert.Equal(t, &Implementation{Name: "shop", Version: "1.0.0"}, r.ServerInfo)
			assert.Empty(t, r.Auth.Documents, "nothing asks for a token")
			for _, c := range s.caps {
				assert.Empty(t, c, "no client capability is declared (no roots)")
			}
		})
	}
}

func TestProbeInvalid(t *testing.T) {
	for _, tc := range []struct {
		endpoint string
		opts     *Options
	}{
		{"ftp://shop.example/mcp", nil},
		{"/mcp", nil},
		{"https://shop.example/mcp", &Options{ProtocolVersion: "1999-01-01"}},
	} {
		_, err := Probe(context.Background(), tc.endpoint, tc.opts)
		assert.ErrorIs(t, err, ErrInvalidEndpoint, tc.endpoint)
	}
}

func TestProbeSignIn(t *testing.T) {
	tests := []struct {
		name  string
		site  *site
		check func(t *testing.T, r *Receipt, s *site)
	}{
		{
			name: "401 before any version: the 2025-11-25 rules, every document labelled",
			site: &site{mcp: bearer("https://shop.example/.well-known/oauth-protected-resource/mcp"), docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp": prm,
				"/tenant/.well-known/openid-configuration":  as,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Auth.BeforeVersion)
				assert.Equal(t, "2025-11-25", r.Auth.Rules)
				assert.Empty(t, r.Protocol.Negotiated)
				assert.True(t, r.Auth.OAuthMetadata)
				var got []string
				for _, d := range r.Auth.Documents {
					got = append(got, fmt.Sprintf("%s %s %d %t", d.Version, d.URL, d.Status, d.Used))
				}
				assert.Equal(t, []string{
					"2025-06-18 https://shop.example/.well-known/oauth-protected-resource/mcp 200 true",
					"2025-06-18 https://shop.example/.well-known/oauth-authorization-server/tenant 404 false",
					"2025-11-25 https://shop.example/.well-known/openid-configuration/tenant 404 false",
					"2025-11-25 https://shop.example/tenant/.well-known/openid-configuration 200 true",
				}, got)
				assert.Nil(t, r.Auth.Failure())
			},
		},
		{
			name: "a Bearer challenge without resource_metadata: path-inserted, then root well-known URI",
			site: &site{mcp: bearer(""), docs: map[string]string{
				"/.well-known/oauth-protected-resource":          prm,
				"/.well-known/oauth-authorization-server/tenant": as,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Outcome.IsMCP())
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource", r.Auth.ResourceMetadataURL)
				assert.Equal(t, "https://shop.example/.well-known/oauth-protected-resource/mcp", r.Auth.Documents[0].URL)
				assert.Equal(t, []string{"S256"}, r.Auth.PKCE)
				assert.True(t, r.Auth.DynamicRegistration)
			},
		},
		{
			name: "an issuer that does not match: its data is not used",
			site: &site{mcp: bearer(""), docs: map[string]string{
				"/.well-known/oauth-protected-resource/mcp":      prm,
				"/.well-known/oauth-authorization-server/tenant": strings.Replace(as, "https://shop.example/tenant", "https://evil.example", 1),
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.False(t, r.Auth.OAuthMetadata)
				assert.Nil(t, r.Auth.AuthorizationServer)
				assert.Empty(t, r.Auth.PKCE)
				assert.False(t, r.Auth.DynamicRegistration)
				f := r.Auth.Failure()
				require.NotNil(t, f)
				assert.Equal(t, "https://shop.example/.well-known/oauth-authorization-server/tenant", f.URL)
				assert.Contains(t, f.Problem, "RFC 8414 Section 3.3")
			},
		},
		{
			name: "no protected resource metadata: the origin's RFC 8414 metadata, marked",
			site: &site{mcp: bearer(""), docs: map[string]string{"/.well-known/oauth-authorization-server": originAS}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.True(t, r.Auth.OAuthMetadata)
				assert.True(t, r.Auth.OriginFallback)
				assert.Equal(t, "2025-03-26", r.Auth.Documents[len(r.Auth.Documents)-1].Version)
			},
		},
		{
			name: "nothing at all: the failure names the URL and the status",
			site: &site{mcp: bearer("")},
			check: func(t *testing.T, r *Receipt, s *site) {
				f := r.Auth.Failure()
				require.NotNil(t, f)
				assert.Equal(t, 404, f.Status)
				assert.Contains(t, f.Problem, "404")
				assert.NotEmpty(t, f.URL)
			},
		},
		{
			name: "a 2025-03-26 session: only the origin's metadata",
			site: &site{mcp: listBehindBearer(newServer(1, []string{"2025-03-26"})), docs: map[string]string{
				"/.well-known/oauth-authorization-server":   originAS,
				"/.well-known/oauth-protected-resource/mcp": prm,
			}},
			check: func(t *testing.T, r *Receipt, s *site) {
				assert.Equal(t, OutcomeSignInRequired, r.Outcome)
				assert.True(t, r.Initialize)
				assert.False(t, r.Auth.BeforeVersion)
				assert.Equal(t, "2025-03-26", r.Auth.Rules)
				assert.True(t, r.Auth.OAuthMetadata)
				assert.NotContains(t, s.asked(), "/.well-known/oauth-protected-resource/mcp", "2025-03-26 has no protected resource metadata")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := probe(t, tc.site, nil)
			for _, d := range r.Auth.Documents {
				if !d.Used {
					assert.NotEmpty(t, d.Problem, "a document not used says why: %s", d.URL)
				}
			}
			tc.check(t, r, tc.site)
		})
	}
}

// listBehindBearer answers tools/list with 401 and a Bearer challenge.
func listBehindBearer(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(b))
		if bytes.Contains(b, []byte(`"tools/list"`)) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="shop"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func TestProbeUnanswered(t *testing.T) {
	t.Run("a server that hangs", func(t *testing.T) {
		s := &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		})}
		start := time.Now()
		r := probe(t, s, &Options{Timeout: 300 * time.Millisecond})
		// Well under the handler's 10 s: the probe's own deadline ended it
		// (and every request the SDK sends after it, notifications/cancelled
		// included, ends by that deadline).
		assert.Less(t, time.Since(start), 2*time.Second)
		assert.Equal(t, OutcomeUnanswered, r.Outcome)
		assert.Contains(t, r.Reason, "timeout")
		assert.Contains(t, r.Reason, "https://shop.example/mcp")
	})
	t.Run("a 503", func(t *testing.T) {
		r := probe(t, &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "down", http.StatusServiceUnavailable)
		})}, nil)
		assert.Equal(t, OutcomeUnanswered, r.Outcome, r.Reason)
		assert.Contains(t, r.Reason, "503")
	})
	t.Run("401 without a Bearer challenge", func(t *testing.T) {
		r := probe(t, &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Basic realm="shop"`)
			http.Error(w, "sign in", http.StatusUnauthorized)
		})}, nil)
		assert.Equal(t, OutcomeUnauthorized, r.Outcome, r.Reason)
		assert.Equal(t, "token", r.Auth.Mode)
		assert.False(t, r.Outcome.IsMCP())
		assert.Contains(t, r.Reason, "without a Bearer challenge")
	})
	t.Run("a JSON-RPC error to initialize is an MCP answer", func(t *testing.T) {
		r := probe(t, &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			_ = json.Unmarshal(b, &req)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"no"}}`, req.ID)
		})}, nil)
		assert.Equal(t, OutcomeInitialized, r.Outcome, r.Reason)
		assert.False(t, r.Initialize)
		assert.Equal(t, "streamable-http", r.Transport)
	})
	t.Run("not MCP", func(t *testing.T) {
		r := probe(t, &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"hello": "world"}`)
		})}, nil)
		assert.Equal(t, OutcomeNotMCP, r.Outcome, r.Reason)
		assert.Empty(t, r.Transport)
	})
}

// TestProbeDefaultClientReused: a nil Client is safefetch.Default(), whose
// connections are reused across probes.
func TestProbeDefaultClientReused(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", newServer(1, nil))
	restore := testhook.SetDefaultClient(n.Client())
	defer restore()
	exchanges := 0
	for range 3 {
		r, err := Probe(context.Background(), "https://shop.example/mcp", nil)
		require.NoError(t, err)
		require.Equal(t, OutcomeListed, r.Outcome, r.Reason)
		exchanges += len(r.Handshake)
	}
	// Fifteen exchanges over one HTTP/1 connection: a client of its own per
	// call would dial for every one, and a request sent while the MCP
	// client still reads the previous event stream to its end would find
	// the connection busy and dial another (3 dials on the base commit).
	require.Equal(t, 15, exchanges)
	assert.Equal(t, 1, n.Dials(n.Addr("shop.example")), "the probes share the default client's one connection")
}

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
		ok   bool
	}{
		{"", nil, false},
		{"Basic realm=\"x\"", nil, false},
		{"Bearer", map[string]string{}, true},
		{`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"`,
			map[string]string{"resource_metadata": "https://a.example/.well-known/oauth-protected-resource/mcp"}, true},
		{`Basic realm="a, b", Bearer realm="shop", error="invalid_token", Resource_Metadata="https://a.example/m?x=1,2"`,
			map[string]string{"realm": "shop", "error": "invalid_token", "resource_metadata": "https://a.example/m?x=1,2"}, true},
		{`Bearer realm=shop, scope="a b", DPoP algs="ES256"`, map[string]string{"realm": "shop", "scope": "a b"}, true},
		{`Negotiate abc==, bearer error="x\"y"`, map[string]string{"error": `x"y`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseChallenge(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeMetadata(t *testing.T) {
	for _, in := range []string{`[]`, `{"issuer": 1}`, `{"issuer": "a", "issuer": "b"}`, `{`} {
		err := decodeMetadata([]byte(in), &AuthServerMetadata{})
		assert.True(t, errors.Is(err, oauthmeta.ErrMetadata), in)
	}
	m := &AuthServerMetadata{}
	require.NoError(t, decodeMetadata([]byte(as), m))
	assert.True(t, m.HasS256())
}

func FuzzParseChallenge(f *testing.F) {
	for _, s := range []string{"", "Bearer", `Bearer resource_metadata="https://a.example/x"`, `Basic realm="a, b", Bearer error="x\"y"`, `Bearer a=b=, c`, `"`, `Bearer ,,,,=,"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		ps, ok := parseChallenge(v)
		if !ok && ps != nil {
			t.Fatal("params without a challenge")
		}
		if len(ps) > 32 {
			t.Fatalf("%d params", len(ps))
		}
	})
}

func FuzzDecodeMetadata(f *testing.F) {
	for _, s := range []string{prm, as, `{}`, `[]`, `{"authorization_servers": "x"}`, `{"a": {"b": [1, 2, {"c": null}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &ProtectedResourceMetadata{}
		if err := decodeMetadata(b, m); err != nil && !errors.Is(err, oauthmeta.ErrMetadata) {
			t.Fatalf("unclassified error %v", err)
		}
		a := &AuthServerMetadata{}
		_ = decodeMetadata(b, a)
		_ = a.HasS256()
	})
}

func FuzzJSONRPCMessages(f *testing.F) {
	f.Add("text/event-stream", []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"))
	f.Add("application/json", []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-1}}`))
	f.Add("text/event-stream", []byte("data: a\ndata: b\n\ndata:"))
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		msgs := jsonRPCMessages(ct, body)
		total := 0
		for _, m := range msgs {
			total += len(m)
		}
		if total > len(body) {
			t.Fatalf("messages hold %d bytes of a %d-byte body", total, len(body))
		}
		e := &exchange{Exchange: Exchange{ContentType: ct}, body: body}
		_ = e.isJSONRPC()
		_, _ = requestOffer(body)
	})
}

// BenchmarkProbe measures one probe (server/discover, initialize,
// initialized, tools/list, close) against an open go-sdk server with 20
// tools on the fake internet: time, requests and response bytes per probe.
func BenchmarkProbe(b *testing.B) {
	n := fetchtest.New()
	b.Cleanup(n.Close)
	n.Site("shop.example", newServer(20, nil))
	c := n.Client()
	var requests, bytes int64
	b.ReportAllocs()
	for b.Loop() {
		r, err := Probe(context.Background(), "https://shop.example/mcp", &Options{Client: c})
		if err != nil || r.Outcome != OutcomeListed || r.Tools.ListedWithoutToken != 20 {
			b.Fatalf("probe: %v %s", err, r.Reason)
		}
		for _, e := range r.Handshake {
			requests++
			bytes += e.Bytes
		}
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/probe")
	b.ReportMetric(float64(bytes)/float64(b.N), "resp-bytes/probe")
}

// TestProbeReceiptWhileStreamDrains: a server that goes on writing to an SSE
// response after the answer the client wanted. The MCP client drains such a
// stream in a goroutine of its own, which may still be reading when the
// probe writes its receipt: the receipt is built from a copy taken under the
// recorder's lock, so that (under -race) nothing is read while being written.
func TestProbeReceiptWhileStreamDrains(t *testing.T) {
	s := &site{mcp: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusOK)
			return
		}
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(b, &req)
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"drip","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"search","inputSchema":{"type":"object"}}]}`
		default:
			if len(req.ID) == 0 { // a notification
				w.WriteHeader(http.StatusAccepted)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "s1")
		fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", req.ID, result)
		w.(http.Flusher).Flush()
		// Comments after the answer, while the probe is finishing.
		for range 20 {
			time.Sleep(5 * time.Millisecond)
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})}
	for range 10 {
		r := probe(t, s, nil)
		assert.Equal(t, OutcomeListed, r.Outcome, r.Reason)
		assert.Equal(t, 1, r.Tools.ListedWithoutToken)
	}
}

// TestProbeRefusalsSayWhy: an endpoint the fetch policy refuses (an http
// endpoint outside development mode, a host that resolves to a private
// address) is Probe's error with safefetch's reason, as at every other
// entry point of the module, never a receipt with a nil error; and a
// go-sdk server's default DNS-rebinding protection, which answers 403 to a
// loopback request whose Host is a public name, is named in the receipt as
// the likely cause.
func TestProbeRefusalsSayWhy(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	srv := mcp.NewServer(&mcp.Implementation{Name: "shop", Version: "1"}, nil)
	n.Site("guarded.example", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	n.Host("intranet.example", "10.0.0.7")
	for _, tt := range []struct {
		endpoint string
		want     []string
		refused  error
	}{
		{"http://guarded.example/mcp", []string{`scheme "http"`}, safefetch.ErrForbiddenURL},
		{"https://intranet.example/mcp", []string{"10.0.0.7", "Private-Use"}, safefetch.ErrForbiddenAddress},
		{"https://guarded.example/mcp", []string{"403", "likely cause", "DNS-rebinding protection", "DisableLocalhostProtection"}, nil},
	} {
		t.Run(tt.endpoint, func(t *testing.T) {
			r, err := Probe(t.Context(), tt.endpoint, &Options{Client: n.Client()})
			if tt.refused != nil {
				require.ErrorIs(t, err, tt.refused)
				assert.Nil(t, r)
				for _, w := range tt.want {
					assert.Contains(t, err.Error(), w)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, OutcomeUnanswered, r.Outcome)
			for _, w := range tt.want {
				assert.Contains(t, r.Reason, w)
			}
		})
	}
}

// A probe whose context is cancelled during the handshake ends every
// request it sent, the one the MCP client sends from a context of its own
// included: the endpoint sees each request's context end, at once.
func TestProbeCancelledEndsItsRequests(t *testing.T) {
	n := fetchtest.New()
	defer n.Close()
	arrived := make(chan struct{}, 8)
	ended := make(chan struct{}, 8)
	n.Site("hang.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The body is read, so that the server notices the client's
		// closing of the connection (net/http's background read).
		_, _ = io.Copy(io.Discard, r.Body)
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			ended <- struct{}{}
		case <-time.After(20 * time.Second):
		}
	}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = Probe(ctx, "https://hang.example/mcp", &Options{Client: n.Client()})
	}()
	<-arrived
	cancel()
	<-done
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the initialize POST was still open 5 s after the probe was cancelled")
	}
}

// dropWriter removes a JSON member from what a handler writes.
type dropWriter struct {
	http.ResponseWriter
	drop string
}

func (d dropWriter) Write(p []byte) (int, error) {
	if _, err := d.ResponseWriter.Write([]byte(strings.ReplaceAll(string(p), d.drop, ""))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (d dropWriter) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// A 2026-07-28 server must put ttlMs and cacheScope on server/discover and
// list results (the schema's CacheableResult); what it leaves out is named.
// The go-sdk server, a peer, leaves out nothing; every POST carries the
// method in Mcp-Method.
func TestProbe20260728Cacheable(t *testing.T) {
	var methods []string
	var mu sync.Mutex
	record := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				mu.Lock()
				methods = append(methods, r.Header.Get("Mcp-Method"))
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	}
	r := probe(t, &site{mcp: record(newServer(3, []string{"2026-07-28"}))}, nil)
	assert.Equal(t, Version20260728, r.Protocol.Negotiated)
	assert.Empty(t, r.Omissions, "the go-sdk server puts ttlMs and cacheScope on its results")
	assert.Equal(t, []string{"server/discover", "tools/list"}, methods, "Mcp-Method on every POST")

	strip := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(dropWriter{ResponseWriter: w, drop: `"ttlMs":0,`}, r)
		})
	}
	r = probe(t, &site{mcp: strip(newServer(3, []string{"2026-07-28"}))}, nil)
	assert.Equal(t, []string{
		"the server/discover result at https://shop.example/mcp has no valid ttlMs (a number of milliseconds, at least 0), which 2026-07-28 requires on cacheable results",
		"the tools/list result at https://shop.example/mcp has no valid ttlMs (a number of milliseconds, at least 0), which 2026-07-28 requires on cacheable results",
	}, r.Omissions)

	old := probe(t, &site{mcp: strip(newServer(3, []string{"2025-11-25"}))}, nil)
	assert.Empty(t, old.Omissions, "a 2025-11-25 session owes no ttlMs")
}
