package publish

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness/agentsjson"
)

// Access says whether a class of crawler may read the site.
type Access uint8

const (
	// Allow lets the crawlers of a class read every page (the zero value).
	Allow Access = iota
	// Disallow refuses them the whole site.
	Disallow
)

// Crawlers says, per class of AI crawler, whether it may read the site.
// The zero value allows all three. The agent-readiness scoring method
// scores only the last two: blocking training crawlers costs nothing,
// blocking agents that search, cite or act for a person does.
type Crawlers struct {
	// Training crawlers collect text to train models (GPTBot, ClaudeBot,
	// Google-Extended, ...).
	Training Access
	// Search crawlers index pages for AI search and citation
	// (OAI-SearchBot, Claude-SearchBot, PerplexityBot).
	Search Access
	// User agents fetch a page because a person asked them to
	// (ChatGPT-User, Claude-User, Perplexity-User).
	User Access
}

// Contact is where an agent hands its visitor over to a person: the
// method's human handoff (requirement R10). At least one field is needed.
type Contact struct {
	// Email is an address a person reads ("agents@shop.example").
	Email string
	// URL is the contact page, absolute or a path on the site.
	URL string
}

// Page is one page of the site that the kit lists (llms.txt, the
// sitemap) and describes to agents (front matter, JSON-LD).
type Page struct {
	// Path is the page's path on the site, starting with "/".
	Path string
	// Title and Description are the page's title and one-sentence summary.
	Title, Description string
	// Updated is when the page last changed (sitemap lastmod, front
	// matter, JSON-LD dateModified). Zero: not stated.
	Updated time.Time
	// Markdown is the page's own Markdown body, without front matter. Nil:
	// the kit converts the page's HTML.
	Markdown []byte
	// Section is the llms.txt section the page is listed under; "" means
	// "Pages".
	Section string
}

// The paths the kit serves, besides the site's pages.
const (
	llmsPath    = "/llms.txt"
	sitemapPath = "/sitemap.xml"
	robotsPath  = "/robots.txt"
	cardPath    = "/.well-known/agents.json"
	cardTwin    = "/agents.json"
	openAPIPath = "/openapi.json"
)

// Site is everything the kit needs to know to make a site agent-ready.
// Origin, Name, Description and Contact are required; everything else is
// optional, and what is given is validated by [Site.Handler].
type Site struct {
	// Origin is the site's https origin ("https://shop.example"), no path.
	Origin string
	// Name and Description name and summarise the site in one line each
	// (the llms.txt H1 and blockquote, the card, the JSON-LD).
	Name, Description string
	// Summary is an optional paragraph llms.txt adds after the
	// blockquote: what agents may do here, in plain words.
	Summary string
	// Language is the site's BCP 47 language tag ("en", "de-CH"): the
	// html lang the kit adds where a page lacks one, and the front
	// matter's language.
	Language string
	// Contact is where a person can be reached.
	Contact Contact
	// Pages are the pages listed in llms.txt and the sitemap. The Markdown
	// form of each is also served at its URL with .md appended (index.md
	// for "/" and other paths ending in "/"), unless that path is itself a
	// listed page.
	Pages []Page
	// Crawlers says which AI crawlers robots.txt lets in.
	Crawlers Crawlers
	// Disallow lists path prefixes refused to every crawler (a cart, an
	// account area).
	Disallow []string
	// ContentSignal, when set, is written as a Content-Signal line in the
	// robots.txt group for all crawlers, such as "search=yes, ai-train=no"
	// (Cloudflare's Content Signals Policy).
	ContentSignal string
	// Skills are the Agent Skills the site publishes for agents. The kit
	// serves each as /.well-known/agent-skills/{name}/SKILL.md: front
	// matter with name and description, then the instructions. It lists
	// them, with their SHA-256 digests, in the discovery index at
	// /.well-known/agent-skills/index.json ([Agent Skills Discovery], a
	// draft, version 0.2.0). Nil: no index.
	//
	// [Agent Skills Discovery]: https://github.com/cloudflare/agent-skills-discovery-rfc
	Skills []Skill
	// Catalog lists the entries of the site's AI catalog. The kit serves
	// it at /.well-known/ai-catalog.json ([Agentic Resource Discovery]
	// 1.0, a draft), validated as Lighthouse's ard-schema audit validates
	// it. It advertises it on every page with a Link header field,
	// rel="ai-catalog". Nil: no catalog.
	//
	// [Agentic Resource Discovery]: https://github.com/ards-project/ard-spec
	Catalog []CatalogEntry
	// Logo and SameAs complete the organisation's JSON-LD identity node:
	// its logo (absolute URL or path) and the other profiles that name it.
	Logo   string
	SameAs []string

	// MCP is the site's MCP endpoint, when it has one.
	MCP *MCP
	// OpenAPI is the site's OpenAPI 3 document (JSON), served at
	// /openapi.json, when it has one.
	OpenAPI []byte

	// Card is the capability card served at /.well-known/agents.json and
	// /agents.json. Nil: the kit builds one from the site's facts.
	Card *agentsjson.Card

	// Agentic is the site's Agentic Site Profile 1.1, served at
	// /agentic.json with its TXT index at /agentic.txt. Nil: the kit builds
	// one from the site's facts (home page, llms.txt, OpenAPI operations,
	// MCP endpoint, pages), unless NoAgentic is set. It does so only where
	// such a profile can be valid. The profile requires a public https
	// origin on the default port ([Agentic Site Profile 1.1], its URL
	// rules). A development origin has http, another port, or a loopback,
	// private or local host, such as http://127.0.0.1:8080. On one the kit
	// serves no profile, the card and llms.txt name none, and Handler does
	// not fail for it. A profile given here is always validated, and
	// refused if it does not conform.
	//
	// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
	Agentic   *agentic.Site
	NoAgentic bool
	// OpenAgent is the site's agent profile, served at
	// /.well-known/openagent.json and announced with a Link header.
	OpenAgent *openagent.Profile
	// Linkset is the site's knowledge link set, served at
	// /.well-known/knowledge-linkset and announced with a Link header.
	Linkset *linkset.Document
	// AgentSignup is the site's agent-identity-v1 discovery document,
	// served at /.well-known/agent-signup.json.
	AgentSignup *agentsignup.Document

	// NoInject leaves the HTML head of every page as the page wrote it:
	// the kit then adds only HTTP headers, never elements.
	NoInject bool
	// MaxPageBytes bounds a page the kit reads to decorate or convert; a
	// larger page is passed through untouched. 0 means 4 MiB.
	MaxPageBytes int64
	// ConvertTimeout bounds one HTML to Markdown conversion, the wait for
	// its turn included; 0 means 2 s. At most GOMAXPROCS conversions (at
	// least 2) run at once, those that timed out and are still finishing
	// included. A page whose conversion times out or finds no turn within
	// ConvertTimeout is served as HTML.
	ConvertTimeout time.Duration
}

// Errors of [Site.Handler].
var (
	// ErrInvalidSite is wrapped by every error about the Site value.
	ErrInvalidSite = errors.New("publish: invalid site")
)

// SiteError names the field of a Site that is wrong and why. It wraps
// [ErrInvalidSite], and the validation error of a document the kit was
// given when that is the reason.
type SiteError struct {
	// Field is the Site field, such as "Origin" or "Pages[2].Path".
	Field string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying error, or nil.
	Err error
}

// Error returns "publish: invalid site: Field: reason".
func (e *SiteError) Error() string {
	s := "publish: invalid site: " + e.Field + ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns ErrInvalidSite and the underlying error.
func (e *SiteError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidSite, e.Err}
	}
	return []error{ErrInvalidSite}
}

func siteErr(field, format string, args ...any) error {
	return &SiteError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// validate checks the facts every document is built from and returns the
// parsed origin.
func (s *Site) validate() (*url.URL, error) {
	u, err := url.Parse(s.Origin)
	switch {
	case err != nil:
		return nil, siteErr("Origin", "%v", err)
	case u.Scheme != "https" && !(u.Scheme == "http" && isLoopbackHost(u.Hostname())):
		return nil, siteErr("Origin", "%q is not an https origin", s.Origin)
	case u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return nil, siteErr("Origin", "%q is not a bare origin (scheme and host only)", s.Origin)
	}
	u.Path = ""
	if strings.TrimSpace(s.Name) == "" {
		return nil, siteErr("Name", "empty")
	}
	if strings.TrimSpace(s.Description) == "" {
		return nil, siteErr("Description", "empty")
	}
	if s.Language != "" {
		if !webread.ValidLanguageTag(s.Language) {
			return nil, siteErr("Language", "%q is not a BCP 47 language tag", s.Language)
		}
	}
	if s.Contact.Email == "" && s.Contact.URL == "" {
		return nil, siteErr("Contact", "give an Email or a URL where a person can be reached")
	}
	if s.Contact.Email != "" {
		if a, err := mail.ParseAddress(s.Contact.Email); err != nil || a.Address != s.Contact.Email {
			return nil, siteErr("Contact.Email", "%q is not a plain email address", s.Contact.Email)
		}
	}
	if s.Contact.URL != "" {
		if err := checkRef(s.Contact.URL); err != nil {
			return nil, siteErr("Contact.URL", "%v", err)
		}
	}
	if s.Logo != "" {
		if err := checkRef(s.Logo); err != nil {
			return nil, siteErr("Logo", "%v", err)
		}
	}
	for i, a := range s.SameAs {
		if v, err := url.Parse(a); err != nil || !v.IsAbs() || v.Host == "" {
			return nil, siteErr(fmt.Sprintf("SameAs[%d]", i), "%q is not an absolute URL", a)
		}
	}
	seen := map[string]bool{}
	for i, p := range s.Pages {
		f := fmt.Sprintf("Pages[%d]", i)
		switch {
		case !strings.HasPrefix(p.Path, "/") || strings.HasPrefix(p.Path, "//") || strings.ContainsAny(p.Path, "?#\\ \t\r\n"):
			return nil, siteErr(f+".Path", "%q is not a path starting with one /", p.Path)
		case seen[p.Path]:
			return nil, siteErr(f+".Path", "%q is listed twice", p.Path)
		case strings.TrimSpace(p.Title) == "":
			return nil, siteErr(f+".Title", "empty")
		}
		seen[p.Path] = true
	}
	for i, d := range s.Disallow {
		if !strings.HasPrefix(d, "/") || strings.ContainsAny(d, "\r\n#") {
			return nil, siteErr(fmt.Sprintf("Disallow[%d]", i), "%q is not a path", d)
		}
	}
	if strings.ContainsAny(s.ContentSignal, "\r\n#") {
		return nil, siteErr("ContentSignal", "must be one line without #")
	}
	if s.ContentSignal != "" {
		// The scanner's own reader, so that what the kit writes reads back.
		if l := webread.ParseContentSignal(s.ContentSignal); len(l.Problems) > 0 {
			return nil, siteErr("ContentSignal", "%s", strings.Join(l.Problems, "; "))
		}
	}
	seenSkill := map[string]bool{}
	for i, sk := range s.Skills {
		f := fmt.Sprintf("Skills[%d]", i)
		switch {
		case len(sk.Name) > 64 || !skillNameRE.MatchString(sk.Name):
			return nil, siteErr(f+".Name", "%q is not 1 to 64 lower-case letters, digits and single inner hyphens", sk.Name)
		case seenSkill[sk.Name]:
			return nil, siteErr(f+".Name", "%q is listed twice", sk.Name)
		case strings.TrimSpace(sk.Description) == "" || utf8.RuneCountInString(sk.Description) > 1024:
			return nil, siteErr(f+".Description", "must be 1 to 1024 characters")
		}
		seenSkill[sk.Name] = true
	}
	return u, nil
}

// checkRef accepts an absolute http(s) URL or a path starting with "/".
func checkRef(ref string) error {
	v, err := url.Parse(ref)
	switch {
	case err != nil:
		return err
	case v.IsAbs() && (v.Scheme == "https" || v.Scheme == "http") && v.Host != "" && v.User == nil:
		return nil
	case !v.IsAbs() && strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//"):
		return nil
	}
	return fmt.Errorf("%q is neither an absolute http(s) URL nor a path", ref)
}

func isLoopbackHost(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// pageFor returns the listed page at path, if any.
func (s *Site) pageFor(path string) (Page, bool) {
	i := slices.IndexFunc(s.Pages, func(p Page) bool { return p.Path == path })
	if i < 0 {
		return Page{}, false
	}
	return s.Pages[i], true
}
