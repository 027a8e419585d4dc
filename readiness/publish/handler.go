package publish

import (
	"net/http"
	"net/url"
	"runtime"
	"time"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/serve"
)

// kit is a Site made ready to serve: every document built and validated
// once, when the handler is built.
type kit struct {
	site      Site
	origin    *url.URL
	maxPage   int64
	md        *mdConverter
	pages     *pageCache
	documents []document // the spec documents, in llms.txt order
	routes    map[string]http.Handler
	links     string // the Link field value every page carries, but its Markdown alternate
}

// document is one spec document the kit serves.
type document struct {
	path, title, notes string
	twin               string // a second path served by the same handler, or ""
	key                string // its name in the card's publishes, or ""
	handler            http.Handler
	link               string // a Link field value the pages carry for it, or ""
}

// anInterface is one interface an agent can call, as llms.txt lists it.
type anInterface struct{ name, url, notes string }

// Defaults of the page wrapper.
const (
	defaultMaxPage        = 4 << 20
	defaultConvertTimeout = 2 * time.Second
	mdCacheEntries        = 512
	mdCacheBytes          = 64 << 20
	pageCacheEntries      = 1024
	pageCacheBytes        = 64 << 20
	cacheControl          = "public, max-age=300"
)

// Handler returns the site's pages, made agent-ready: pages is called for
// every path the kit does not serve itself. For GET and HEAD the kit reads
// the page pages writes (up to MaxPageBytes; a larger page passes through
// untouched) and, when it is HTML:
//
//   - answers a request whose Accept header prefers text/markdown (RFC
//     9110 Section 12.5.1, q-values included) with 200 and
//     "text/markdown; charset=utf-8": front matter, then the page's own
//     Markdown when the site gives one, else its HTML converted;
//   - otherwise serves the HTML with the head elements it lacks
//     ([Site.NoInject] turns that off);
//
// and in both forms adds Vary: Accept and the Link header fields of the
// scoring method's Section 04. It computes its own strong ETag and answers
// If-None-Match with 304. The handler pages is called without the
// conditional request headers, since the bytes it would compare are not the
// bytes served. Any other method, and any response that is not a 200 HTML
// page, passes through unchanged (HTML error pages get Vary: Accept too).
// The kit serves /llms.txt, /sitemap.xml (and its children past the
// sitemaps.org limits), /robots.txt, and the capability card at
// /.well-known/agents.json and /agents.json. It serves the MCP endpoint and
// its protected-resource metadata, the OpenAPI document and the spec
// documents the site gives. Every document is built and validated here, so
// a bad value is an error now, never a broken file in production: the error
// is a *SiteError.
func (s *Site) Handler(pages http.Handler) (http.Handler, error) {
	if pages == nil {
		pages = http.NotFoundHandler()
	}
	k, err := s.newKit()
	if err != nil {
		return nil, err
	}
	timeout := s.ConvertTimeout
	if timeout <= 0 {
		timeout = defaultConvertTimeout
	}
	k.md = newConverter(timeout, mdCacheEntries, mdCacheBytes, max(2, runtime.GOMAXPROCS(0)))
	k.pages = newPageCache(pageCacheEntries, pageCacheBytes)
	text := func(body []byte) http.Handler {
		return serve.Handler(serve.Document{Body: body, ContentType: "text/plain; charset=utf-8", CacheControl: cacheControl})
	}
	k.routes[llmsPath] = text(k.llmsText())
	k.routes[robotsPath] = text(k.robotsText())
	maps, err := k.buildSitemaps(0)
	if err != nil {
		return nil, err
	}
	for p, f := range maps.files {
		k.routes[p] = f
	}
	k.links = k.linkValue()
	mux := http.NewServeMux()
	for p, h := range k.routes {
		mux.Handle(p, exact(p, h, pages))
	}
	mux.Handle("/", &pageHandler{k: k, next: pages})
	return mux, nil
}

// newKit validates s and builds every document the kit serves but the
// site's pages.
func (s *Site) newKit() (*kit, error) {
	origin, err := s.validate()
	if err != nil {
		return nil, err
	}
	k := &kit{site: *s, origin: origin, routes: map[string]http.Handler{}}
	k.site.Pages = append([]Page(nil), s.Pages...)
	k.maxPage = s.MaxPageBytes
	if k.maxPage <= 0 {
		k.maxPage = defaultMaxPage
	}
	if err := k.buildDocuments(); err != nil {
		return nil, err
	}
	if err := k.buildSkills(); err != nil {
		return nil, err
	}
	return k, nil
}

// LLMsText returns the bytes [Site.Handler] serves at /llms.txt for s, so
// that a knowledge link set can name llms.txt with its digest (the digest
// attribute, [knowledge-linkset draft] Section 4.3.1). Its error is the one
// Handler returns for the same value.
//
// The bytes depend on the site's facts and on which documents it publishes
// (whether Linkset, OpenAgent, AgentSignup and the Agentic Site Profile are
// there), never on those documents' content. A link set that digests
// llms.txt is so built in two steps. With Linkset set to the link set
// without the llms.txt artefact, LLMsText gives the bytes. The link set
// built again with them as that artefact's Body replaces it. Then the
// digest holds for what Handler serves.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func (s *Site) LLMsText() ([]byte, error) {
	k, err := s.newKit()
	if err != nil {
		return nil, err
	}
	return k.llmsText(), nil
}

// exact serves h at exactly path and hands any longer path under it to
// pages (a ServeMux pattern ending in "/" would match a whole subtree).
func exact(path string, h, pages http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			pages.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// linkValue is the Link field the kit adds to pages: llms.txt as
// describedby, the card as an alternate, and a link per spec document that
// asks for one (the method's Section 04). The page's own Markdown alternate is
// added per page.
func (k *kit) linkValue() string {
	v := linkheader.Format(
		linkheader.Link{Target: llmsPath, Rel: []string{"describedby"}, Type: "text/plain"},
		linkheader.Link{Target: cardTwin, Rel: []string{"alternate"}, Type: "application/json"},
	)
	for _, d := range k.documents {
		if d.link != "" {
			v += ", " + d.link
		}
	}
	return v
}

// addLinks adds the site's Link field and the page's Markdown alternate.
func (k *kit) addLinks(h http.Header, path string) {
	h.Add("Link", k.links)
	h.Add("Link", linkheader.Format(linkheader.Link{Target: path, Rel: []string{"alternate"}, Type: "text/markdown"}))
}

// ServeHTTP serves one sitemap file, gzip-encoded when the request accepts
// gzip (RFC 9110 Section 12.5.3); each encoding has its own strong ETag,
// and both responses carry Vary: Accept-Encoding.
func (f *sitemapFile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		f.gz.ServeHTTP(w, r)
		return
	}
	f.plain.ServeHTTP(w, r)
}
