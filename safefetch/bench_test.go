package safefetch_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/agentweb/agentweb/internal/benchratio"
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

// withLength serves body, written at once, with its Content-Length.
func withLength(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	})
}

// getPreallocated is the fairest net/http baseline. It reads the body of a
// GET into a buffer sized from Content-Length, as safefetch does.
func getPreallocated(c *http.Client, url string) (*http.Response, error) {
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got := make([]byte, resp.ContentLength)
	_, err = io.ReadFull(resp.Body, got)
	return resp, err
}

// BenchmarkFetch1MiB fetches a 1 MiB body (with Content-Length) over
// loopback TLS with safefetch and with a plain net/http client, in the same
// run against the same server. The targets: safefetch within 1.3x
// the plain client's time, and at most 1.5x the body size allocated.
func BenchmarkFetch1MiB(b *testing.B) {
	n := fetchtest.New()
	defer n.Close()
	body := bytes.Repeat([]byte("0123456789abcdef"), mib/16)
	n.Site("bench.example", withLength(body))
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
	b.Run("net-http-preallocated", func(b *testing.B) {
		// The fairest baseline: the same transport reads into a buffer
		// sized from Content-Length, as safefetch does.
		c := plainClient(n)
		b.SetBytes(mib)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := getPreallocated(c, u); err != nil {
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

// BenchmarkFetch1MiBInterleaved alternates the three clients of
// BenchmarkFetch1MiB within each iteration, so that the ratios it reports
// (safefetch time over each plain client's time) are measured under the
// same load even on a busy machine.
func BenchmarkFetch1MiBInterleaved(b *testing.B) {
	n := fetchtest.New()
	defer n.Close()
	body := bytes.Repeat([]byte("0123456789abcdef"), mib/16)
	n.Site("bench.example", withLength(body))
	const u = "https://bench.example/"
	sc, pc := n.Client(), plainClient(n)
	plain := func(prealloc bool) {
		if prealloc {
			if _, err := getPreallocated(pc, u); err != nil {
				b.Fatal(err)
			}
			return
		}
		resp, err := pc.Get(u)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		if _, err = io.ReadAll(resp.Body); err != nil {
			b.Fatal(err)
		}
	}
	var tSafe, tAll, tPre time.Duration
	for b.Loop() {
		t0 := time.Now()
		resp, err := sc.Get(context.Background(), u, nil)
		if err != nil || len(resp.Body) != mib {
			b.Fatal(err)
		}
		t1 := time.Now()
		plain(false)
		t2 := time.Now()
		plain(true)
		t3 := time.Now()
		tSafe += t1.Sub(t0)
		tAll += t2.Sub(t1)
		tPre += t3.Sub(t2)
	}
	b.ReportMetric(float64(tSafe)/float64(b.N), "safefetch-ns/op")
	b.ReportMetric(float64(tAll)/float64(b.N), "nethttp-readall-ns/op")
	b.ReportMetric(float64(tPre)/float64(b.N), "nethttp-prealloc-ns/op")
	b.ReportMetric(float64(tSafe)/float64(tAll), "ratio-vs-readall")
	b.ReportMetric(float64(tSafe)/float64(tPre), "ratio-vs-prealloc")
}

// BenchmarkFetch1MiBHTTP2 is BenchmarkFetch1MiB over HTTP/2 (a loopback
// server in development mode), where safefetch's flow-control windows are
// smaller than net/http's defaults (see the package documentation,
// "Connections"): the cost of bounding what a server may have in flight.
func BenchmarkFetch1MiBHTTP2(b *testing.B) {
	body := bytes.Repeat([]byte("0123456789abcdef"), mib/16)
	srv := httptest.NewUnstartedServer(withLength(body))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	roots := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	b.Run("safefetch", func(b *testing.B) {
		c := safefetch.New(&safefetch.Options{AllowLoopback: true, RootCAs: roots})
		b.SetBytes(mib)
		for b.Loop() {
			resp, err := c.Get(context.Background(), srv.URL, nil)
			if err != nil || len(resp.Body) != mib || resp.Proto != "HTTP/2.0" {
				b.Fatal(err)
			}
		}
	})
	b.Run("net-http", func(b *testing.B) {
		c := srv.Client()
		b.SetBytes(mib)
		for b.Loop() {
			resp, err := getPreallocated(c, srv.URL)
			if err != nil || resp.ProtoMajor != 2 {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFetchBudgeted fetches bodies under Budgets, as a scan does (a
// Client whose own Budget has a scan's Budget nested in it, bytes charged
// as they are read), alternately with a plain net/http client reading the
// same body, and reports the ratio of their times: the cost of the budget
// accounting on the fetch path, under the same load. Bodies of 1 MiB with
// a Content-Length, and of 64 KiB chunked (the size of a typical page).
func BenchmarkFetchBudgeted(b *testing.B) {
	n := fetchtest.New()
	defer n.Close()
	body := bytes.Repeat([]byte("0123456789abcdef"), mib/16)
	n.Site("bench.example", withLength(body))
	n.Site("page.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 64<<10; i += 8 << 10 {
			_, _ = w.Write(body[i : i+8<<10])
			w.(http.Flusher).Flush()
		}
	}))
	for _, tc := range []struct{ name, url string }{{"1MiB", "https://bench.example/"}, {"64KiB-chunked", "https://page.example/"}} {
		b.Run(tc.name, func(b *testing.B) {
			opts := n.Options()
			opts.Budget = safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 1 << 50, Attempts: 1 << 30, Concurrency: 5})
			sc := safefetch.New(opts).WithBudget(safefetch.NewBudget(safefetch.BudgetLimits{Bytes: 1 << 50, Attempts: 1 << 30, Concurrency: 5}))
			pc := plainClient(n)
			benchratio.Run(b, func() error {
				_, err := sc.Get(context.Background(), tc.url, nil)
				return err
			}, func() error {
				resp, err := pc.Get(tc.url)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				_, err = io.ReadAll(resp.Body)
				return err
			})
		})
	}
}
