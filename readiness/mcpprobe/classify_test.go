package mcpprobe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

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
		// Well under the handler's 10 s: the probe's own deadline ended it.
		// Every request the SDK sends after it, notifications/cancelled
		// included, ends by that deadline too.
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

// The receipt shows at most 2 KiB of a body, as Exchange.Body's doc says,
// and never splits it into invalid UTF-8.
func TestBodyTextShowsTwoKiB(t *testing.T) {
	assert.Len(t, bodyText(bytes.Repeat([]byte("a"), 3<<10)), 2<<10)
	assert.Equal(t, "short", bodyText([]byte("short")))
	assert.True(t, utf8.ValidString(bodyText(append([]byte("a"), bytes.Repeat([]byte("é"), 2<<10)...))))
}
