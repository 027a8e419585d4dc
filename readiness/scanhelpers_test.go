package readiness

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/require"
)

// scanMux scans https://host/ served by h, reading no further route.
func scanMux(t testing.TB, host string, h http.Handler, timeout time.Duration) *Report {
	t.Helper()
	return scanHosts(t, host, map[string]http.Handler{host: h}, timeout)
}

// scanHosts scans https://host/ on a fake internet of the given hosts,
// reading no further route.
func scanHosts(t testing.TB, host string, hosts map[string]http.Handler, timeout time.Duration) *Report {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	for h, handler := range hosts {
		n.Site(h, handler)
	}
	o := n.Options()
	o.Timeout = timeout
	r, err := Scan(context.Background(), "https://"+host+"/", &Options{Client: safefetch.New(o), MaxPages: -1})
	require.NoError(t, err)
	return r
}

func requirementMet(r *Report, id string) bool {
	for _, q := range r.Requirements {
		if q.ID == id {
			return q.Met
		}
	}
	return false
}

// scanWith scans https://shop.example/ served by h.
func scanWith(t *testing.T, h http.Handler, opts *Options, tune ...func(*safefetch.Options)) *Report {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("shop.example", h)
	o := n.Options()
	o.Timeout = 5 * time.Second
	for _, f := range tune {
		f(o)
	}
	var op Options
	if opts != nil {
		op = *opts
	}
	op.Client = safefetch.New(o)
	r, err := Scan(context.Background(), "https://shop.example/", &op)
	require.NoError(t, err)
	return r
}

func scanSite(t testing.TB, ts *testSite, timeout time.Duration, opts *Options) (*Report, *fetchtest.Network) {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site(ts.host, ts)
	n.Site("www."+ts.host, ts)
	o := n.Options()
	o.Timeout = timeout
	if opts == nil {
		opts = &Options{}
	}
	opts.Client = safefetch.New(o)
	opts.Now = func() time.Time { return time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC) }
	r, err := Scan(context.Background(), ts.base()+"/", opts)
	require.NoError(t, err)
	return r, n
}

func checkByID(r *Report, id string) CheckResult {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return CheckResult{}
}

func observationByID(r *Report, id string) Observation {
	for _, o := range r.Observations {
		if o.ID == id {
			return o
		}
	}
	return Observation{}
}
