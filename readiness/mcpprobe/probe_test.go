package mcpprobe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"

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
			if slices.ContainsFunc(tc.offers, func(o Offer) bool { return o.RPC == "initialize" }) {
				require.NotEmpty(t, s.caps, "initialize was recorded")
			}
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

// TestProbeNilClientIsDefault: a nil Client is safefetch.Default(), whose
// connection reuse safefetch tests; a Client given is used as is.
func TestProbeNilClientIsDefault(t *testing.T) {
	assert.Same(t, safefetch.Default(), (&Options{}).client())
	own := safefetch.New(nil)
	assert.Same(t, own, (&Options{Client: own}).client())
}

// BenchmarkProbe measures one probe against an open go-sdk server with 20
// tools on the fake internet. A probe is server/discover, initialize,
// initialized, tools/list and close. It reports time, requests and response
// bytes per probe.
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

// TestProbeRefusalsSayWhy: an endpoint the fetch policy refuses is Probe's
// error with safefetch's reason. Examples are an http endpoint outside
// development mode, and a host that resolves to a private address. That is
// so at every other entry point of the module too, never a receipt with a
// nil error. A go-sdk server's default DNS-rebinding protection answers 403
// to a loopback request whose Host is a public name. The receipt names it
// as the likely cause.
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
