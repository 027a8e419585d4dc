package agentic

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentweb/agentweb/internal/serve"
)

// Media types of the two files ([Agentic Site Profile 1.1], section "TXT
// 1.1": serve both files as UTF-8, using application/json and text/plain;
// charset=utf-8).
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
const (
	jsonMediaType = "application/json"
	textMediaType = "text/plain; charset=utf-8"
)

// HandlerOptions configures Handler. The zero value serves the profile at
// /agentic.json and its TXT 1.1 index at /agentic.txt.
type HandlerOptions struct {
	// ProfileURL is where the JSON is published; "" means the origin's
	// /agentic.json. The TXT is served beside it as agentic.txt, and its
	// Profile line names this URL.
	ProfileURL string
	// TextVersion selects the TXT form: "" or "1.1" for TXT 1.1, "1.2" for
	// the publication form with the project references.
	TextVersion string
	// CacheControl is sent with both files; "" means "public, max-age=300".
	CacheControl string
	// Header holds extra headers for both responses (CORS, Link, ...).
	Header http.Header
}

// Handler returns an http.Handler that serves s as JSON at the profile URL's
// path (application/json). It serves the generated TXT beside it as
// agentic.txt (text/plain; charset=utf-8). Both bodies are generated once,
// here. The handler answers GET and HEAD with ETag and Content-Length, and
// If-None-Match with 304. It refuses other methods with 405 and answers 404
// for every other path. Handler fails when s is invalid or the profile URL
// is refused.
func Handler(s *Site, opts *HandlerOptions) (http.Handler, error) {
	if opts == nil {
		opts = &HandlerOptions{}
	}
	jsonBody, err := s.JSON()
	if err != nil {
		return nil, err
	}
	pu, err := profileURLFor(s.Origin, opts.ProfileURL)
	if err != nil {
		return nil, err
	}
	var txt []byte
	switch opts.TextVersion {
	case "", textVersion11:
		txt, err = s.Text(pu)
	case textVersion12:
		txt, err = s.PublicationText(pu)
	default:
		return nil, fmt.Errorf("agentic: unsupported TXT version %q (want 1.1 or 1.2)", opts.TextVersion)
	}
	if err != nil {
		return nil, err
	}
	return publicationHandler(pu, jsonBody, txt, opts), nil
}

// ActionHandler is Handler for a preserved Action Profile 1.0: the JSON
// exactly as it was read and its Action TXT (1.0, or 1.2 when
// opts.TextVersion is "1.2").
func ActionHandler(p *ActionProfile, opts *HandlerOptions) (http.Handler, error) {
	if opts == nil {
		opts = &HandlerOptions{}
	}
	pu, err := profileURLFor(p.Origin, opts.ProfileURL)
	if err != nil {
		return nil, err
	}
	var txt []byte
	switch opts.TextVersion {
	case "", textVersion10, textVersion11:
		txt, err = p.Text(pu)
	case textVersion12:
		txt, err = p.PublicationText(pu)
	default:
		return nil, fmt.Errorf("agentic: unsupported TXT version %q (want 1.0 or 1.2)", opts.TextVersion)
	}
	if err != nil {
		return nil, err
	}
	return publicationHandler(pu, p.Bytes(), txt, opts), nil
}

// textURL returns the URL of the TXT beside a profile URL.
func textURL(profileURL string) string {
	u, err := url.Parse(profileURL)
	if err != nil {
		return profileURL
	}
	return u.ResolveReference(&url.URL{Path: "agentic.txt"}).String()
}

func publicationHandler(profileURL string, jsonBody, txt []byte, opts *HandlerOptions) http.Handler {
	cc := opts.CacheControl
	if cc == "" {
		cc = "public, max-age=300"
	}
	hdr := http.Header{"X-Content-Type-Options": {"nosniff"}}
	for k, v := range opts.Header {
		hdr[http.CanonicalHeaderKey(k)] = append([]string(nil), v...)
	}
	ju, _ := url.Parse(profileURL)
	tu, _ := url.Parse(textURL(profileURL))
	jsonPath, txtPath := ju.Path, tu.Path
	jh := serve.Handler(serve.Document{Body: jsonBody, ContentType: jsonMediaType, CacheControl: cc, Header: hdr})
	th := serve.Handler(serve.Document{Body: txt, ContentType: textMediaType, CacheControl: cc, Header: hdr})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case jsonPath:
			jh.ServeHTTP(w, r)
		case txtPath:
			th.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}
