package openagent

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func htmlPage(head string, linkHeaders ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, l := range linkHeaders {
			w.Header().Add("Link", l)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>Agent</title>%s</head><body><p>An agent.</p></body></html>", head)
	}
}

func profileHandler(t *testing.T, mutate func(p *Profile)) http.Handler {
	t.Helper()
	p := exampleProfile(t)
	if mutate != nil {
		mutate(p)
	}
	h, err := Handler(p, nil)
	require.NoError(t, err)
	return h
}

func TestDiscoverMechanisms(t *testing.T) {
	n := newNet(t)

	// Only the well-known descriptor.
	wk := http.NewServeMux()
	wk.Handle(WellKnownPath, profileHandler(t, nil))
	wk.Handle("/", htmlPage(""))
	n.Site("wk.example", wk)

	// Only a <link> element, relative to the page.
	el := http.NewServeMux()
	el.Handle("/agents/research", htmlPage(`<link rel="openagent" type="application/json" href="research.json">`))
	el.Handle("/agents/research.json", profileHandler(t, nil))
	n.Site("element.example", el)

	// Only a Link header, relative to the response URL after a redirect.
	hd := http.NewServeMux()
	hd.Handle("/start", http.RedirectHandler("/team/page", http.StatusFound))
	hd.Handle("/team/page", htmlPage("", `<agent.json>; rel="openagent"; type="application/json"`))
	hd.Handle("/team/agent.json", profileHandler(t, nil))
	n.Site("header.example", hd)

	// A page whose <base> moves relative references elsewhere.
	bs := http.NewServeMux()
	bs.Handle("/p", htmlPage(`<base href="https://base.example/dir/"><link rel="openagent" type="application/json" href="a.json">`))
	n.Site("base.example", bs)

	// All three at once, with the same URL twice.
	all := http.NewServeMux()
	all.Handle(WellKnownPath, profileHandler(t, nil))
	all.Handle("/", htmlPage(`<link rel="openagent" type="application/json" href="/.well-known/openagent.json">`,
		`</agents/b.json>; rel="openagent"; type="application/json"`))
	n.Site("all.example", all)

	opts := &FetchOptions{Client: n.Client()}
	tests := []struct {
		name  string
		page  string
		want  []Descriptor
		final string
	}{
		{"well-known", "https://wk.example/", []Descriptor{
			{URL: "https://wk.example/.well-known/openagent.json", Via: MechanismWellKnown, Source: "https://wk.example/.well-known/openagent.json"},
		}, "https://wk.example/"},
		{"link element, relative", "https://element.example/agents/research", []Descriptor{
			{URL: "https://element.example/agents/research.json", Via: MechanismLinkElement, Source: "https://element.example/agents/research"},
		}, "https://element.example/agents/research"},
		{"link header, relative to the response URL", "https://header.example/start", []Descriptor{
			{URL: "https://header.example/team/agent.json", Via: MechanismLinkHeader, Source: "https://header.example/team/page"},
		}, "https://header.example/team/page"},
		{"base element", "https://base.example/p", []Descriptor{
			{URL: "https://base.example/dir/a.json", Via: MechanismLinkElement, Source: "https://base.example/p"},
		}, "https://base.example/p"},
		{"all three", "https://all.example/", []Descriptor{
			{URL: "https://all.example/.well-known/openagent.json", Via: MechanismWellKnown, Source: "https://all.example/.well-known/openagent.json"},
			{URL: "https://all.example/.well-known/openagent.json", Via: MechanismLinkElement, Source: "https://all.example/"},
			{URL: "https://all.example/agents/b.json", Via: MechanismLinkHeader, Source: "https://all.example/"},
		}, "https://all.example/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Discover(t.Context(), tc.page, opts)
			require.NoError(t, err)
			assert.Equal(t, tc.want, d.Descriptors)
			assert.Equal(t, tc.final, d.FinalURL)
			assert.Empty(t, d.Failures)
			assert.False(t, d.Retrieved.IsZero())

			// Every descriptor that the site serves can be fetched.
			for _, u := range d.URLs() {
				if u == "https://base.example/dir/a.json" || u == "https://all.example/agents/b.json" {
					continue
				}
				rec, err := d.Fetch(t.Context(), u, &FetchOptions{Client: n.Client(), ExpectDID: "research.coinpay"})
				require.NoError(t, err, u)
				assert.Equal(t, u, rec.URL)
			}
		})
	}
	assert.Equal(t, []string{"https://all.example/.well-known/openagent.json", "https://all.example/agents/b.json"},
		must(Discover(t.Context(), "https://all.example/", opts)).URLs())
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestDiscoverCrossHostAndSkips(t *testing.T) {
	n := newNet(t)
	blog := http.NewServeMux()
	n.Site("blog.example", blog)
	blog.Handle("/about", htmlPage(
		`<link rel="openagent" type="application/json" href="https://agents.example/research.json">`+
			`<link rel="openagent" type="text/html" href="/wrong-type">`+
			`<link rel="openagent" type="application/json" href="http://agents.example/plain.json">`+
			`<link rel="openagent" type="application/json" href="https://127.0.0.1/loopback.json">`+
			`<link rel="alternate" type="application/json" href="/not-openagent.json">`+
			`<!-- <link rel="openagent" type="application/json" href="/commented.json"> -->`,
		`<https://other.example/x.json>; rel="openagent"; type="application/json"; anchor="https://else.example/"`,
		`<https://agents.example/other.json>; rel="openagent"`,
	))
	n.Site("agents.example", profileHandler(t, nil))
	opts := &FetchOptions{Client: n.Client()}

	d, err := Discover(t.Context(), "https://blog.example/about", opts)
	require.NoError(t, err)
	assert.Equal(t, []Descriptor{
		{URL: "https://agents.example/research.json", Via: MechanismLinkElement, Source: "https://blog.example/about", CrossHost: true},
		{URL: "https://agents.example/other.json", Via: MechanismLinkHeader, Source: "https://blog.example/about", CrossHost: true},
	}, d.Descriptors)
	var skipped []string
	for _, s := range d.Skipped {
		skipped = append(skipped, string(s.Via)+" "+s.Href)
		assert.NotEmpty(t, s.Reason)
	}
	assert.Equal(t, []string{
		"link-element https://blog.example/wrong-type",
		"link-element http://agents.example/plain.json",
		"link-element https://127.0.0.1/loopback.json",
		"link-header https://other.example/x.json",
	}, skipped)

	// The cross-host descriptor is fetched from its own host and keeps its
	// source; ownership is verified separately.
	rec, err := Fetch(t.Context(), d.Descriptors[0].URL, opts)
	require.NoError(t, err)
	assert.Equal(t, "https://agents.example/research.json", rec.URL)
	assert.Equal(t, 0, n.Requests("127.0.0.1"))
}

func TestDiscoverNothing(t *testing.T) {
	n := newNet(t)
	n.Site("empty.example", htmlPage(""))
	n.Site("html-wellknown.example", htmlPage("")) // serves HTML at every path, the well-known included
	opts := &FetchOptions{Client: n.Client()}

	d, err := Discover(t.Context(), "https://empty.example/", opts)
	assert.ErrorIs(t, err, ErrNoDescriptor)
	require.NotNil(t, d, "the record comes with ErrNoDescriptor")
	assert.Empty(t, d.URLs())

	d, err = Discover(t.Context(), "https://html-wellknown.example/", opts)
	assert.ErrorIs(t, err, ErrNoDescriptor)
	assert.Empty(t, d.Descriptors)
	require.Len(t, d.Skipped, 1)
	assert.Equal(t, MechanismWellKnown, d.Skipped[0].Via)

	// A well-known path that fails with a server error is reported; the
	// page's own 404 is too.
	broken := http.NewServeMux()
	broken.HandleFunc(WellKnownPath, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	n.Site("broken.example", broken)
	d, err = Discover(t.Context(), "https://broken.example/missing", opts)
	assert.ErrorIs(t, err, ErrNoDescriptor)
	assert.ErrorIs(t, err, safefetch.ErrStatus, "the failures are joined to the error")
	require.Len(t, d.Failures, 2)
	assert.ErrorIs(t, d.Failures[0].Err(), safefetch.ErrStatus)
	assert.Equal(t, "https://broken.example/.well-known/openagent.json", d.Failures[0].URL)
	var se *safefetch.StatusError
	require.ErrorAs(t, d.Failures[1].Err(), &se)
	assert.Equal(t, http.StatusNotFound, se.StatusCode)

	// A host that does not resolve: both requests fail, and say so.
	n.Host("gone.example")
	d, err = Discover(t.Context(), "https://gone.example/", opts)
	assert.ErrorIs(t, err, ErrNoDescriptor)
	assert.Len(t, d.Failures, 2)

	d, err = Discover(t.Context(), "http://empty.example/", opts)
	assert.Error(t, err, "an http page URL is refused")
	assert.Nil(t, d)
	_, err = Discover(t.Context(), "https://127.0.0.1/", nil)
	assert.Error(t, err)
}

func TestDirectoryOverNetwork(t *testing.T) {
	n := newNet(t)
	n.Site("a.example", profileHandler(t, nil))
	n.Site("b.example", profileHandler(t, func(p *Profile) { p.OwnerDID = "mallory.example" }))
	n.Site("c.example", profileHandler(t, nil))
	opts := &FetchOptions{Client: n.Client(), ExpectDID: "research.coinpay"}

	var dir Directory
	for _, host := range []string{"a.example", "c.example", "b.example"} {
		rec, err := Fetch(t.Context(), "https://"+host+WellKnownPath, opts)
		require.NoError(t, err)
		_, err = dir.Add(rec)
		require.NoError(t, err)
	}
	e, ok := dir.Lookup("research.coinpay")
	require.True(t, ok)
	assert.Nil(t, e.Profile, "conflicting owners are never combined")
	require.Len(t, e.Conflicts, 1)
	assert.True(t, e.Conflicts[0].Ownership())
	assert.Equal(t, []SourcedValue{
		{SourceURL: "https://a.example/.well-known/openagent.json", Value: `"operator.coinpay"`},
		{SourceURL: "https://b.example/.well-known/openagent.json", Value: `"mallory.example"`},
		{SourceURL: "https://c.example/.well-known/openagent.json", Value: `"operator.coinpay"`},
	}, e.Conflicts[0].Values)
	assert.Empty(t, dir.PublicEntries())
}

// TestDiscoverThenFetchRequestsOnce: Discover reads the well-known
// descriptor, and Discovery.Fetch returns it without asking again; another
// descriptor is fetched as Fetch does.
func TestDiscoverThenFetchRequestsOnce(t *testing.T) {
	n := newNet(t)
	var wkHits, otherHits atomic.Int32
	mux := http.NewServeMux()
	wk := profileHandler(t, nil)
	mux.HandleFunc(WellKnownPath, func(w http.ResponseWriter, r *http.Request) { wkHits.Add(1); wk.ServeHTTP(w, r) })
	mux.HandleFunc("/b.json", func(w http.ResponseWriter, r *http.Request) { otherHits.Add(1); wk.ServeHTTP(w, r) })
	mux.Handle("/", htmlPage(`<link rel="openagent" type="application/json" href="/b.json">`))
	n.Site("once.example", mux)
	n.Site("invalid.example", serveJSON(`{"type":"logicsrc.agent"}`, "application/json"))
	opts := &FetchOptions{Client: n.Client()}

	d, err := Discover(t.Context(), "https://once.example/", opts)
	require.NoError(t, err)
	assert.Equal(t, 2, n.Requests("once.example"), "the well-known URL and the page")
	for range 2 {
		for _, u := range d.URLs() {
			rec, err := d.Fetch(t.Context(), u, &FetchOptions{Client: n.Client(), ExpectDID: "research.coinpay"})
			require.NoError(t, err, u)
			assert.Equal(t, u, rec.URL)
			assert.Equal(t, "research.coinpay", rec.Profile.DID)
		}
	}
	assert.Equal(t, int32(1), wkHits.Load(), "the well-known descriptor is requested once")
	assert.Equal(t, int32(2), otherHits.Load(), "a descriptor Discover did not read is fetched each time")
	assert.Equal(t, 4, n.Requests("once.example"))

	// The carried record is a copy, and ExpectDID still applies to it.
	rec, err := d.Fetch(t.Context(), d.URLs()[0], nil)
	require.NoError(t, err)
	rec.Profile.Name = "changed"
	again, err := d.Fetch(t.Context(), d.URLs()[0], nil)
	require.NoError(t, err)
	assert.Equal(t, "Research agent", again.Profile.Name)
	_, err = d.Fetch(t.Context(), d.URLs()[0], &FetchOptions{ExpectDID: "someone.else"})
	assert.ErrorIs(t, err, ErrDIDMismatch)
	assert.Equal(t, int32(1), wkHits.Load())

	// With Previous, the request is a revalidation and goes out.
	rec, err = d.Fetch(t.Context(), d.URLs()[0], &FetchOptions{Client: n.Client(), Previous: &again.Provenance})
	require.NoError(t, err)
	assert.True(t, rec.NotModified)
	assert.Equal(t, int32(2), wkHits.Load())

	// An invalid well-known profile is listed, and Fetch returns its
	// problems without a second request.
	d, err = Discover(t.Context(), "https://invalid.example/", opts)
	require.NoError(t, err)
	require.Len(t, d.Descriptors, 1)
	before := n.Requests("invalid.example")
	_, err = d.Fetch(t.Context(), d.URLs()[0], opts)
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "https://invalid.example/.well-known/openagent.json", ve.Source)
	assert.True(t, ve.Has(RuleSchemaRequired))
	assert.Equal(t, before, n.Requests("invalid.example"))
}

// TestDiscoveryFetchUsesTheDiscoverClient: Discovery.Fetch without a
// client of its own reads the other descriptors with the client Discover
// was given (a fake internet's here, where safefetch.Default() would
// resolve nothing).
func TestDiscoveryFetchUsesTheDiscoverClient(t *testing.T) {
	n := newNet(t)
	mux := http.NewServeMux()
	mux.Handle("/b.json", profileHandler(t, nil))
	mux.Handle("/", htmlPage(`<link rel="openagent" type="application/json" href="/b.json">`))
	n.Site("elsewhere.example", mux)
	d, err := Discover(t.Context(), "https://elsewhere.example/", &FetchOptions{Client: n.Client()})
	require.NoError(t, err)
	require.Equal(t, []string{"https://elsewhere.example/b.json"}, d.URLs())
	for _, opts := range []*FetchOptions{nil, {ExpectDID: "research.coinpay"}} {
		rec, err := d.Fetch(t.Context(), d.URLs()[0], opts)
		require.NoError(t, err)
		assert.Equal(t, "research.coinpay", rec.Profile.DID)
	}
}

func TestDiscoverNormalizesThePageURL(t *testing.T) {
	n := newNet(t)
	blog := http.NewServeMux()
	n.Site("blog.example", blog)
	blog.Handle("/about", htmlPage(`<link rel="openagent" type="application/json" href="https://blog.example/agent.json">`))
	opts := &FetchOptions{Client: n.Client()}
	for _, page := range []string{"https://blog.example/about", "https://blog.example:443/about", "https://BLOG.example./about", "HTTPS://Blog.Example.:443/about#me"} {
		t.Run(page, func(t *testing.T) {
			d, err := Discover(t.Context(), page, opts)
			require.NoError(t, err) // discovery lists descriptors; fetching them is Fetch's job
			require.NotNil(t, d)
			assert.Equal(t, "https://blog.example/about", d.PageURL, "the discovery states the normalized URL")
			require.Len(t, d.Descriptors, 1)
			assert.Equal(t, Descriptor{URL: "https://blog.example/agent.json", Via: MechanismLinkElement, Source: "https://blog.example/about", CrossHost: false}, d.Descriptors[0],
				"a descriptor on the page's own host is not cross-host however the page URL was written")
		})
	}
}
