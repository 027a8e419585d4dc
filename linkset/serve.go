package linkset

import (
	"fmt"
	"net/http"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/serve"
)

// LinkElement is the element a node SHOULD place in the head of every HTML
// page it generates (Section 5).
const LinkElement = `<link rel="describedby" href="` + WellKnownPath + `" type="` + MediaType + `">`

// LinkHeader returns the Link field value a node SHOULD send at least on
// its origin's root route (Section 5): href, normally [WellKnownPath], with
// rel="describedby" and the media type, as in
// </.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json".
func LinkHeader(href string) string {
	return linkheader.Format(linkheader.Link{Target: href, Rel: []string{"describedby"}, Type: MediaType})
}

// profileLinkHeader is the Link field value that carries the profile where
// a platform cannot attach a parameter to Content-Type (Section 3.1, Figure 2).
const profileLinkHeader = `<` + ProfileURI + `>; rel="profile"`

// Cross-origin headers of Section 3.3.
const (
	corsAllowOrigin   = "*"
	corsExposeHeaders = "Link, ETag, Content-Type"
)

// HandlerOptions tunes [Handler]; the zero value is the draft's default.
type HandlerOptions struct {
	// ProfileLink also sends the profile in a Link header field (Section
	// 3.1, Figure 2). The media type parameter is always sent.
	ProfileLink bool
}

// Handler serves the canonical bytes of d ([Document.Canonical]), to mount at
// [WellKnownPath]. It answers GET and HEAD with Content-Type
// application/linkset+json with the profile parameter of [ProfileURI] (Section
// 3.1). It sends an ETag that is the quoted lower-case hex SHA-256 of the
// bytes, and Cache-Control: no-cache ([knowledge-linkset draft], Section 3.2).
// It sends Access-Control-Allow-Origin: * and Access-Control-Expose-Headers:
// Link, ETag, Content-Type, and never Access-Control-Allow-Credentials (Section
// 3.3). If-None-Match yields 304 Not Modified; other methods 405. It requires
// no request header at all, so a browser reads it with a simple request.
//
// A document that does not conform ([Document.Check]) is refused with a
// *ValidationError, and so is one over the one mebibyte a client reads
// (Section 7.1). The bytes are taken when Handler is called; later changes
// to d are not served.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Handler(d *Document, opts *HandlerOptions) (http.Handler, error) {
	if d == nil {
		return nil, fmt.Errorf("%w: no document", ErrInvalid)
	}
	if ps := d.Check(); len(ps) > 0 {
		return nil, invalid(ps)
	}
	body, err := d.Canonical()
	if err != nil {
		return nil, err
	}
	if len(body) > maxDocumentBytes {
		return nil, fmt.Errorf("%w: the document is %d bytes, over the %d a client reads (Section 7.1)", ErrInvalid, len(body), maxDocumentBytes)
	}
	return handlerFor(body, opts != nil && opts.ProfileLink), nil
}

// handlerFor serves body with the headers of Sections 3.1 to 3.3.
func handlerFor(body []byte, profileLink bool) http.Handler {
	h := http.Header{}
	h.Set("Access-Control-Allow-Origin", corsAllowOrigin)
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	if profileLink {
		h.Set("Link", profileLinkHeader)
	}
	return serve.Handler(serve.Document{
		Body:         body,
		ContentType:  contentType,
		CacheControl: "no-cache",
		Header:       h,
	})
}

// CORS wraps the handler of a node's public artefacts so that every
// response carries the headers of Section 3.3: Access-Control-Allow-Origin:
// *, Access-Control-Expose-Headers: Link, ETag, Content-Type, and no
// Access-Control-Allow-Credentials (removed if next sets it).
func CORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", corsAllowOrigin)
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
		next.ServeHTTP(&corsWriter{ResponseWriter: w}, r)
	})
}

type corsWriter struct {
	http.ResponseWriter
	wrote bool
}

func (c *corsWriter) fix() {
	if c.wrote {
		return
	}
	c.wrote = true
	h := c.Header()
	h.Del("Access-Control-Allow-Credentials")
	h.Set("Access-Control-Allow-Origin", corsAllowOrigin)
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
}

func (c *corsWriter) WriteHeader(code int) { c.fix(); c.ResponseWriter.WriteHeader(code) }

func (c *corsWriter) Write(b []byte) (int, error) { c.fix(); return c.ResponseWriter.Write(b) }

// Unwrap lets http.ResponseController reach the underlying writer.
func (c *corsWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// Advertise wraps a site's handler so that the response to its root route
// carries the [LinkHeader] field that points at the discovery document at
// [WellKnownPath] (Section 5).
func Advertise(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Add("Link", advertised)
		}
		next.ServeHTTP(w, r)
	})
}

var advertised = LinkHeader(WellKnownPath)
