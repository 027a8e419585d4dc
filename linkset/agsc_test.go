package linkset

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference implementation's own vectors (AgenticSystemCore and its
// Python port, testdata/peers/agsc; SOURCES.md there names the repository,
// path and commit of each file). Every vector is either checked against
// this package, asserting the reference's expected outcome, or the
// draft's where the two differ (agscDisagreements, with the section), or
// listed as not applicable with the reason (agscNotApplicable).

type agscVector struct {
	ID       string          `json:"id"`
	Input    json.RawMessage `json:"input"`
	Expected json.RawMessage `json:"expected"`
}

// agscNotApplicable are the vectors that test the reference's engine (its
// writer of llms.txt and sitemaps, its graph, boards, configuration and
// MCP surface), not the discovery document a client reads or a publisher
// writes, or that a later vector supersedes.
var agscNotApplicable = map[string]string{
	"disc-0001": "withdrawn by the reference (superseded by disc-0003)",
	"disc-0002": "withdrawn by the reference (superseded by disc-0004)",
	"disc-0006": "the reference's llms.txt writer, not the discovery document",
	"disc-0007": "the reference's llms-full.txt writer and cluster rules",
	"disc-0008": "the reference's llms.txt reachability rule (generator side)",
	"disc-0009": "the reference's sitemap.xml writer (generator side)",
	"bnd-0005":  "superseded by bnd-0030, which is checked",
	"bnd-0008":  "the reference's graph engine (rdfs:seeAlso edges)",
	"bnd-0009":  "the reference's item front matter rules",
	"bnd-0011":  "the reference engine's configuration (contribute channels)",
	"bnd-0012":  "the reference engine's surfaces; superseded by bnd-0031 and bnd-0037",
	"bnd-0014":  "the reference engine's retired items",
	"bnd-0017":  "the reference engine's configuration (federation ranges)",
	"bnd-0018":  "the reference's graph engine (IRI normalisation)",
	"bnd-0019":  "query results of the reference's MCP surface (the walk's untrusted labelling is TestAGSCVectors' bnd-0006 and TestWalk)",
	"bnd-0020":  "superseded by bnd-0033, which is checked",
	"bnd-0025":  "the reference's board engine",
	"bnd-0026":  "the reference's board engine (live boards)",
	"bnd-0027":  "the reference's WebMCP/MCP surfaces; withdrawn for bnd-0036",
	"bnd-0028":  "the reference's responder and solid surfaces (its byte checks of served surfaces)",
	"bnd-0031":  "the reference engine's surface writer",
	"bnd-0032":  "the reference engine's retired items",
	"bnd-0034":  "the reference's board engine",
	"bnd-0035":  "the reference's MCP extension settings object",
	"bnd-0036":  "the reference's WebMCP/MCP surfaces",
	"bnd-0037":  "the reference engine's surface writer (MCP transport revision)",
}

// agscDisagreements are the checked vectors where the test asserts the
// draft's outcome, not the reference's, and why.
var agscDisagreements = map[string]string{
	"disc-0015": "restricted-omitted: the reference finds a gated node without an access link valid, which contradicts its own disc-0022; Section 3.3 says a gated node names the access link, so it is not conformant here",
	"disc-0017": "the reference requires the ledger link of a public full-form node (AGSC-E202); Sections 4.3.2 and 4.4 of the draft never require a ledger, so a public node without one conforms",
	"disc-0019": "other-major: the reference refuses agsc-spec-version 2.0.0 (AGSC-E209); Section 4.3.2 makes the value opaque beyond one non-empty value, so it conforms here",
	"bnd-0013":  "the reference fails a declared surface whose target does not resolve (AGSC-E210); Section 4.3.3 declares, it does not prove: the draft states no such rule, and the document conforms",
	"bnd-0021":  "the reference refuses a surface declared without pinning vectors (AGSC-E210); Section 4.3.3 states no such rule, and the document conforms",
}

// agscChecks run the vectors that apply to a client or a publisher of the
// discovery document.
var agscChecks = map[string]func(t *testing.T, v agscVector){
	"disc-0003": checkRelationSet, "disc-0016": checkRelationSet,
	"disc-0004": func(t *testing.T, v agscVector) {
		var in struct{ Wellknown json.RawMessage }
		decode(t, v.Input, &in)
		for _, mode := range []Mode{ModePublisher, ModeReader, ModeStrict} {
			d, r := evaluateBytes(in.Wellknown, mode)
			require.NotNil(t, d)
			if mode == ModeStrict {
				r = d.Evaluate(ModePublisher) // the vector's bytes are not canonical JCS, nor claimed to be
			}
			assert.Empty(t, r.Problems, "mode %d", mode)
			assert.Equal(t, FormReduced, r.Form, "level 0 is the reduced form (Section 4.4)")
		}
	},
	"disc-0005": func(t *testing.T, v agscVector) {
		var in struct {
			Nodes []struct{ Base, Peer, Tombstone, Alternate string }
		}
		decode(t, v.Input, &in)
		r, err := Mutual(peerDoc(t, in.Nodes[0].Base, in.Nodes[0].Peer, "", ""), peerDoc(t, in.Nodes[1].Base, in.Nodes[1].Peer, "", ""))
		require.NoError(t, err)
		assert.True(t, r.Mutual)
	},
	"bnd-0015": func(t *testing.T, v agscVector) {
		// Ambiguous in the draft (Section 7.2 is silent on a tombstoned
		// peer); Mutual's documented reading agrees with the reference.
		var in struct {
			Nodes []struct{ Base, Peer, Tombstone, Alternate string }
		}
		decode(t, v.Input, &in)
		a := peerDoc(t, in.Nodes[0].Base, in.Nodes[0].Peer, "", "")
		b := peerDoc(t, in.Nodes[1].Base, in.Nodes[1].Peer, in.Nodes[1].Tombstone, in.Nodes[1].Alternate)
		r, err := Mutual(a, b)
		require.NoError(t, err)
		assert.True(t, r.AToB && r.BToA, "both name each other")
		assert.True(t, r.Tombstoned)
		assert.False(t, r.Mutual, "a tombstoned node is not mutual")
		f := b.Facts()
		assert.True(t, f.Tombstoned)
		assert.Equal(t, []string{in.Nodes[1].Alternate}, f.Successors, "the successor is named, never the same node (Section 9.7)")

		n := newNetwork(t)
		serveDoc(t, n, a)
		serveDoc(t, n, b)
		res, err := Walk(t.Context(), in.Nodes[0].Base, &WalkOptions{Client: n.Client()})
		require.NoError(t, err)
		require.Len(t, res.Nodes, 2)
		assert.Equal(t, NodeTombstoned, res.Nodes[1].State)
		assert.Equal(t, 1, n.Requests("b.example"), "the walk does not descend into b")
		assert.Zero(t, n.Requests("c.example"))
	},
	"disc-0015": func(t *testing.T, v agscVector) {
		var in struct {
			Cases []struct {
				Name      string
				Wellknown json.RawMessage
			}
		}
		decode(t, v.Input, &in)
		for _, c := range in.Cases {
			d, r := evaluateBytes(c.Wellknown, ModePublisher)
			require.NotNil(t, d, c.Name)
			if c.Name == "restricted-omitted" {
				assert.Equal(t, []string{RuleGatedAccessMissing}, rulesOf(r.Problems), "Section 3.3")
				continue
			}
			// The bundle hash of level-2-present is not the digest of an
			// N-Quads graph link, which it does not carry (Section 4.3.2):
			// everything else the vector states holds.
			assert.Subset(t, []string{RuleBundleHashTarget}, rulesOf(r.Problems), c.Name)
			assert.Equal(t, d.Facts().BundleVersion, map[string]string{"level-2-present": "v1.4.0"}[c.Name], c.Name)
		}
	},
	"disc-0017": func(t *testing.T, v agscVector) {
		b := exampleBuilder()
		b.Artefacts = slices.DeleteFunc(b.Artefacts, func(a Artefact) bool { return a.Relation == RelLedger })
		d, _, err := b.Build()
		require.NoError(t, err, "a public full-form node without a ledger link conforms")
		assert.Equal(t, FormFull, d.Evaluate(ModePublisher).Form)
		b = exampleBuilder()
		b.Gated = true
		d, _, err = b.Build()
		require.NoError(t, err)
		assert.Empty(t, d.Bundle().Relation(RelLedger), "a restricted node publishes no ledger link (Section 9.5)")
	},
	"disc-0019": func(t *testing.T, v agscVector) {
		var in struct {
			Cases []struct {
				Name     string
				Document json.RawMessage
			}
		}
		decode(t, v.Input, &in)
		for _, c := range in.Cases {
			d, r := evaluateBytes(c.Document, ModeReader)
			require.NotNil(t, d, c.Name)
			// No N-Quads graph link carries the bundle hash's digest
			// (Section 4.3.2); the relation the reader does not know is
			// ignored with a notice (Section 4.2).
			assert.Equal(t, []string{RuleBundleHashTarget}, rulesOf(r.Problems), c.Name)
			assert.Contains(t, rulesOf(r.Notices), RuleRelationIgnored, c.Name)
		}
	},
	"disc-0020": checkExpectedDocuments, "disc-0021": checkExpectedDocuments,
	"disc-0022": func(t *testing.T, v agscVector) {
		var in struct {
			Cases []struct {
				Name     string
				Document json.RawMessage
			}
		}
		var exp struct {
			Cases []struct {
				Name  string
				Valid bool
			}
		}
		decode(t, v.Input, &in)
		decode(t, v.Expected, &exp)
		valid := map[string]bool{}
		for _, c := range exp.Cases {
			valid[c.Name] = c.Valid
		}
		// Publisher mode judges as the reference does. Section 3.3: a
		// gated node names, with the access relation, where (one place)
		// a reader obtains credentials; none is an error (AGSC-E202) and
		// two are (AGSC-E210).
		publisher := map[string][]string{
			"restricted-without-access-link":   {RuleGatedAccessMissing},
			"restricted-with-two-access-links": {RuleGatedAccessCount},
			"restricted-with-one-access-link":  nil,
		}
		// Reader mode reads the valid document, and the one with two
		// access links too, taking the first with a notice: a client
		// reads what it can (Section 3.3 gives it the place to go).
		reader := map[string][]string{
			"restricted-without-access-link":   {RuleGatedAccessMissing},
			"restricted-with-two-access-links": nil,
			"restricted-with-one-access-link":  nil,
		}
		require.Len(t, in.Cases, len(publisher))
		for _, c := range in.Cases {
			_, r := evaluateBytes(c.Document, ModePublisher)
			assert.Equal(t, publisher[c.Name], rulesOf(r.Problems), "%s, publisher", c.Name)
			assert.Equal(t, valid[c.Name], len(r.Problems) == 0, "%s: the reference's verdict", c.Name)
			d, r := evaluateBytes(c.Document, ModeReader)
			assert.Equal(t, reader[c.Name], rulesOf(r.Problems), "%s, reader", c.Name)
			if c.Name == "restricted-with-two-access-links" {
				assert.Contains(t, rulesOf(r.Notices), RuleGatedAccessCount)
			}
			if c.Name == "restricted-with-one-access-link" {
				require.NotNil(t, d)
				assert.Equal(t, "https://example.org/access/", d.Bundle().Relation(RelAccess)[0].Href)
				assert.True(t, d.Facts().Restricted, "the reader reads the gated node")
			}
		}
	},
	"bnd-0001": func(t *testing.T, v agscVector) {
		var in struct{ Paths []string }
		decode(t, v.Input, &in)
		h := CORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Access-Control-Allow-Credentials", "true")
			_, _ = w.Write([]byte("artefact"))
		}))
		for _, p := range in.Paths {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://a.example"+p, nil))
			assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"), p)
			assert.Equal(t, "Link, ETag, Content-Type", rec.Header().Get("Access-Control-Expose-Headers"), p)
			assert.Empty(t, rec.Header().Values("Access-Control-Allow-Credentials"), p)
		}
	},
	"bnd-0002": func(t *testing.T, v agscVector) {
		var in struct{ Access string }
		decode(t, v.Input, &in)
		b := &Builder{BundleIRI: "https://a.example/", Gated: true, Reduced: true, Artefacts: []Artefact{
			{Relation: "describedby", Href: "https://a.example/graph.jsonld", Type: "application/ld+json"},
			{Relation: RelAccess, Href: in.Access},
		}}
		d, _, err := b.Build()
		require.NoError(t, err)
		vis, _ := d.Bundle().graph().Attr("agsc-visibility")
		assert.Equal(t, []string{"restricted"}, vis)
		assert.Equal(t, in.Access, d.Bundle().Relation(RelAccess)[0].Href)
		h, err := Handler(d, nil)
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://a.example"+WellKnownPath, nil))
		assert.Equal(t, http.StatusOK, rec.Code, "the discovery document stays public")
		assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
	},
	"bnd-0003": func(t *testing.T, v agscVector) {
		var in struct {
			Dev   bool
			Peers []string
		}
		var exp struct{ Results []struct{ Code *string } }
		decode(t, v.Input, &in)
		decode(t, v.Expected, &exp)
		for i, p := range in.Peers {
			_, err := CanonicalURL(p, in.Dev)
			assert.Equal(t, exp.Results[i].Code != nil, err != nil, "%s: %v", p, err)
		}
	},
	"bnd-0004": func(t *testing.T, v agscVector) {
		var in struct {
			Resolved []struct {
				Host      string
				Addresses []string
			}
		}
		var exp struct{ Results []struct{ Code *string } }
		decode(t, v.Input, &in)
		decode(t, v.Expected, &exp)
		for i, h := range in.Resolved {
			refused := false
			for _, a := range h.Addresses {
				refused = refused || safefetch.CheckAddr(netip.MustParseAddr(a)) != nil
			}
			assert.Equal(t, exp.Results[i].Code != nil, refused, h.Host)
		}
		// And a Fetch of a host that resolves to a private address is
		// refused before any connection.
		n := newNetwork(t)
		n.Host("b.example", in.Resolved[0].Addresses...)
		_, err := Fetch(t.Context(), "https://b.example"+WellKnownPath, &FetchOptions{Client: n.Client()})
		assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
	},
	"bnd-0006": func(t *testing.T, v agscVector) {
		var in struct {
			Federation struct{ FanOut, HopLimit, MaxRequests int } `json:"federation"`
			Graph      map[string][]string
		}
		var exp struct {
			IgnoredByFanOut []string `json:"ignored_by_fan_out"`
			Partial         bool
			Requests        int
			Visited         []string
		}
		decode(t, v.Input, &in)
		in.Federation.FanOut, in.Federation.HopLimit, in.Federation.MaxRequests = fedOf(t, v.Input)
		decode(t, v.Expected, &exp)
		n := graphNetwork(t, in.Graph, nil)
		res, err := Walk(t.Context(), "https://a.example/", &WalkOptions{Client: n.Client(), MaxPeers: in.Federation.FanOut, MaxDepth: in.Federation.HopLimit, MaxRequests: in.Federation.MaxRequests})
		require.NoError(t, err)
		assert.Equal(t, exp.Visited, visitedNames(res))
		assert.Equal(t, exp.Partial, !res.Complete)
		assert.Equal(t, exp.Requests, res.Requests)
		assert.Equal(t, len(exp.IgnoredByFanOut), res.Nodes[0].IgnoredPeers)
		assert.Subset(t, res.Bounds, []Bound{BoundPeers, BoundDepth})
	},
	"bnd-0007": func(t *testing.T, v agscVector) {
		var in struct {
			Graph       map[string][]string
			Unreachable []string
		}
		var exp struct {
			FetchAttempts int `json:"fetch_attempts_for_b"`
			Partial       bool
			Visited       []string
		}
		decode(t, v.Input, &in)
		decode(t, v.Expected, &exp)
		fanOut, hops, max := fedOf(t, v.Input)
		n := graphNetwork(t, in.Graph, in.Unreachable)
		res, err := Walk(t.Context(), "https://a.example/", &WalkOptions{Client: n.Client(), MaxPeers: fanOut, MaxDepth: hops, MaxRequests: max})
		require.NoError(t, err)
		assert.Equal(t, exp.Visited, visitedNames(res))
		assert.Equal(t, exp.Partial, !res.Complete)
		assert.Equal(t, exp.FetchAttempts, n.Requests("b.example"))
		assert.Equal(t, NodeUnreachable, nodeOf(res, "https://b.example"+WellKnownPath).State)
	},
	"bnd-0010": func(t *testing.T, v agscVector) {
		var exp struct {
			Links []struct {
				Href string
				Mode []string `json:"agsc-contribute-mode"`
			}
		}
		decode(t, v.Expected, &exp)
		b := &Builder{BundleIRI: "https://a.example/", Reduced: true, Artefacts: []Artefact{{Relation: "describedby", Href: "https://a.example/graph.jsonld", Type: "application/ld+json"}}}
		for _, l := range exp.Links {
			b.Artefacts = append(b.Artefacts, Artefact{Relation: RelContribute, Href: l.Href, Attributes: []Attribute{{"agsc-contribute-mode", l.Mode}}})
		}
		d, _, err := b.Build()
		require.NoError(t, err)
		var got []string
		for _, c := range d.Facts().Contributions {
			assert.True(t, c.Contributable, c.Href)
			got = append(got, c.Href)
		}
		assert.ElementsMatch(t, []string{exp.Links[0].Href, exp.Links[1].Href}, got)
	},
	"bnd-0013": func(t *testing.T, v agscVector) {
		d := surfaceDoc(t, [][2]string{{"a2a-card", "https://a.example/.well-known/agent-card.json"}})
		assert.Empty(t, d.Check(), "Section 4.3.3: a declaration is not proved by the document")
	},
	"bnd-0021": func(t *testing.T, v agscVector) {
		d := surfaceDoc(t, [][2]string{{"a2a-card", "https://a.example/.well-known/agent-card.json"}, {"x-acme-holo", "https://a.example/holo/"}, {"llms-txt", "https://a.example/llms.txt"}, {"chunks", "https://a.example/chunks.jsonl"}})
		assert.Empty(t, d.Check(), "Section 4.3.3 states no pinning rule")
		for _, s := range d.Facts().Surfaces {
			assert.True(t, s.Served, s.Kind)
		}
	},
	"bnd-0016": func(t *testing.T, v agscVector) {
		var in map[string][]string
		decode(t, v.Input, &in)
		d := surfaceDoc(t, [][2]string{{in["agsc-surface"][0], "https://a.example/holo/"}})
		rel(t, d, "#surface").Links[0].setAttr("agsc-access", in["agsc-access"]...)
		d.Bundle().graph().setAttr("agsc-visibility", in["agsc-visibility"]...)
		d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: RelContribute, Links: []Link{{Href: "https://a.example/c", Attributes: []Attribute{{"agsc-contribute-mode", in["agsc-contribute-mode"]}}}}})
		r := d.Evaluate(ModeReader)
		assert.NotContains(t, rulesOf(r.Problems), RuleDeclarationValue, "a client does not fail on an unknown value")
		f := d.Facts()
		assert.Equal(t, "credential", f.Surfaces[0].Access)
		assert.False(t, f.Surfaces[0].Served)
		assert.False(t, f.Contributions[0].Contributable)
		assert.True(t, f.Restricted)
	},
	"bnd-0022": func(t *testing.T, v agscVector) {
		var in struct{ Responses []map[string]string }
		decode(t, v.Input, &in)
		for _, resp := range in.Responses {
			h := http.Header{"Content-Type": {resp["content-type"]}}
			if l := resp["link"]; l != "" {
				h.Set("Link", l)
			}
			inType, inLink := profileCarriage(h, "https://a.example"+WellKnownPath)
			assert.True(t, inType || inLink, "%v", resp)
		}
	},
	"bnd-0023": func(t *testing.T, v agscVector) {
		var exp struct {
			Effective struct {
				FanOut        int `json:"fan_out"`
				HopLimit      int `json:"hop_limit"`
				MaxRequests   int `json:"max_requests"`
				RedirectLimit int `json:"redirect_limit"`
				TimeoutMS     int `json:"timeout_ms"`
			}
		}
		decode(t, v.Expected, &exp)
		depth, peers, requests, redirects, timeout := (&WalkOptions{}).bounds()
		assert.Equal(t, exp.Effective.HopLimit, depth)
		assert.Equal(t, exp.Effective.FanOut, peers)
		assert.Equal(t, exp.Effective.MaxRequests, requests)
		assert.Equal(t, exp.Effective.RedirectLimit, redirects)
		assert.Equal(t, exp.Effective.TimeoutMS, int(timeout.Milliseconds()))
	},
	"bnd-0024": func(t *testing.T, v agscVector) {
		// A build with peers: the Builder has no client at all, so it
		// cannot fetch (Section 7.4); the peer links are written as given.
		b := exampleBuilder()
		d, _, err := b.Build()
		require.NoError(t, err)
		assert.Equal(t, []string{"https://b.example" + WellKnownPath}, d.peers())
	},
	"bnd-0029": func(t *testing.T, v agscVector) {
		var raw map[string]struct {
			Related []struct{ Href, Rel, Type, Title string }
		}
		decode(t, v.Input, &raw)
		b := &Builder{BundleIRI: "https://a.example/", Reduced: true, Artefacts: []Artefact{{Relation: "describedby", Href: "https://a.example/graph.jsonld", Type: "application/ld+json"}}}
		for _, r := range raw["config"].Related {
			b.Artefacts = append(b.Artefacts, Artefact{Relation: r.Rel, Href: r.Href, Type: r.Type, Title: r.Title})
		}
		d, _, err := b.Build()
		require.NoError(t, err, "registered relations with type conform (Section 4.5)")
		bad := raw["invalid_config"].Related[0]
		d.Contexts[0].Relations = append(d.Contexts[0].Relations, Relation{Name: bad.Rel, Links: []Link{{Href: bad.Href, Type: bad.Type}}})
		assert.Equal(t, []string{RuleRelationUnregistered}, rulesOf(d.Check()), "a node must not use an unregistered short name (Section 4.2)")
		r := d.Evaluate(ModeReader)
		assert.Empty(t, r.Problems, "a client ignores it (Section 4.2)")
		assert.Contains(t, rulesOf(r.Notices), RuleRelationIgnored)
	},
	"bnd-0030": func(t *testing.T, v agscVector) {
		var in struct {
			Cases []struct {
				Name, Peer string
				Redirects  []string
				Resolved   []struct {
					Host      string
					Addresses []string
				}
			}
		}
		var exp struct{ Cases []struct{ Followed int } }
		decode(t, v.Input, &in)
		decode(t, v.Expected, &exp)
		for i, c := range in.Cases {
			n := newNetwork(t)
			hops := append([]string{c.Peer}, c.Redirects...)
			muxes := map[string]*http.ServeMux{}
			for j, from := range hops {
				u := mustURL(t, from)
				if muxes[u.Host] == nil {
					muxes[u.Host] = http.NewServeMux()
				}
				if j+1 < len(hops) {
					muxes[u.Host].Handle(u.Path, http.RedirectHandler(hops[j+1], http.StatusFound))
				}
			}
			for _, r := range c.Resolved {
				if r.Addresses[0] == "127.0.0.1" {
					n.Host(r.Host, r.Addresses...) // a refused address: never connected to
				} else {
					n.Site(r.Host, muxes[r.Host])
				}
			}
			f, err := fetchBounded(t.Context(), n.Client(), c.Peer, defaultWalkRedirects, defaultRequestTimeout)
			require.Error(t, err, c.Name)
			assert.Contains(t, err.Error(), c.Peer, "the error names the declared peer URL")
			if f != nil {
				assert.Equal(t, c.Peer, f.URL, "the declared peer URL is never replaced")
			}
			// The peer and each followed hop were requested; the hop past
			// the bound, or to a refused address, never was.
			assert.Equal(t, exp.Cases[i].Followed+1, n.Requests("b.example"), c.Name)
			if c.Name == "refused-address-hop" {
				assert.ErrorIs(t, err, safefetch.ErrForbiddenAddress)
			}
		}
	},
	"bnd-0033": func(t *testing.T, v agscVector) {
		var exp struct{ Headers map[string]map[string]string }
		decode(t, v.Expected, &exp)
		d, _, err := exampleBuilder().Build()
		require.NoError(t, err)
		h, err := Handler(d, nil)
		require.NoError(t, err)
		mux := http.NewServeMux()
		mux.Handle(WellKnownPath, h)
		mux.Handle("/", CORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})))
		site := Advertise(mux)
		for _, p := range []string{"/", WellKnownPath} {
			rec := httptest.NewRecorder()
			site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://a.example"+p, nil))
			for k, want := range exp.Headers[p] {
				assert.Equal(t, want, rec.Header().Get(k), "%s %s", p, k)
			}
		}
	},
	"bnd-0038": func(t *testing.T, v agscVector) {
		var exp struct {
			AnchorAttributes   []string `json:"anchor_attributes"`
			DigestTargets      []string `json:"digest_targets"`
			LinksWithoutDigest []string `json:"links_without_digest"`
		}
		decode(t, v.Expected, &exp)
		b := &Builder{BundleIRI: "https://a.example/", Gated: true, SpecVersion: "1.0.0", Artefacts: []Artefact{{Relation: RelAccess, Href: "https://a.example/access/"}}}
		public := map[string]bool{}
		for _, p := range exp.DigestTargets {
			public[p] = true
		}
		rels := map[string]string{"/graph.jsonld": "describedby", "/llms.txt": "alternate", "/graph.nq": RelGraph, "/graph.ttl": RelGraph, "/now.md": RelNow, "/ns/context.jsonld": RelContext, "/skills/index.json": RelSkills}
		types := map[string]string{"/graph.jsonld": "application/ld+json", "/llms.txt": "text/plain", "/graph.nq": "application/n-quads", "/graph.ttl": "text/turtle"}
		for p, r := range rels {
			b.Artefacts = append(b.Artefacts, Artefact{Relation: r, Href: "https://a.example" + p, Type: types[p], Body: []byte(p), Private: !public[p]})
		}
		d, _, err := b.Build()
		require.NoError(t, err)
		var names []string
		for _, a := range d.Bundle().graph().Attributes {
			names = append(names, a.Name)
		}
		slices.Sort(names)
		assert.Equal(t, exp.AnchorAttributes, names)
		var digested, bare []string
		for _, r := range d.Bundle().Relations {
			for _, l := range r.Links {
				p := strings.TrimPrefix(l.Href, "https://a.example")
				if _, ok := l.Attr("digest"); ok {
					digested = append(digested, p)
				} else if p != "/access/" {
					bare = append(bare, p)
				}
			}
		}
		assert.ElementsMatch(t, exp.DigestTargets, digested)
		assert.ElementsMatch(t, exp.LinksWithoutDigest, bare)
		assert.Empty(t, d.Bundle().Relation(RelLedger))
	},
	"bnd-0039": func(t *testing.T, v agscVector) {
		var exp struct {
			Related []json.RawMessage
		}
		decode(t, v.Expected, &exp)
		b := &Builder{BundleIRI: "https://a.example/", Reduced: true, Artefacts: []Artefact{
			{Relation: "describedby", Href: "https://a.example/graph.jsonld", Type: "application/ld+json"},
			{Relation: "related", Href: "https://registry.example/b.json", Type: "application/json", Title: "A registry entry", Attributes: []Attribute{{"profile", []string{"https://profile.example/p"}}}},
			{Relation: "related", Href: "https://registry.example/a.json", Type: "application/json"},
		}}
		_, body, err := b.Build()
		require.NoError(t, err)
		var got struct {
			Linkset []map[string]json.RawMessage
		}
		require.NoError(t, json.Unmarshal(body, &got))
		var want, have []any
		for _, r := range exp.Related {
			var x any
			require.NoError(t, json.Unmarshal(r, &x))
			want = append(want, x)
		}
		require.NoError(t, json.Unmarshal(got.Linkset[0]["related"], &have))
		assert.Equal(t, want, have, "ordered by href; type and title strings, profile an array")
	},
}

func TestAGSCVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "peers", "agsc", "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var agree, disagree, na int
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		var v agscVector
		require.NoError(t, json.Unmarshal(data, &v), file)
		t.Run(v.ID, func(t *testing.T) {
			check, ok := agscChecks[v.ID]
			reason, isNA := agscNotApplicable[v.ID]
			require.True(t, ok != isNA, "%s must be either checked or not applicable", v.ID)
			if isNA {
				na++
				t.Skip("not applicable: " + reason)
			}
			check(t, v)
			if why, ok := agscDisagreements[v.ID]; ok {
				disagree++
				t.Log("the draft's outcome, not the reference's: " + why)
			} else {
				agree++
			}
		})
	}
	t.Logf("AGSC vectors: %d agree, %d not applicable, %d documented disagreements", agree, na, disagree)
	assert.Equal(t, len(files), agree+na+disagree)
}

// checkRelationSet: the relations the reference allows are in the
// profile's set (the draft also has cite-as and boards, which some vectors
// omit, Section 4.2), and the short names it forbids are refused.
func checkRelationSet(t *testing.T, v agscVector) {
	var exp struct {
		MediaType string   `json:"media_type"`
		Path      string   `json:"path"`
		Profile   string   `json:"profile"`
		Allowed   []string `json:"relations_allowed"`
		Forbidden []string `json:"relations_forbidden"`
	}
	decode(t, v.Expected, &exp)
	assert.Equal(t, MediaType, exp.MediaType)
	assert.Equal(t, WellKnownPath, exp.Path)
	assert.Equal(t, ProfileURI, exp.Profile)
	for _, r := range exp.Allowed {
		assert.Equal(t, relProfile, classifyRelation(r), r)
	}
	for _, r := range exp.Forbidden {
		assert.Equal(t, relUnregistered, classifyRelation(r), r)
	}
}

// checkExpectedDocuments: the whole documents a conforming publisher emits
// conform for a publisher and a reader.
func checkExpectedDocuments(t *testing.T, v agscVector) {
	var exp struct {
		Cases []struct {
			Name     string
			Document json.RawMessage
		}
	}
	decode(t, v.Expected, &exp)
	require.NotEmpty(t, exp.Cases)
	for _, c := range exp.Cases {
		d, r := evaluateBytes(c.Document, ModeReader)
		require.NotNil(t, d, c.Name)
		assert.Empty(t, r.Problems, "%s, reader", c.Name)
		// The reference writes these documents, so a publisher may:
		// Section 4.3.3 places agsc-access on a surface link but forbids
		// it nowhere, so the reference's agsc-access on the access link
		// of a gated node is a notice, never an error.
		assert.Empty(t, rulesOf(d.Check()), "%s, publisher", c.Name)
		_, r = evaluateBytes(c.Document, ModePublisher)
		if len(d.Bundle().Relation(RelAccess)) > 0 && d.Bundle().Relation(RelAccess)[0].FirstAttr("agsc-access") != "" {
			assert.Contains(t, rulesOf(r.Notices), RuleDeclarationPlacement, "%s: noted", c.Name)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

func decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(raw, v))
}

func rulesOf(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Rule)
	}
	return out
}

// fedOf reads the federation object's fan_out, hop_limit, max_requests.
func fedOf(t *testing.T, raw json.RawMessage) (fanOut, hops, max int) {
	var in struct {
		Federation struct {
			FanOut      int `json:"fan_out"`
			HopLimit    int `json:"hop_limit"`
			MaxRequests int `json:"max_requests"`
		}
	}
	decode(t, raw, &in)
	return in.Federation.FanOut, in.Federation.HopLimit, in.Federation.MaxRequests
}

// peerDoc is a reduced document at base naming peer, tombstoned at
// tombstone with an alternate successor when those are set.
func peerDoc(t *testing.T, base, peer, tombstone, successor string) *Document {
	t.Helper()
	b := &Builder{BundleIRI: base, Reduced: true, Artefacts: []Artefact{
		{Relation: "describedby", Href: base + "graph.jsonld", Type: "application/ld+json"},
		{Relation: RelPeer, Href: peer, Type: MediaType},
	}}
	if tombstone != "" {
		ts, err := parseInstant(tombstone)
		require.NoError(t, err)
		b.Tombstone = ts
		b.Artefacts = append(b.Artefacts, Artefact{Relation: "alternate", Href: successor, Type: MediaType})
	}
	d, _, err := b.Build()
	require.NoError(t, err)
	return d
}

// serveDoc serves d at its origin's well-known path on n.
func serveDoc(t *testing.T, n *fetchtest.Network, d *Document) {
	t.Helper()
	h, err := Handler(d, nil)
	require.NoError(t, err)
	n.Site(mustURL(t, d.Bundle().Anchor).Host, h)
}

// graphNetwork serves node x at x.example naming its peers; an unreachable
// node answers 503.
func graphNetwork(t *testing.T, graph map[string][]string, unreachable []string) *fetchtest.Network {
	n := newNetwork(t)
	for name, peers := range graph {
		host := name + ".example"
		if slices.Contains(unreachable, name) {
			n.Site(host, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
			continue
		}
		var urls []string
		for _, p := range peers {
			urls = append(urls, "https://"+p+".example"+WellKnownPath)
		}
		d := peerDocs(t, "https://"+host+"/", urls)
		serveDoc(t, n, d)
	}
	return n
}

func peerDocs(t *testing.T, base string, peers []string) *Document {
	b := &Builder{BundleIRI: base, Reduced: true, Artefacts: []Artefact{{Relation: "describedby", Href: base + "graph.jsonld", Type: "application/ld+json"}}}
	for _, p := range peers {
		b.Artefacts = append(b.Artefacts, Artefact{Relation: RelPeer, Href: p, Type: MediaType})
	}
	d, _, err := b.Build()
	require.NoError(t, err)
	return d
}

// visitedNames lists the short names (x of x.example) of the visited nodes
// in walk order.
func visitedNames(res *WalkResult) []string {
	var out []string
	for _, n := range res.Nodes {
		if n.State == NodeVisited {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(n.URL, "https://"), ".example"+WellKnownPath))
		}
	}
	return out
}

// surfaceDoc is a reduced document declaring the surfaces (kind, href).
func surfaceDoc(t *testing.T, surfaces [][2]string) *Document {
	t.Helper()
	b := &Builder{BundleIRI: "https://a.example/", Reduced: true, Artefacts: []Artefact{{Relation: "describedby", Href: "https://a.example/graph.jsonld", Type: "application/ld+json"}}}
	for _, s := range surfaces {
		b.Artefacts = append(b.Artefacts, Artefact{Relation: RelSurface, Href: s[1], Attributes: []Attribute{{"agsc-surface", []string{s[0]}}, {"agsc-access", []string{"none"}}}})
	}
	d, _, err := b.Build()
	require.NoError(t, err)
	return d
}
