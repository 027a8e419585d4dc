package linkset

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodeDoc builds the reduced document of host naming the given peer hosts.
func nodeDoc(t testing.TB, host string, peers []string, tombstone bool, successors ...string) []byte {
	t.Helper()
	b := &Builder{BundleIRI: "https://" + host + "/", Reduced: true}
	b.add(Artefact{Relation: "describedby", Href: "https://" + host + "/graph.jsonld", Type: "application/ld+json"})
	for _, p := range peers {
		b.add(Artefact{Relation: RelPeer, Href: "https://" + p + WellKnownPath, Type: MediaType})
	}
	if tombstone {
		b.Tombstone = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		for _, s := range successors {
			b.add(Artefact{Relation: "alternate", Href: "https://" + s + WellKnownPath, Type: MediaType})
		}
	}
	_, body, err := b.Build()
	require.NoError(t, err)
	return body
}

// serveNode puts a node on the network: the document at the well-known path.
func serveNode(n *fetchtest.Network, host string, body []byte) {
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(body, false))
	n.Site(host, mux)
}

func newNetwork(t *testing.T) *fetchtest.Network {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	return n
}

func TestFetchProfileCarriage(t *testing.T) {
	n := newNetwork(t)
	full := readVector(t, vectorFull)
	d := parseVector(t, vectorFull)
	body := canonical(t, d)
	cors := func(w http.ResponseWriter) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "Link, ETag, Content-Type")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", `"x"`)
	}
	site := func(ct, link string, b []byte) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cors(w)
			w.Header().Set("Content-Type", ct)
			if link != "" {
				w.Header().Set("Link", link)
			}
			_, _ = w.Write(b)
		})
	}
	n.Site("example.org", site(contentType, "", body))
	n.Site("link.example.org", site(MediaType, profileLinkHeader, body))
	n.Site("both.example.org", site(MediaType+`; profile="https://other.example/p `+ProfileURI+`"`, `<`+ProfileURI+`>; rel="profile"`, full))
	n.Site("none.example.org", site(MediaType, `<https://other.example/p>; rel="profile"`, body))
	n.Site("json.example.org", site("application/json", profileLinkHeader, body))
	client := n.Client()

	tests := []struct {
		host           string
		inType, inLink bool
		rules          []string
	}{
		{"example.org", true, false, nil},
		{"link.example.org", false, true, []string{"anchor-origin"}},
		{"both.example.org", true, true, []string{"anchor-origin"}},
		{"none.example.org", false, false, []string{"profile-missing", "anchor-origin"}},
		{"json.example.org", false, true, []string{"media-type", "anchor-origin"}},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			f, err := Fetch(t.Context(), "https://"+tc.host+WellKnownPath, &FetchOptions{Client: client})
			requireRead(t, f, err)
			assert.Equal(t, tc.inType, f.ProfileInMediaType)
			assert.Equal(t, tc.inLink, f.ProfileInLink)
			var rules []string
			for _, p := range f.Report.Problems {
				rules = append(rules, p.Rule)
			}
			assert.Equal(t, tc.rules, rules)
			assert.Equal(t, "https://"+tc.host, f.Origin)
			assert.Equal(t, 200, f.StatusCode)
			assert.False(t, f.Retrieved.IsZero())
			assert.Equal(t, len(tc.rules) == 0, f.Report.Conformant())
		})
	}
}

func TestFetchServedByHandler(t *testing.T) {
	n := newNetwork(t)
	_, body, err := exampleBuilder().Build()
	require.NoError(t, err)
	serveNode(n, "example.org", body)
	client := n.Client()
	u := "https://example.org" + WellKnownPath

	f, err := Fetch(t.Context(), u, &FetchOptions{Client: client, Mode: ModeStrict})
	require.NoError(t, err)
	assert.Empty(t, f.Report.Problems)
	assert.Equal(t, FormFull, f.Report.Form)
	assert.True(t, f.ProfileInMediaType)
	assert.False(t, f.ProfileInLink)
	assert.NotEmpty(t, f.ETag)
	assert.Equal(t, body, f.Body)

	// A conditional request with the earlier Provenance is answered 304:
	// the caller keeps its document, the validators are kept.
	again, err := Fetch(t.Context(), u, &FetchOptions{Client: client, Previous: &f.Provenance})
	require.NoError(t, err)
	assert.True(t, again.NotModified)
	assert.Equal(t, 304, again.StatusCode)
	assert.Equal(t, f.ETag, again.ETag)
	assert.Nil(t, again.Document)
	assert.Nil(t, again.Report)
	assert.Equal(t, 2, n.Requests("example.org"))

	// The profile in a Link header instead: the same conformance.
	n.Site("example.org", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &headerOnly{h: http.Header{}}
		handlerFor(body, true).ServeHTTP(rec, r)
		for k, v := range rec.h {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", MediaType)
		w.WriteHeader(rec.code)
		_, _ = w.Write(rec.body.Bytes())
	}))
	f2, err := Fetch(t.Context(), u, &FetchOptions{Client: client, Mode: ModeStrict})
	require.NoError(t, err)
	assert.False(t, f2.ProfileInMediaType)
	assert.True(t, f2.ProfileInLink)
	assert.Equal(t, f.Report, f2.Report)
}

type headerOnly struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (r *headerOnly) Header() http.Header         { return r.h }
func (r *headerOnly) WriteHeader(code int)        { r.code = code }
func (r *headerOnly) Write(b []byte) (int, error) { return r.body.Write(b) }

func TestFetchFailures(t *testing.T) {
	n := newNetwork(t)
	n.Site("gone.example", http.NotFoundHandler())
	n.Site("big.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(bytes.Repeat([]byte(" "), maxDocumentBytes+10))
	}))
	n.Host("intranet.example", "10.0.0.7")
	client := n.Client()

	_, err := Fetch(t.Context(), "https://gone.example"+WellKnownPath, &FetchOptions{Client: client})
	var se *safefetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 404, se.StatusCode)
	assert.ErrorIs(t, err, safefetch.ErrNotFound)

	_, err = Fetch(t.Context(), "https://big.example"+WellKnownPath, &FetchOptions{Client: client})
	assert.ErrorIs(t, err, safefetch.ErrTooLarge)

	_, err = Fetch(t.Context(), "https://intranet.example"+WellKnownPath, &FetchOptions{Client: client})
	assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress)

	_, err = Fetch(t.Context(), "http://example.org"+WellKnownPath, &FetchOptions{Client: client})
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)

	_, err = Fetch(t.Context(), WellKnownPath, &FetchOptions{Client: client})
	assert.ErrorIs(t, err, safefetch.ErrForbiddenURL)
}

func TestVerify(t *testing.T) {
	n := newNetwork(t)
	artefacts := map[string]string{
		"/graph.jsonld": `{"@graph":[]}`,
		"/graph.nq":     "<a> <b> <c> <g> .\n",
		"/graph.ttl":    "<a> <b> <c> .\n",
		"/llms.txt":     "# Example, served differently\n",
	}
	b := &Builder{BundleIRI: "https://example.org/", SourceDate: sourceDate, SpecVersion: "1", BundleVersion: "v1"}
	for p, body := range artefacts {
		rel, typ := RelGraph, "text/turtle"
		switch p {
		case "/graph.jsonld":
			rel, typ = "describedby", "application/ld+json"
		case "/graph.nq":
			typ = "application/n-quads"
		case "/llms.txt":
			rel, typ, body = "alternate", "text/plain", "# Example\n"
		}
		b.add(Artefact{Relation: rel, Href: "https://example.org" + p, Type: typ, Body: []byte(body)})
	}
	b.add(Artefact{Relation: "alternate", Href: "https://example.org/missing.txt", Type: "text/plain", Body: []byte("x")})
	b.add(Artefact{Relation: "license", Href: "https://example.org/legal/"})
	_, doc, err := b.Build()
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(doc, false))
	for p, body := range artefacts {
		mux.Handle(p, CORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) })))
	}
	n.Site("example.org", mux)
	client := n.Client()

	f, err := Fetch(t.Context(), "https://example.org"+WellKnownPath, &FetchOptions{Client: client})
	require.NoError(t, err)
	require.True(t, f.Report.Conformant(), "%v", f.Report.Problems)
	states, hasDigest := map[string]DigestState{}, map[string]bool{}
	for _, s := range f.Verify(t.Context(), &VerifyOptions{Client: client}) {
		p := strings.TrimPrefix(s.Href, "https://example.org")
		states[p], hasDigest[p] = s.State, s.HasDigest
		if !s.HasDigest {
			assert.Empty(t, s.Reason, p)
		}
	}
	assert.Equal(t, map[string]DigestState{
		"/graph.jsonld": DigestVerified, "/graph.nq": DigestVerified, "/graph.ttl": DigestVerified,
		"/llms.txt": DigestMismatch, "/missing.txt": DigestUnverified, "/legal/": DigestUnverified,
	}, states)
	// Both unverified links are told apart by HasDigest: /missing.txt has a
	// digest but answered 404, /legal/ has none (unverified, never invalid).
	assert.Equal(t, map[string]bool{
		"/graph.jsonld": true, "/graph.nq": true, "/graph.ttl": true,
		"/llms.txt": true, "/missing.txt": true, "/legal/": false,
	}, hasDigest)

	// Bounded: with MaxArtefacts 1 only one artefact is retrieved.
	n.ResetRequests()
	var unverified int
	for _, s := range f.Verify(t.Context(), &VerifyOptions{Client: client, MaxArtefacts: 1}) {
		if s.State == DigestUnverified && s.HasDigest {
			unverified++
			assert.NotEmpty(t, s.Reason)
		}
	}
	assert.Equal(t, 1, n.Requests("example.org"))
	assert.Equal(t, 4, unverified)
}

// network20 is a twenty-node peer network with cycles, a tombstone, an
// unreachable peer, an over-large document and a redirect.
func network20(t *testing.T) *fetchtest.Network {
	n := newNetwork(t)
	host := func(i int) string { return fmt.Sprintf("n%02d.example", i) }
	peers := map[int][]int{
		0: {1, 2, 3, 4},
		1: {0, 5, 6, 7},         // back to the start: a cycle
		2: {1, 8, 9, 10},        // across to a sibling
		3: {11, 12, 13, 14},     //
		4: {15, 16, 17, 18, 19}, // 17 tombstoned, 18 unreachable, 19 over-large
	}
	for i := 5; i <= 16; i++ {
		peers[i] = []int{0, (i+1-5)%12 + 5} // depth 2 ring: cycles, nothing new
	}
	for i := 0; i <= 16; i++ {
		var ps []string
		for _, p := range peers[i] {
			ps = append(ps, host(p))
		}
		body := nodeDoc(t, host(i), ps, false)
		if i == 1 {
			// n01 redirects its well-known URL once.
			mux := http.NewServeMux()
			mux.Handle(WellKnownPath, http.RedirectHandler("/kl.json", http.StatusFound))
			mux.Handle("/kl.json", handlerFor(body, false))
			n.Site(host(i), mux)
			continue
		}
		serveNode(n, host(i), body)
	}
	serveNode(n, host(17), nodeDoc(t, host(17), []string{host(0), "beyond.example"}, true, "successor.example"))
	serveNode(n, "successor.example", nodeDoc(t, "successor.example", nil, false))
	serveNode(n, "beyond.example", nodeDoc(t, "beyond.example", nil, false))
	n.Site(host(18), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) }))
	n.Site(host(19), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(bytes.Repeat([]byte("["), 2<<20))
	}))
	return n
}

func TestWalkTwentyNodes(t *testing.T) {
	n := network20(t)
	res, err := Walk(t.Context(), "https://n00.example/", &WalkOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.True(t, res.Complete, "bounds: %v", res.Bounds)
	assert.Empty(t, res.Bounds)
	assert.Len(t, res.Nodes, 20)
	states := map[NodeState]int{}
	for _, node := range res.Nodes {
		states[node.State]++
		assert.Equal(t, node.Depth > 0, node.Untrusted, node.URL)
		assert.Equal(t, strings.TrimSuffix(node.URL, WellKnownPath), node.Origin)
	}
	assert.Equal(t, map[NodeState]int{NodeVisited: 17, NodeTombstoned: 1, NodeUnreachable: 2}, states)
	tomb := nodeOf(res, "https://n17.example"+WellKnownPath)
	require.NotNil(t, tomb)
	assert.Equal(t, []string{"https://successor.example" + WellKnownPath}, tomb.Successors)
	assert.Equal(t, NodeUnreachable, nodeOf(res, "https://n18.example"+WellKnownPath).State)
	big := nodeOf(res, "https://n19.example"+WellKnownPath)
	assert.Equal(t, NodeUnreachable, big.State)
	assert.Contains(t, big.Reason, "too large")

	// Every node fetched exactly once; the redirect counted; the
	// successor and the tombstone's peers never fetched.
	for i := 0; i < 20; i++ {
		want := 1
		if i == 1 {
			want = 2
		}
		assert.Equal(t, want, n.Requests(fmt.Sprintf("n%02d.example", i)), "n%02d", i)
	}
	assert.Zero(t, n.Requests("successor.example"))
	assert.Zero(t, n.Requests("beyond.example"))
	assert.Equal(t, 21, res.Requests)
	assert.LessOrEqual(t, res.Requests, res.RequestBound)
	assert.Equal(t, defaultWalkRequests, res.RequestBound)
}

func TestWalkTwoNodes(t *testing.T) {
	n := newNetwork(t)
	serveNode(n, "a.example", nodeDoc(t, "a.example", []string{"b.example"}, false))
	serveNode(n, "b.example", nodeDoc(t, "b.example", []string{"a.example"}, false))
	res, err := Walk(t.Context(), "https://a.example"+WellKnownPath, &WalkOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.True(t, res.Complete)
	require.Len(t, res.Nodes, 2)
	assert.Equal(t, []string{"https://b.example" + WellKnownPath}, res.Nodes[0].Peers)
	assert.Equal(t, []string{"https://a.example" + WellKnownPath}, res.Nodes[1].Peers)
	assert.Equal(t, 1, n.Requests("a.example"))
	assert.Equal(t, 1, n.Requests("b.example"))
	assert.Equal(t, 2, res.Requests)

	a, err := Parse(nodeDoc(t, "a.example", []string{"b.example"}, false))
	require.NoError(t, err)
	b, err := Parse(nodeDoc(t, "b.example", []string{"a.example"}, false))
	require.NoError(t, err)
	m, err := Mutual(a, b)
	require.NoError(t, err)
	assert.True(t, m.Mutual)
	c, err := Parse(nodeDoc(t, "c.example", []string{"a.example"}, false))
	require.NoError(t, err)
	m, err = Mutual(a, c)
	require.NoError(t, err)
	assert.Equal(t, MutualResult{A: "https://a.example" + WellKnownPath, B: "https://c.example" + WellKnownPath, BToA: true}, m)
}

func TestWalkBounds(t *testing.T) {
	n := newNetwork(t)
	// A chain c0 -> c1 -> ... -> c5, and a hub naming four peers.
	for i := 0; i < 6; i++ {
		var ps []string
		if i < 5 {
			ps = []string{fmt.Sprintf("c%d.example", i+1)}
		}
		serveNode(n, fmt.Sprintf("c%d.example", i), nodeDoc(t, fmt.Sprintf("c%d.example", i), ps, false))
	}
	serveNode(n, "hub.example", nodeDoc(t, "hub.example", []string{"p1.example", "p2.example", "p3.example", "p4.example"}, false))
	for i := 1; i <= 4; i++ {
		serveNode(n, fmt.Sprintf("p%d.example", i), nodeDoc(t, fmt.Sprintf("p%d.example", i), []string{"hub.example"}, false))
	}
	n.Site("slow.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	n.SetLatency("slow.example", 2*time.Second)
	serveNode(n, "toslow.example", nodeDoc(t, "toslow.example", []string{"slow.example"}, false))

	tests := []struct {
		name    string
		start   string
		opts    WalkOptions
		bounds  []Bound
		visited int
		reqs    int
	}{
		{"depth 3 of a chain of 6", "c0.example", WalkOptions{}, []Bound{BoundDepth}, 4, 4},
		{"depth 1", "c0.example", WalkOptions{MaxDepth: 1}, []Bound{BoundDepth}, 2, 2},
		{"start only", "c0.example", WalkOptions{MaxDepth: -1}, []Bound{BoundDepth}, 1, 1},
		{"two peers per document", "hub.example", WalkOptions{MaxPeers: 2}, []Bound{BoundPeers}, 3, 3},
		{"three requests", "c0.example", WalkOptions{MaxRequests: 3}, []Bound{BoundRequests}, 3, 3},
		{"formula bound", "hub.example", WalkOptions{MaxDepth: 1, MaxPeers: 1}, []Bound{BoundPeers}, 2, 2},
		{"timeout", "toslow.example", WalkOptions{RequestTimeout: 200 * time.Millisecond}, nil, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n.ResetRequests()
			res, err := Walk(t.Context(), "https://"+tc.start+"/", &WalkOptions{Client: n.Client(), MaxDepth: tc.opts.MaxDepth, MaxPeers: tc.opts.MaxPeers, MaxRequests: tc.opts.MaxRequests, RequestTimeout: tc.opts.RequestTimeout})
			require.NoError(t, err)
			assert.Equal(t, tc.bounds, res.Bounds)
			assert.Equal(t, len(tc.bounds) == 0, res.Complete)
			visited := 0
			for _, node := range res.Nodes {
				if node.State == NodeVisited {
					visited++
				}
			}
			assert.Equal(t, tc.visited, visited)
			assert.Equal(t, tc.reqs, res.Requests)
			assert.LessOrEqual(t, res.Requests, res.RequestBound)
		})
	}
	// The peer bound keeps the first peers in document order.
	res, err := Walk(t.Context(), "https://hub.example/", &WalkOptions{Client: n.Client(), MaxPeers: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"https://p1.example" + WellKnownPath, "https://p2.example" + WellKnownPath}, res.Nodes[0].Peers)
	assert.Equal(t, 2, res.Nodes[0].IgnoredPeers)
	assert.Equal(t, 3, requestBound(1, 2, 500))
	assert.Equal(t, 500, requestBound(3, 50, 500))
	assert.Equal(t, 1+50+2500+125000, requestBound(3, 50, 1<<30))

	_, err = Walk(t.Context(), "https://hub.example/page", &WalkOptions{Client: n.Client()})
	assert.ErrorIs(t, err, ErrNotWellKnown)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err = Walk(ctx, "https://hub.example/", &WalkOptions{Client: n.Client()})
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, res.Complete)
}

func TestDiscover(t *testing.T) {
	n := newNetwork(t)
	body := nodeDoc(t, "example.org", nil, false)
	page := `<!doctype html><html><head>
<link rel="describedby" href="/llms.txt" type="text/plain">
<link rel="describedby" href="https://mirror.example/kl.json" type="application/linkset+json">
<!-- <link rel="describedby" href="/commented" type="application/linkset+json"> -->
<link rel="describedby" href="/.well-known/knowledge-linkset" type="application/linkset+json">
</head><body></body></html>`
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(body, false))
	mux.Handle("/page", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(page)) }))
	mux.Handle("/{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("home")) }))
	mux.Handle("/bare", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html></html>")) }))
	mux.Handle("/wrongprofile", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `</plain.json>; rel="describedby"; type="application/linkset+json"`)
	}))
	mux.Handle("/plain.json", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", MediaType)
		_, _ = w.Write(body)
	}))
	n.Site("example.org", Advertise(mux))
	client := n.Client()

	got, err := candidates("https://example.org/page", http.Header{}, []byte(page))
	require.NoError(t, err)
	assert.Equal(t, []string{"https://example.org" + WellKnownPath, "https://mirror.example/kl.json"}, got)

	for _, p := range []string{"/page", "/"} {
		f, err := Discover(t.Context(), "https://example.org"+p, &FetchOptions{Client: client})
		require.NoError(t, err, p)
		assert.Equal(t, "https://example.org"+WellKnownPath, f.URL)
		assert.True(t, f.Report.Conformant(), p)
	}
	assert.Zero(t, n.Requests("mirror.example"))

	// A page that names nothing, or only a document without the profile:
	// the well-known URI is tried all the same (Section 3), last.
	for _, p := range []string{"/bare", "/wrongprofile"} {
		f, err := Discover(t.Context(), "https://example.org"+p, &FetchOptions{Client: client})
		require.NoError(t, err, p)
		assert.Equal(t, "https://example.org"+WellKnownPath, f.URL, p)
	}
}

// TestDiscoverTriesTheWellKnownURIUnadvertised: a page that names no
// discovery document still leads to the origin's well-known URI, whatever
// the page's own status; where nothing is published there, the error is
// the one every spec package gives for nothing published: errors.Is finds
// safefetch.ErrNotFound, with the status in a *safefetch.StatusError.
func TestDiscoverTriesTheWellKnownURIUnadvertised(t *testing.T) {
	n := newNetwork(t)
	body := nodeDoc(t, "example.org", nil, false)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(body, false))
	mux.Handle("/{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html></html>")) }))
	n.Site("example.org", mux)
	n.Site("empty.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
		}
	}))
	for _, p := range []string{"/", "/missing-page"} {
		f, err := Discover(t.Context(), "https://example.org"+p, &FetchOptions{Client: n.Client()})
		require.NoError(t, err, p)
		assert.Equal(t, "https://example.org"+WellKnownPath, f.URL)
	}
	_, err := Discover(t.Context(), "https://empty.example/", &FetchOptions{Client: n.Client()})
	require.ErrorIs(t, err, ErrNotDiscovered)
	require.ErrorIs(t, err, safefetch.ErrNotFound)
	var se *safefetch.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, http.StatusNotFound, se.StatusCode)
	assert.Equal(t, "https://empty.example"+WellKnownPath, se.URL)
}

// TestFetchOptionsZeroValueReadsAsAReader: a client that sets no Mode
// reads as a reader must (an unknown relation is a notice, not an
// error); ModePublisher is asked for by name.
func TestFetchOptionsZeroValueReadsAsAReader(t *testing.T) {
	assert.Equal(t, ModeReader, Mode(0))
	n := newNetwork(t)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(nodeDoc(t, "example.org", nil, false), &doc))
	ls := doc["linkset"].([]any)[0].(map[string]any)
	ls["x-unknown-relation"] = []any{map[string]any{"href": "https://example.org/x"}}
	body, err := json.Marshal(doc)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(body, false))
	n.Site("example.org", mux)
	f, err := Fetch(t.Context(), "https://example.org"+WellKnownPath, &FetchOptions{Client: n.Client()})
	require.NoError(t, err)
	assert.Empty(t, f.Report.Problems, "a reader ignores a relation it does not recognise")
	assert.NotEmpty(t, f.Report.Notices)
	f, err = Fetch(t.Context(), "https://example.org"+WellKnownPath, &FetchOptions{Client: n.Client(), Mode: ModePublisher})
	requireRead(t, f, err)
	assert.NotEmpty(t, f.Report.Problems, "a publisher may not publish it")
}

// TestFetchRetrievalRules serves Appendix A's document with one header
// defect each and expects exactly that problem (Sections 3.1 to 3.3), an
// error for a publisher and a notice for a reading client where the
// obligation is the node's alone.
func TestFetchRetrievalRules(t *testing.T) {
	body := canonical(t, parseVector(t, vectorFull))
	good := func(h http.Header) {
		h.Set("Content-Type", contentType)
		h.Set("ETag", `"abc"`)
		h.Set("Cache-Control", "no-cache")
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "Link, ETag, Content-Type")
	}
	tests := []struct {
		name   string
		edit   func(h http.Header)
		rule   string
		notice bool // a notice, not an error, in Reader mode
	}{
		{"no defect", func(http.Header) {}, "", false},
		{"application/json", func(h http.Header) { h.Set("Content-Type", `application/json; profile="`+ProfileURI+`"`) }, "media-type", false},
		{"no profile", func(h http.Header) { h.Set("Content-Type", MediaType) }, "profile-missing", false},
		{"no ETag", func(h http.Header) { h.Del("ETag") }, "etag-missing", true},
		{"max-age", func(h http.Header) { h.Set("Cache-Control", "max-age=3600") }, "cache-control", true},
		{"one allowed origin", func(h http.Header) { h.Set("Access-Control-Allow-Origin", "https://app.example") }, "cors-allow-origin", true},
		{"ETag not exposed", func(h http.Header) { h.Set("Access-Control-Expose-Headers", "Link, Content-Type") }, "cors-expose-headers", true},
		{"credentials", func(h http.Header) { h.Set("Access-Control-Allow-Credentials", "true") }, "cors-credentials", true},
		{"expose in two fields", func(h http.Header) {
			h.Set("Access-Control-Expose-Headers", "link")
			h.Add("Access-Control-Expose-Headers", "etag, content-type")
		}, "", false},
	}
	n := newNetwork(t)
	client := n.Client()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n.Site("example.org", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				good(w.Header())
				tc.edit(w.Header())
				_, _ = w.Write(body)
			}))
			for _, mode := range []Mode{ModePublisher, ModeReader} {
				f, err := Fetch(t.Context(), "https://example.org"+WellKnownPath, &FetchOptions{Client: client, Mode: mode})
				requireRead(t, f, err)
				got := append([]Problem{}, f.Report.Problems...)
				if mode == ModeReader && tc.notice {
					assert.Empty(t, got, "a reading client notes the node's header defects")
					got = f.Report.Notices
				}
				if tc.rule == "" {
					assert.Empty(t, got)
					continue
				}
				require.Len(t, got, 1, "mode %d: %v", mode, got)
				assert.Equal(t, tc.rule, got[0].Rule)
				assert.Equal(t, "", got[0].Pointer)
			}
		})
	}
}

// TestAppendixAUnverified: the artefacts of Appendix A are not available,
// so every digest stays unverified, never invalid (Section 4.4).
func TestAppendixAUnverified(t *testing.T) {
	n := newNetwork(t)
	n.Site("example.org", http.NotFoundHandler())
	for _, file := range []string{vectorFull, vectorReduced} {
		f := &Fetched{Document: parseVector(t, file)}
		states := f.Verify(t.Context(), &VerifyOptions{Client: n.Client()})
		require.NotEmpty(t, states)
		for _, s := range states {
			assert.Equal(t, DigestUnverified, s.State, s.Href)
		}
	}
}

func TestVerifyArtefact(t *testing.T) {
	n := newNetwork(t)
	n.Site("cdn.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("artefact bytes")) }))
	client := n.Client()
	l := Link{Href: "https://cdn.example/a.ttl"}
	st := verifyOne(t.Context(), safefetch.OrDefault((&VerifyOptions{Client: client}).Client), RelGraph, &l, &VerifyOptions{Client: client})
	assert.Equal(t, ArtefactState{Relation: RelGraph, Href: l.Href, State: DigestUnverified}, st)
	assert.False(t, st.HasDigest)
	assert.Zero(t, n.Requests("cdn.example"), "a link without digest is not retrieved")

	l.setAttr("digest", DigestOf([]byte("artefact bytes")).String())
	st = verifyOne(t.Context(), safefetch.OrDefault((&VerifyOptions{Client: client}).Client), RelGraph, &l, &VerifyOptions{Client: client})
	assert.Equal(t, ArtefactState{Relation: RelGraph, Href: l.Href, State: DigestVerified, HasDigest: true, StatusCode: 200, Bytes: 14}, st)

	st = verifyOne(t.Context(), safefetch.OrDefault((&VerifyOptions{Client: client, MaxArtefactBytes: 4}).Client), RelGraph, &l, &VerifyOptions{Client: client, MaxArtefactBytes: 4})
	assert.Equal(t, DigestUnverified, st.State)
	assert.True(t, st.HasDigest, "a digest that stayed unverified")
	assert.Contains(t, st.Reason, "too large")

	l.setAttr("digest", "sha-256=:AAAA:")
	st = verifyOne(t.Context(), safefetch.OrDefault((&VerifyOptions{Client: client}).Client), RelGraph, &l, &VerifyOptions{Client: client})
	assert.Equal(t, DigestMalformed, st.State)
	assert.True(t, st.HasDigest)
}

// nodeOf returns the node of res with the canonical URL u, or nil.
func nodeOf(res *WalkResult, u string) *Node {
	for _, n := range res.Nodes {
		if n.URL == u {
			return n
		}
	}
	return nil
}

// TestVerifyNilUsesTheFetchingClient: Verify(ctx, nil) retrieves the
// artefacts with the client that fetched the link set (here a fake
// internet's, on which safefetch.Default() resolves nothing), for a link
// set read by Fetch, by Discover and by Walk alike.
func TestVerifyNilUsesTheFetchingClient(t *testing.T) {
	n := newNetwork(t)
	b := &Builder{BundleIRI: "https://fake.example/", SourceDate: sourceDate, SpecVersion: "1", BundleVersion: "v1"}
	b.add(Artefact{Relation: "describedby", Href: "https://fake.example/graph.jsonld", Type: "application/ld+json", Body: []byte(`{"@graph":[]}`)})
	b.add(Artefact{Relation: RelGraph, Href: "https://fake.example/graph.nq", Type: "application/n-quads", Body: []byte("<a> <b> <c> <g> .\n")})
	_, doc, err := b.Build()
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle(WellKnownPath, handlerFor(doc, false))
	mux.HandleFunc("/graph.jsonld", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"@graph":[]}`)) })
	mux.HandleFunc("/graph.nq", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<a> <b> <c> <g> .\n")) })
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<`+WellKnownPath+`>; rel="describedby"; type="`+MediaType+`"`)
		_, _ = w.Write([]byte("<!doctype html><title>x</title>"))
	})
	n.Site("fake.example", mux)
	client := n.Client()

	fetched, err := Fetch(t.Context(), "https://fake.example"+WellKnownPath, &FetchOptions{Client: client})
	require.NoError(t, err)
	discovered, err := Discover(t.Context(), "https://fake.example/", &FetchOptions{Client: client})
	require.NoError(t, err)
	walk, err := Walk(t.Context(), "https://fake.example/", &WalkOptions{Client: client})
	require.NoError(t, err)
	require.NotEmpty(t, walk.Nodes)
	require.NotNil(t, walk.Nodes[0].Fetched)
	for name, f := range map[string]*Fetched{"Fetch": fetched, "Discover": discovered, "Walk": walk.Nodes[0].Fetched} {
		states := f.Verify(t.Context(), nil)
		require.Len(t, states, 2, name)
		for _, s := range states {
			assert.Equal(t, DigestVerified, s.State, "%s: %s: %s", name, s.Href, s.Reason)
		}
	}
	// An explicit client still wins: one of another fake internet, which
	// has no such host, verifies nothing.
	other := newNetwork(t)
	for _, s := range fetched.Verify(t.Context(), &VerifyOptions{Client: other.Client()}) {
		assert.Equal(t, DigestUnverified, s.State, s.Href)
	}
}

// requireRead requires what Fetch returns for a document it read: no
// error when the report has no problem, else the *ValidationError every
// spec package returns for an invalid document, listing the same problems.
func requireRead(t *testing.T, f *Fetched, err error) {
	t.Helper()
	require.NotNil(t, f)
	if f.Report != nil && len(f.Report.Problems) > 0 {
		var ve *ValidationError
		require.ErrorAs(t, err, &ve)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Equal(t, f.Report.Problems, ve.Problems)
		return
	}
	require.NoError(t, err)
}
