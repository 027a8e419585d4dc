package openagent

import (
	"errors"
	"fmt"
	"html"
	"net/http"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/internal/serve"
)

// DefaultCacheControl is the Cache-Control value [Handler] sends when
// [HandlerOptions].CacheControl is empty. The specification sets no caching
// rule; a short lifetime with an ETag lets readers revalidate cheaply.
const DefaultCacheControl = "max-age=300"

// ErrNotPublishable is wrapped by the *[ValidationError] of [Handler] when
// [CheckPublic] finds material a public file must not contain; its Problems
// are the findings of [SeverityError].
var ErrNotPublishable = errors.New("openagent: profile must not be published")

// HandlerOptions configure [Handler]. The zero value is ready to use.
type HandlerOptions struct {
	// CacheControl is the Cache-Control header value; "" means
	// [DefaultCacheControl].
	CacheControl string
	// Header holds extra response headers (for example CORS or Link).
	Header http.Header
	// Allow lists rules of [CheckPublic] not to apply, for a finding known
	// to be a false positive (see [CheckPublicOptions]); every other rule
	// still refuses the profile.
	Allow []string
	// InsecureSkipPublicCheck serves the profile even when [CheckPublic]
	// finds access tokens, private keys or workspace paths in it. Leave it
	// false unless a finding is known to be a false positive.
	InsecureSkipPublicCheck bool
}

// Handler returns an http.Handler that serves p, as [Profile.Marshal] writes
// it, at whatever path it is mounted ([OpenAgent 0.1], "Publication and
// discovery"). Mount it at [WellKnownPath] for a domain that represents one
// agent, or at one stable URL per agent for a host with several. Responses
// have Content-Type application/json, a strong ETag (the SHA-256 of the
// body), Cache-Control, and answer a matching If-None-Match with 304;
// methods other than GET and HEAD get 405.
//
// Handler returns a *[ValidationError] when p is not a valid profile and a
// *[ValidationError] that wraps [ErrNotPublishable] when [CheckPublic]
// finds secrets or private paths in it (unless [HandlerOptions].Allow names
// the rule, or InsecureSkipPublicCheck is set). A profile with
// public: false is served when asked: the caller must put the handler behind
// authentication, because public: false alone protects nothing.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func Handler(p *Profile, opts *HandlerOptions) (http.Handler, error) {
	if opts == nil {
		opts = &HandlerOptions{}
	}
	body, err := p.Marshal()
	if err != nil {
		return nil, err
	}
	if !opts.InsecureSkipPublicCheck {
		var bad []Problem
		for _, f := range CheckPublic(p, &CheckPublicOptions{Allow: opts.Allow}) {
			if f.Severity == SeverityError {
				bad = append(bad, f)
			}
		}
		if len(bad) > 0 {
			return nil, problem.New(bad, ErrNotPublishable)
		}
	}
	cc := opts.CacheControl
	if cc == "" {
		cc = DefaultCacheControl
	}
	return serve.Handler(serve.Document{
		Body:         body,
		ContentType:  MediaType,
		CacheControl: cc,
		Header:       opts.Header.Clone(),
	}), nil
}

// LinkElement returns the HTML element a page about an agent uses to
// advertise its descriptor ([OpenAgent 0.1], "Publication and discovery"):
//
//	<link rel="openagent" type="application/json" href="https://example.com/agents/research.json">
//
// href is escaped for an HTML attribute. It must be an absolute HTTPS URL or a
// reference relative to the page; readers resolve it against the page URL.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func LinkElement(href string) string {
	return fmt.Sprintf(`<link rel="%s" type="%s" href="%s">`, LinkRel, MediaType, html.EscapeString(href))
}

// LinkHeader returns the value of the equivalent HTTP Link header
// (RFC 8288; [OpenAgent 0.1], "Publication and discovery"):
//
//	<https://example.com/agents/research.json>; rel="openagent"; type="application/json"
//
// Readers resolve a relative target against the response URL.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func LinkHeader(href string) string {
	return linkheader.Format(linkheader.Link{Target: href, Rel: []string{LinkRel}, Type: MediaType})
}
