package demosite

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness/agentsjson"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// The hosts of the demo's fake internet, when Options.Host is not set.
const (
	// ShopHost serves Example Shop, the agent-ready site.
	ShopHost = "shop.example"
	// PeerHost serves a second knowledge-linkset node that names the shop
	// back as its peer.
	PeerHost = "guide.example"
	// BrokerHost serves the demo broker's JWK Set; its origin is the issuer
	// of the shop's rp_attestation.
	BrokerHost = "broker.example"
)

const brokerKeyID = "demo-broker-1"

// Defect is a set of deliberate mistakes the site can be started with, so
// that tests and the demo show what a broken site looks like. The zero value
// is the well-made site.
type Defect uint32

// The defects. Each one breaks one thing, and names what notices it.
const (
	// NoMarkdown puts the shop behind a front that drops the Accept
	// header, as a misconfigured cache does. The kit never sees a request
	// for Markdown, so the announced alternate is HTML too. In readiness,
	// markdown_representation fails, and the other Markdown checks become
	// not applicable.
	NoMarkdown Defect = 1 << iota
	// NoVary puts the shop behind a front that drops the Vary header the
	// kit sends (readiness: vary_accept fails, markdown_representation is
	// partial).
	NoVary
	// BrokenJSONLD adds a JSON-LD block with a trailing comma to every page
	// the shop writes (readiness: structured_business_data is partial).
	BrokenJSONLD
	// TwinsDiffer serves, in front of the kit, a stale copy of the card
	// (another name) at /agents.json, while the kit serves the current one
	// at /.well-known/agents.json (readiness: manifest_twins fails).
	TwinsDiffer
	// BadDigest serves a graph.nq that is not the one the linkset's digest
	// describes (linkset: one artefact mismatches).
	BadDigest
	// StaleTerms changes the terms text in agent-signup.json but keeps the
	// old terms.sha256 (agentsignup: the document does not conform). The
	// kit refuses such a document, so the shop serves it by hand.
	StaleTerms
	// MCPNoPKCE leaves code_challenge_methods_supported out of the OAuth
	// metadata and accepts authorization requests without PKCE (readiness:
	// mcp_signin_discovery is partial).
	MCPNoPKCE

	defectEnd
)

// Broken is the set the demo's -broken flag starts: every defect but
// NoMarkdown, which would hide NoVary.
const Broken = NoVary | BrokenJSONLD | TwinsDiffer | BadDigest | StaleTerms | MCPNoPKCE

var defectNames = []string{"no-markdown", "no-vary", "broken-json-ld", "twins-differ", "bad-digest", "stale-terms", "mcp-no-pkce"}

// Defects lists every single defect, in declaration order.
func Defects() []Defect {
	var out []Defect
	for d := Defect(1); d < defectEnd; d <<= 1 {
		out = append(out, d)
	}
	return out
}

// Has reports whether every defect of x is in d.
func (d Defect) Has(x Defect) bool { return x != 0 && d&x == x }

// String names the defects of d, joined by "+"; "none" for the zero value.
func (d Defect) String() string {
	if d == 0 {
		return "none"
	}
	var names []string
	for i, x := range Defects() {
		if d.Has(x) {
			names = append(names, defectNames[i])
		}
	}
	if rest := d &^ (defectEnd - 1); rest != 0 {
		names = append(names, fmt.Sprintf("0x%x", uint32(rest)))
	}
	return strings.Join(names, "+")
}

// Options configures Start. The zero value (and nil) starts the well-made
// site on a new network.
type Options struct {
	// Host is the shop's host name; "" means ShopHost. The peer and the
	// broker are named after it: a Host "shop42.example" gives
	// "guide42.example" and "broker42.example", and a Host that does not
	// start with "shop" gets "guide." and "broker." before it. Distinct
	// hosts let many shops share one network.
	Host string
	// Defects are the mistakes to make.
	Defects Defect
	// Network is the fake internet to serve on; nil makes a new one, which
	// Site.Close closes.
	Network *fetchtest.Network
	// Now is the clock of the attestation and the linkset's build date; nil
	// means time.Now.
	Now func() time.Time
}

// Site is a running Example Shop with its peer and its broker.
type Site struct {
	// Network is the fake internet the three hosts are served on.
	Network *fetchtest.Network
	// URL is the shop's home page, "https://shop.example/".
	URL string
	// Host, PeerHost and BrokerHost are the three host names served.
	Host, PeerHost, BrokerHost string
	// Defects are the mistakes the site makes.
	Defects Defect
	// LinksetURL and PeerLinksetURL are the two knowledge-linkset nodes.
	LinksetURL, PeerLinksetURL string
	// OpenAgentURL is the shop assistant's OpenAgent profile.
	OpenAgentURL string
	// BrokerIssuer is the demo broker's origin, the attestation's iss, and
	// BrokerJWKSURL its JWK Set.
	BrokerIssuer, BrokerJWKSURL string
	// BrokerKey is the broker's Ed25519 public key, generated at Start.
	BrokerKey ed25519.PublicKey
	// Artefacts are the bodies the shop's linkset describes, by URL, as
	// built (before any BadDigest change).
	Artefacts map[string][]byte

	brokerKey ed25519.PrivateKey
	oauth     *oauth
	now       func() time.Time
	ownNet    bool
}

// hostNames returns the shop, peer and broker host names for host.
func hostNames(host string) (shop, peer, broker string) {
	if host == "" {
		return ShopHost, PeerHost, BrokerHost
	}
	if rest, ok := strings.CutPrefix(host, "shop"); ok && rest != "" {
		return host, "guide" + rest, "broker" + rest
	}
	return host, "guide." + host, "broker." + host
}

// Start builds the shop on agentweb's publish kit (package
// readiness/publish) and the spec packages' own builders, and serves the
// shop, the peer and the broker on a fetchtest network. The broker's key
// pair is generated here, so each run signs a new attestation.
func Start(opts *Options) (*Site, error) {
	if opts == nil {
		opts = &Options{}
	}
	shop, peer, broker := hostNames(opts.Host)
	s := &Site{
		Network: opts.Network, URL: "https://" + shop + "/", Defects: opts.Defects, now: opts.Now,
		Host: shop, PeerHost: peer, BrokerHost: broker,
		LinksetURL:     "https://" + shop + linkset.WellKnownPath,
		PeerLinksetURL: "https://" + peer + linkset.WellKnownPath,
		OpenAgentURL:   "https://" + shop + openagent.WellKnownPath,
		BrokerIssuer:   "https://" + broker,
		BrokerJWKSURL:  "https://" + broker + "/.well-known/jwks.json",
	}
	if s.now == nil {
		s.now = time.Now
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("demosite: broker key: %w", err)
	}
	s.BrokerKey, s.brokerKey = pub, priv
	s.oauth = &oauth{issuer: "https://" + shop, pkce: !s.Defects.Has(MCPNoPKCE), now: s.now,
		codes: map[string]pendingCode{}, tokens: map[string]time.Time{}}

	shopH, err := s.shopHandler()
	if err != nil {
		return nil, err
	}
	peerH, err := s.peerHandler()
	if err != nil {
		return nil, err
	}
	if s.Network == nil {
		s.Network, s.ownNet = fetchtest.New(), true
	}
	s.Network.Site(shop, shopH)
	s.Network.Site(peer, peerH)
	s.Network.Site(broker, s.brokerHandler())
	return s, nil
}

// Client is a safefetch client wired to the site's network.
func (s *Site) Client() *safefetch.Client { return s.Network.Client() }

// Keys is the key set that trusts the demo broker's key for its issuer.
func (s *Site) Keys() agentsignup.StaticKeySet {
	return agentsignup.StaticKeySet{s.BrokerIssuer: {{KeyID: brokerKeyID, Key: s.BrokerKey}}}
}

// Close stops the network if Start made it.
func (s *Site) Close() {
	if s.ownNet {
		s.Network.Close()
	}
}

// static serves fixed bytes with a content type.
func static(contentType string, body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(body)
	})
}

// shopHandler is the shop: its own pages and handlers, wrapped by the
// publish kit, which serves everything else an agent reads. Its own are
// the catalogue API, the linkset's artefacts, the OAuth authorization
// server and the agent sign-up endpoint. Then comes the front the defects
// that sit outside the kit need.
func (s *Site) shopHandler() (http.Handler, error) {
	ps, err := s.publishSite()
	if err != nil {
		return nil, err
	}
	kit, err := ps.Handler(s.ownHandler())
	if err != nil {
		return nil, fmt.Errorf("demosite: publish: %w", err)
	}
	return s.front(kit)
}

// ownHandler serves what the shop writes itself.
func (s *Site) ownHandler() http.Handler {
	mux := http.NewServeMux()
	b := strings.TrimSuffix(s.URL, "/")
	for _, p := range s.pages() {
		pattern := "GET " + p.path
		if p.path == "/" {
			pattern = "GET /{$}"
		}
		mux.Handle(pattern, s.pageHandler(p))
	}
	mux.HandleFunc("GET /api/products", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"products":[{"sku":"TENT-2","name":"Trail Tent 2","price_eur":249},{"sku":"BAG-10","name":"Alpine Bag -10","price_eur":189},{"sku":"STOVE-1","name":"Pocket Stove","price_eur":39}]}`)
	})

	// The knowledge linkset's artefacts (the kit serves the document and
	// the OpenAPI artefact).
	s.Artefacts = map[string][]byte{}
	for path, body := range s.artefacts() {
		s.Artefacts[b+path] = body
		if path == "/openapi.json" {
			continue
		}
		served := body
		if path == "/graph.nq" && s.Defects.Has(BadDigest) {
			served = append([]byte("<"+b+"/#org> <https://schema.org/name> \"Example Shop (renamed)\" .\n"), body...)
		}
		ct := "application/ld+json"
		if strings.HasSuffix(path, ".nq") {
			ct = "application/n-quads"
		}
		mux.Handle("GET "+path, linkset.CORS(static(ct, served)))
	}

	if s.Defects.Has(StaleTerms) {
		// The text changed, the hash did not: served by hand, since neither
		// the kit nor the package's Handler can publish such a document.
		if doc, err := s.signupDocument(); err == nil {
			stale := strings.Replace(string(doc.Bytes()), "ten orders a day", "five orders a day", 1)
			mux.Handle("GET "+agentsignup.WellKnownPath, static(agentsignup.MediaType, []byte(stale)))
		}
	}
	mux.HandleFunc("POST /api/signup/agent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprint(w, `{"error":"an agent-identity-v1 assertion from an allowed broker is required"}`)
	})

	// The MCP endpoint's authorization server: RFC 8414 metadata and the
	// authorization code grant with PKCE S256. The kit serves the
	// endpoint's RFC 9728 metadata.
	mux.Handle("GET /.well-known/oauth-authorization-server", static("application/json", s.oauth.metadata()))
	mux.HandleFunc("GET /oauth/authorize", s.oauth.authorize)
	mux.HandleFunc("POST /oauth/token", s.oauth.token)
	mux.Handle("GET /logo.png", static("image/png", logoPNG))
	return mux
}

// front is what stands between the kit and the network. For the
// well-made shop it is nothing. For the defects that a real site makes
// outside its application (a cache that drops headers, a stale copy of
// a file), it is the mistake.
func (s *Site) front(kit http.Handler) (http.Handler, error) {
	h := kit
	if s.Defects.Has(TwinsDiffer) {
		stale, err := s.staleCard(kit)
		if err != nil {
			return nil, err
		}
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == agentsjson.RootPath {
				stale.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	if s.Defects.Has(NoVary) {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(&dropVary{ResponseWriter: w}, r)
		})
	}
	if s.Defects.Has(NoMarkdown) {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path != "/mcp" {
				r = r.Clone(r.Context())
				r.Header.Del("Accept")
			}
			next.ServeHTTP(w, r)
		})
	}
	return h, nil
}

// staleCard is the card the kit serves, read back with agentsjson.Parse,
// under an older name: what a copy left behind at /agents.json looks like.
func (s *Site) staleCard(kit http.Handler) (http.Handler, error) {
	rec := httptest.NewRecorder()
	kit.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, s.URL+strings.TrimPrefix(agentsjson.WellKnownPath, "/"), nil))
	card, err := agentsjson.Parse(rec.Body.Bytes())
	if err != nil {
		return nil, fmt.Errorf("demosite: the kit's card: %w", err)
	}
	card.Name += " (old)"
	return agentsjson.Handler(card)
}

// dropVary drops the Vary header of every response.
type dropVary struct {
	http.ResponseWriter
	wrote bool
}

func (d *dropVary) WriteHeader(code int) {
	if !d.wrote {
		d.Header().Del("Vary")
		d.wrote = code >= 200
	}
	d.ResponseWriter.WriteHeader(code)
}

func (d *dropVary) Write(p []byte) (int, error) {
	if !d.wrote {
		d.WriteHeader(http.StatusOK)
	}
	return d.ResponseWriter.Write(p)
}

func (d *dropVary) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (d *dropVary) Unwrap() http.ResponseWriter { return d.ResponseWriter }

func (s *Site) peerHandler() (http.Handler, error) {
	doc, err := s.peerLinkset()
	if err != nil {
		return nil, fmt.Errorf("demosite: peer linkset: %w", err)
	}
	lh, err := linkset.Handler(doc, nil)
	if err != nil {
		return nil, fmt.Errorf("demosite: peer linkset: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+linkset.WellKnownPath, lh)
	mux.Handle("GET /guide.jsonld", linkset.CORS(static("application/ld+json",
		[]byte(`{"@context":"https://schema.org","@type":"Organization","name":"Example Trail Guide","url":"https://`+s.PeerHost+`/"}`+"\n"))))
	return linkset.Advertise(mux), nil
}

func (s *Site) brokerHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /.well-known/jwks.json", static("application/jwk-set+json", s.brokerJWKS()))
	return mux
}

// logoPNG is a 1×1 transparent PNG.
var logoPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")
