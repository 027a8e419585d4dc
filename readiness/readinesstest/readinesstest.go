package readinesstest

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// An Option adds to what [Scan] serves.
type Option func(*config)

type config struct {
	hosts []host
}

type host struct {
	name string
	h    http.Handler
}

// WithHost serves h at https://name/ as well, on the same fake internet.
// Such a host is an authorization server, a CDN the pages load scripts
// from, or the www counterpart of the origin. The name is a DNS name,
// without a port.
func WithHost(name string, h http.Handler) Option {
	return func(c *config) { c.hosts = append(c.hosts, host{name, h}) }
}

// Scan serves h at origin with a certificate the scan trusts. The origin is an
// https URL whose host is a DNS name, without a port; the scan starts at its
// path, "/" when it has none. The host is served and scanned in its
// normal form: lower case, an IDN as its A-label ("xn--..."). Scan scans it with [readiness.Scan] and the
// options given; nil means the defaults. Their Client is replaced by one that
// reaches only the fake internet. Scan closes the servers and returns the
// report. Any other host the scan asks for does not resolve, unless an Option
// serves it. The scan runs under the test's context.
//
// Scan fails the test (t.Fatalf, with the error) only when the scan could
// not run: an origin that is not an https URL, or an error from
// [readiness.Scan]. A site that scores badly is a report, for [Require].
func Scan(t testing.TB, h http.Handler, origin string, opts *readiness.Options, more ...Option) *readiness.Report {
	t.Helper()
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		t.Fatalf("readinesstest: origin %q is not an https URL (https://host[/path])", origin)
		return nil
	}
	name, err := hostName(u.Host)
	if err != nil {
		t.Fatalf("readinesstest: origin %q: %v", origin, err)
		return nil
	}
	u.Host = name
	var c config
	for _, o := range more {
		o(&c)
	}
	names := make([]string, len(c.hosts))
	for i, x := range c.hosts {
		if names[i], err = hostName(x.name); err != nil {
			t.Fatalf("readinesstest: WithHost(%q): %v", x.name, err)
			return nil
		}
	}
	n := fetchtest.New()
	defer n.Close()
	n.Site(name, h)
	for i, x := range c.hosts {
		n.Site(names[i], x.h)
	}
	var o readiness.Options
	if opts != nil {
		o = *opts
	}
	o.Client = safefetch.New(n.Options())
	page := u.String()
	if u.Path == "" {
		page += "/"
	}
	rep, err := readiness.Scan(t.Context(), page, &o)
	if err != nil {
		t.Fatalf("readinesstest: the scan of %s could not run: %v", page, err)
		return nil
	}
	return rep
}

// Want is what a test asks of a report. Its zero value asks nothing; each
// field set adds a demand, and [Require] reports every one that is not
// met.
type Want struct {
	// Score is the lowest score (0 to 100) that passes.
	Score float64
	// Ready, when true, asks that all ten requirements be met.
	Ready bool
	// Requirements lists requirement ids (R1 to R10) that must be met.
	Requirements []string
	// Pass lists check ids (as in [readiness.Catalogue]) whose verdict
	// must be pass.
	Pass []string
}

// Require checks r against want and, when r falls short, fails the test
// (t.Fatalf). Its one message lists every shortfall at once, as a reader wants
// it. It gives the score against the wanted one, and readiness. It gives each
// unmet requirement (all of them when want.Ready is set) with its status and
// why. It gives each check that should have passed with its verdict and what
// was received. Then it gives the report's whole fix-first list, each fix with
// the points it adds. An id in want that the catalogue does not know is a
// shortfall too, so that a typo cannot pass.
func Require(t testing.TB, r *readiness.Report, want Want) {
	t.Helper()
	if r == nil {
		t.Fatalf("readinesstest: no report")
		return
	}
	var short []string
	if r.Score < want.Score {
		short = append(short, fmt.Sprintf("score %.1f, want at least %.1f", r.Score, want.Score))
	}
	if want.Ready && !r.Ready {
		short = append(short, "not ready, want ready")
	}
	reqs := map[string]readiness.RequirementResult{}
	for _, q := range r.Requirements {
		reqs[q.ID] = q
	}
	listed := map[string]bool{}
	unmet := func(q readiness.RequirementResult) {
		if !listed[q.ID] {
			listed[q.ID] = true
			short = append(short, fmt.Sprintf("%s not met (%s): %s", q.ID, q.Status, q.Why))
		}
	}
	if want.Ready {
		for _, q := range r.Requirements {
			if !q.Met {
				unmet(q)
			}
		}
	}
	for _, id := range want.Requirements {
		q, ok := reqs[id]
		switch {
		case !ok:
			short = append(short, fmt.Sprintf("%s: no such requirement (R1 to R10)", id))
		case !q.Met:
			unmet(q)
		}
	}
	checks := map[string]readiness.CheckResult{}
	for _, c := range r.Checks {
		checks[c.ID] = c
	}
	for _, id := range want.Pass {
		c, ok := checks[id]
		switch {
		case !ok:
			short = append(short, fmt.Sprintf("%s: no such check in the catalogue", id))
		case c.Verdict != readiness.VerdictPass:
			short = append(short, fmt.Sprintf("%s is %s, want pass: %s", c.ID, c.Verdict, c.Receipt.Received))
		}
	}
	if len(short) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "readinesstest: %s falls short (%.1f / 100, %s):\n", r.Site, r.Score, map[bool]string{true: "ready", false: "not ready"}[r.Ready])
	for _, s := range short {
		fmt.Fprintf(&b, "  - %s\n", s)
	}
	if len(r.Fixes) > 0 {
		b.WriteString("fix first (the fix that adds the most points first):\n")
		for i, f := range r.Fixes {
			req := ""
			if f.Requirement != "" {
				req = " (" + f.Requirement + ")"
			}
			fmt.Fprintf(&b, "  %d. +%.1f %s%s: %s\n", i+1, f.Points, f.Check, req, f.Fix)
		}
	}
	t.Fatalf("%s", strings.TrimSuffix(b.String(), "\n"))
}

// hostName returns a host as the fake internet serves it, the form the
// scan asks for: normalized by weburl.NormalizeHost, so lower case and an
// IDN in its A-label form. It refuses a port and an IP literal, as every
// site there is on the default https port, at an address of its own.
func hostName(host string) (string, error) {
	if strings.Contains(host, ":") || strings.Trim(host, "[]") != host {
		return "", fmt.Errorf("%q has a port or is an IPv6 literal: give a DNS name, served on the default https port", host)
	}
	if net.ParseIP(host) != nil {
		return "", fmt.Errorf("%q is an IP address: give a DNS name", host)
	}
	name, err := weburl.NormalizeHost(host)
	if err != nil {
		return "", fmt.Errorf("%q is not a host name: %w", host, err)
	}
	return name, nil
}
