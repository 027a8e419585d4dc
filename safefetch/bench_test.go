package safefetch_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// plainClient is a net/http client with the Network's resolver, dialer and
// roots and nothing else: the baseline for BenchmarkFetch1MiB.
func plainClient(n *fetchtest.Network) *http.Client {
	o := n.Options()
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			addrs, err := o.Resolver.LookupNetIP(ctx, "ip", host)
			if err != nil {
				return nil, err
			}
			return o.Dial(ctx, network, net.JoinHostPort(addrs[0].String(), port))
		},
		TLSClientConfig:   &tls.Config{RootCAs: o.RootCAs},
		ForceAttemptHTTP2: true,
	}}
}

// BenchmarkFetch1MiB fetches a 1 MiB body (with Content-Length) over
// loopback TLS with safefetch and with a plain net/http client, in the same
// run against the same server. The targets: safefetch within 1.3x
// the plain client's time, and at most 1.5x the body size allocated.
func BenchmarkFetch1MiB(b *testing.B) {
	n := fetchtest.New()
	defer n.Close()
	body := bytes.Repeat([]byte("0123456789abcdef"), mib/16)
	n.Site("bench.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1048576")
		_, _ = w.Write(body)
	}))
	n.Site("chunked.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < mib; i += 64 << 10 {
			_, _ = w.Write(body[i : i+64<<10])
			w.(http.Flusher).Flush()
		}
	}))
	const u = "https://bench.example/"
	b.Run("safefetch", func(b *testing.B) {
		c := n.Client()
		b.SetBytes(mib)
		b.ReportAllocs()
		for b.Loop() {
			resp, err := c.Get(context.Background(), u, nil)
			if err != nil || len(resp.Body) != mib {
				b.Fatal(err)
			}
		}
	})
	b.Run("safefetch-chunked", func(b *testing.B) {
		c := n.Client()
		b.SetBytes(mib)
		b.ReportAllocs()
		for b.Loop() {
			resp, err := c.Get(context.Background(), "https://chunked.example/", nil)
			if err != nil || len(resp.Body) != mib {
				b.Fatal(err)
			}
		}
	})
	b.Run("net-http", func(b *testing.B) {
		c := plainClient(n)
		b.SetBytes(mib)
		b.ReportAllocs()
		for b.Loop() {
			resp, err := c.Get(u)
			if err != nil {
				b.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || len(got) != mib {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEndlessBody fetches an endless chunked body: every call ends
// with ErrTooLarge after reading cap+1 bytes, and the memory allocated per
// call stays bounded by the cap.
func BenchmarkEndlessBody(b *testing.B) {
	n := fetchtest.New()
	defer n.Close()
	chunk := bytes.Repeat([]byte("e"), 32<<10)
	n.Site("endless.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	c := n.Client()
	b.ReportAllocs()
	for b.Loop() {
		_, err := c.Get(context.Background(), "https://endless.example/", nil)
		if err == nil {
			b.Fatal("an endless body was accepted")
		}
	}
	_ = safefetch.ErrTooLarge
}
