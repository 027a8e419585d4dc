package agentic

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// conventionalPaths are the paths the generator always checks besides the
// profile, with the media types it asks for.
var conventionalPaths = []struct {
	path, accept, purpose string
}{
	{"/", "text/html, text/markdown;q=0.9, text/plain;q=0.8", "home page"},
	{"/llms.txt", "text/plain, text/markdown", "conventional llms.txt"},
	{"/openapi.json", "application/json, application/vnd.oai.openapi+json", "conventional OpenAPI document"},
	{"/api/openapi.json", "application/json, application/vnd.oai.openapi+json", "conventional OpenAPI document"},
	{"/docs", "text/html, text/markdown;q=0.9, text/plain;q=0.8", "conventional documentation"},
	{"/.well-known/agent-card.json", "application/json", "conventional A2A agent card"},
	{"/.well-known/agent-configuration", "application/json", "conventional Agent Auth configuration"},
}

// Errors of Discover.
var (
	// ErrOrigin reports an origin Discover will not scan.
	ErrOrigin = errors.New("agentic: origin must be a public https origin")
	// ErrNothingRetrieved reports a scan that read no usable document, so no
	// profile (which needs a retrieved resource) can be built.
	ErrNothingRetrieved = errors.New("agentic: no public document could be retrieved from the origin")
)

// DiscoverOptions configures Discover. The zero value is safe.
type DiscoverOptions struct {
	// Client makes every request; nil means safefetch.Default(), the shared
	// client. Discover charges it to a fresh budget with the generator's
	// [Limits], nested in the client's own. It adds the same-origin-or-www
	// redirect policy to the client's own.
	Client *safefetch.Client
	// ProfileURL names an existing profile to read instead of the root
	// /agentic.json, and the URL the generated TXT names. It must be on the
	// origin.
	ProfileURL string
	// Name and Description replace the values read from the home page.
	Name, Description string
	// TextVersion selects the TXT written to Discovery.Text. "" or "1.2"
	// selects the publication form, TXT 1.2: the canonical index followed by
	// the project's fixed Reference records. The reference tool's current
	// generators write it for both profile kinds. "1.1" selects the
	// canonical TXT 1.1 alone (TXT 1.0 for an Action Profile). Readers
	// accept both.
	TextVersion string
	// Regenerate builds a fresh site profile from what the site publishes
	// even when a valid profile is already published at the profile URL
	// (the root /agentic.json, or ProfileURL). That profile is still read
	// and reported in DiscoveryReport.Existing, with a note. It is not
	// returned: the Outcome is OutcomeGenerated, and the new profile is
	// meant to replace it at the same URL. Nested profiles linked from the site's
	// pages are not read. Without Regenerate a valid published profile ends
	// the scan and is kept.
	Regenerate bool
	// Deadline shortens the scan deadline; 0, or anything above
	// [Limits.Deadline], means that deadline.
	Deadline time.Duration
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Outcome says what a [Discovery] holds.
type Outcome string

// The outcomes of a discovery.
const (
	// OutcomeGenerated: a new site profile built from the scan.
	OutcomeGenerated Outcome = "generated"
	// OutcomeExistingSite: a valid published site profile, kept unchanged.
	OutcomeExistingSite Outcome = "existing-site"
	// OutcomeExistingAction: a valid Action Profile 1.0, preserved byte for byte.
	OutcomeExistingAction Outcome = "existing-action"
)

// Discovery is the result of a scan: the profile to publish, its TXT and
// the report.
type Discovery struct {
	Origin     string  `json:"origin"`
	ProfileURL string  `json:"profile_url"`
	Outcome    Outcome `json:"outcome"`
	// Site is the generated or existing site profile (nil for an action profile).
	Site *Site `json:"-"`
	// Action is the preserved action profile, if that is what was found.
	Action *ActionProfile `json:"-"`
	// JSON and Text are the agentic.json and agentic.txt to publish.
	JSON   []byte           `json:"-"`
	Text   []byte           `json:"-"`
	Report *DiscoveryReport `json:"report"`
}

// candidate is a URL found during a scan, with what it is thought to be.
type candidate struct {
	url    string
	kind   Kind
	source string
	title  string
}

// scan holds the state of one Discover call.
type scan struct {
	opts    DiscoverOptions
	origin  *url.URL
	originS string
	f       *fetcher
	report  *DiscoveryReport

	home      pageInfo
	homeOK    bool
	retrieved map[string]*retrievedDoc // by URL
	order     []string                 // retrieved URLs in the order found
	linked    map[string]candidate     // kind+" "+url -> candidate
	openapi   map[string]*openAPIDoc   // retrieved OpenAPI documents by resource URL
	queued    map[string]bool
	movedTo   map[string]string // declared URL -> final URL of a retrieved redirect
}

type retrievedDoc struct {
	url, source, title string
	kind               Kind
}

// Discover builds an Agentic Site Profile 1.1 for origin by reading its
// public documents ([Agentic Site Profile 1.1], section "Discovery and
// auditing"). It reads the conventional paths first: /agentic.json, /,
// /llms.txt, /openapi.json, /api/openapi.json, /docs,
// /.well-known/agent-card.json and /.well-known/agent-configuration. Then
// it reads the same-origin links that those documents select as
// documentation or API descriptions.
//
// It reads HTML, text/Markdown, JSON metadata and OpenAPI 3 JSON. It never
// runs scripts, signs in or invokes a protocol. MCP, A2A and Agent Auth URLs
// and cross-origin links are recorded as linked, not fetched. One safefetch
// budget holds the spec's [Limits].
//
// A valid published profile at the profile URL is kept: a site profile
// unchanged, an action profile byte for byte, with its TXT regenerated.
// DiscoverOptions.Regenerate asks for a fresh profile instead; the existing
// one is then reported in DiscoveryReport.Existing.
//
// The Discovery is returned with its report even when the error is non-nil
// (ErrNothingRetrieved, or the context's error); the error wraps ErrOrigin
// when the origin is refused before any request.
//
// [Agentic Site Profile 1.1]: https://github.com/sam1siam/agentic
func Discover(ctx context.Context, origin string, opts *DiscoverOptions) (*Discovery, error) {
	var o DiscoverOptions
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	switch o.TextVersion {
	case "", textVersion11, textVersion12:
	default:
		return nil, fmt.Errorf("agentic: unsupported TXT version %q (want 1.1 or 1.2)", o.TextVersion)
	}
	ou, originS, err := parseScanOrigin(origin)
	if err != nil {
		return nil, err
	}
	profileURL, err := profileURLFor(originS, o.ProfileURL)
	if err != nil {
		return nil, err
	}
	ctx, client, cancel := scanClient(ctx, o.Client, o.Deadline)
	defer cancel()
	budget := client.Budget()

	s := &scan{
		opts: o, origin: ou, originS: originS,
		f:         newFetcher(client, ou, scanMaxRedirects, scanMaxResponseBytes, o.Now),
		retrieved: map[string]*retrievedDoc{}, linked: map[string]candidate{},
		openapi: map[string]*openAPIDoc{}, queued: map[string]bool{}, movedTo: map[string]string{},
		report: &DiscoveryReport{
			Origin: originS, ProfileURL: profileURL, ObservedAt: o.Now().UTC(),
			Requests: []RequestRecord{}, Failures: []Failure{}, Truncations: []Truncation{},
			Bindings: []BindingCheck{}, Linked: []LinkedURL{}, Notes: []string{},
		},
	}
	d := &Discovery{Origin: originS, ProfileURL: profileURL, Report: s.report}
	defer func() {
		s.report.Budget = budgetReport(budget)
		s.report.Requests = s.f.requests()
		s.report.FinishedAt = o.Now().UTC()
		if ex := s.report.Budget.Exhausted; ex != "" {
			s.report.Notes = append(s.report.Notes, "The scan budget ran out ("+ex+"); later documents were not read.")
		}
	}()

	// Round 1: the profile and the conventional paths, five at a time.
	jobs := []job{{profileURL, "application/json", "profile", nil}}
	for _, c := range conventionalPaths {
		u := originS + c.path
		s.queued[u] = true
		jobs = append(jobs, job{u, c.accept, c.purpose, nil})
	}
	s.queued[profileURL] = true
	results := s.f.getAll(ctx, jobs, scanMaxConcurrent)
	if done := s.existingProfile(results[0], d, o.ProfileURL != ""); done {
		return d, s.finish(d)
	}
	for i, r := range results[1:] {
		s.analyse(r, jobs[i+1].url, jobs[i+1].url, "")
	}
	// Rounds 2 and 3: same-origin links selected as documentation or API
	// descriptions, OpenAPI first, while the budget lasts.
	for round := 0; round < 2 && ctx.Err() == nil; round++ {
		next := s.nextJobs(budget)
		if len(next) == 0 {
			break
		}
		rs := s.f.getAll(ctx, next.jobs(), scanMaxConcurrent)
		for i, r := range rs {
			c := next[i]
			if c.kind == KindAgentic { // a nested profile: used if valid, never indexed
				if r.ok && s.existingProfile(r, d, false) {
					return d, s.finish(d)
				}
				if !r.ok {
					s.fail(r)
				}
				continue
			}
			s.analyse(r, c.url, c.source, c.title)
		}
	}
	if err := ctx.Err(); err != nil && len(s.retrieved) == 0 {
		return d, fmt.Errorf("%w: %w", ErrNothingRetrieved, err)
	}
	if err := s.build(d); err != nil {
		return d, err
	}
	return d, s.finish(d)
}

// parseScanOrigin accepts "https://host" with an optional "/" path.
func parseScanOrigin(origin string) (*url.URL, string, error) {
	u, err := url.Parse(strings.TrimSpace(origin))
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, "", fmt.Errorf("%w: %q", ErrOrigin, weburl.Redact(origin))
	}
	o, err := weburl.Origin(u)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q: %v", ErrOrigin, weburl.Redact(origin), err)
	}
	if ps := checkOrigin(o); len(ps) > 0 {
		return nil, "", fmt.Errorf("%w: %q: %s", ErrOrigin, weburl.Redact(origin), ps[0].message)
	}
	ou, _ := url.Parse(o)
	return ou, o, nil
}

// finish generates the files to publish.
func (s *scan) finish(d *Discovery) error {
	s.report.Outcome = d.Outcome
	s.report.ProfileURL = d.ProfileURL
	var err error
	switch {
	case d.Action != nil:
		d.JSON = d.Action.Bytes()
		if s.opts.TextVersion != textVersion11 {
			d.Text, err = d.Action.PublicationText(d.ProfileURL)
		} else {
			d.Text, err = d.Action.Text(d.ProfileURL)
		}
	case d.Site != nil:
		d.JSON, err = d.Site.JSON()
		if err == nil {
			if s.opts.TextVersion != textVersion11 {
				d.Text, err = d.Site.PublicationText(d.ProfileURL)
			} else {
				d.Text, err = d.Site.Text(d.ProfileURL)
			}
		}
	default:
		return ErrNothingRetrieved
	}
	return err
}
