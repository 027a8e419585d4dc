package readiness

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/webread"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of the document_contracts observation.
const (
	// maxContractEndpoints bounds the endpoints compared with robots.txt.
	maxContractEndpoints = 50
	// maxContractLinks bounds the Link header targets of the page fetched.
	maxContractLinks = 5
)

// userAccessUA is the User-Agent of an AI user-access agent (OpenAI's
// ChatGPT-User, as its operator documents it), sent once to compare the
// page's answer with the one the scanner got.
const userAccessUA = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"

// contractEndpoint is a URL that one of the site's documents names.
type contractEndpoint struct{ doc, url string }

// contractEndpoints are the same-site URLs that llms.txt, the card and the API
// catalog name, at most maxContractEndpoints. Each comes with the document that
// names it. They are read from the documents the checks fetched.
func (s *scan) contractEndpoints() []contractEndpoint {
	var out []contractEndpoint
	seen := map[string]bool{}
	add := func(doc, base, ref string) {
		if len(out) == maxContractEndpoints {
			return
		}
		if u := s.obsSameSite(base, ref); u != "" && !seen[doc+" "+u] {
			seen[doc+" "+u] = true
			out = append(out, contractEndpoint{doc, u})
		}
	}
	if f := s.llmsRead(); isDocument(f) && !llmsIsHTML(f.body()) {
		for _, ref := range llmsTargets(f.body(), maxContractEndpoints) {
			add("llms.txt", f.finalURL(), ref)
		}
	}
	for _, cp := range []*cardCopy{s.cardsRead().wellKnown, s.cardsRead().root} {
		if cp == nil || cp.card == nil {
			continue
		}
		for _, in := range cp.card.Interfaces {
			add("the card ("+cp.f.url+")", cp.f.url, in.URL)
		}
		break
	}
	if f := s.get(s.resolve("/.well-known/api-catalog"), ""); f.ok() && !looksLikeHTML(f.body()) {
		if d, err := linkset.Parse(f.body()); err == nil && d != nil {
			for i := range d.Contexts {
				for _, rel := range apiCatalogRels {
					for _, l := range d.Contexts[i].Relation(rel) {
						add("the API catalog", f.url, l.Href)
					}
				}
			}
		}
	}
	return out
}

// robotsContracts finds the endpoints the site's documents name that its
// robots.txt disallows for the AI search or user-access crawlers. A
// disallow aimed at training crawlers only is no finding: the method says
// opting out of training costs nothing (Section 07, "three kinds of crawler").
func (s *scan) robotsContracts(eps []contractEndpoint) []string {
	r := s.robotsRead()
	if r.rules.Availability() != webread.AvailabilityParsed {
		return nil
	}
	var out []string
	for _, e := range eps {
		u, err := url.Parse(e.url)
		if err != nil {
			continue
		}
		pq := cmp.Or(u.EscapedPath(), "/")
		if u.RawQuery != "" {
			pq += "?" + u.RawQuery
		}
		var blocked []string
		for i, c := range crawlers {
			if (c.Class == webread.CrawlerSearch || c.Class == webread.CrawlerUser) && !r.allowed(i, pq) {
				blocked = append(blocked, c.Token)
			}
		}
		if len(blocked) > 0 {
			out = append(out, fmt.Sprintf("%s names %s, which robots.txt disallows for %s (AI search or user-access crawlers): an agent sent there by %s is refused by the site's own rules. Fix: allow the path for those crawlers in robots.txt, or stop naming it in %s",
				e.doc, e.url, strings.Join(blocked, ", "), e.doc, e.doc))
		}
	}
	return out
}

// looksLikeChallenge reports whether a body is a bot challenge page rather
// than the page's content.
func looksLikeChallenge(body []byte) bool {
	b := strings.ToLower(string(body[:min(len(body), 64<<10)]))
	for _, m := range []string{"challenge-platform", "cf-chl", "just a moment...", "captcha", "attention required", "verify you are human"} {
		if strings.Contains(b, m) {
			return true
		}
	}
	return false
}

// userAgentContract fetches the page once more as an AI user-access agent,
// never from the scan's memo and charged to the budget. It says how its answer
// differs from the scanner's own: the status, or a challenge page.
func (s *scan) userAgentContract() (*fetched, string) {
	p := s.pageRead()
	if p == nil || !p.f.answered() {
		return nil, ""
	}
	u := p.f.finalURL()
	f := &fetched{method: http.MethodGet, url: u, accept: acceptHTML}
	release, err := s.acquire("document_contracts user-agent")
	if err != nil {
		f.err = err
		return f, ""
	}
	f.resp, f.err = s.client.Do(s.ctx, &safefetch.Request{Method: http.MethodGet, URL: u,
		Header: http.Header{"Accept": {acceptHTML}, "User-Agent": {userAccessUA}}, MaxBodyBytes: obsMaxBody})
	release()
	ev := Event{Kind: EventKindFetchDone, Method: f.method, URL: u, Err: f.err}
	if f.resp != nil {
		ev.Status = f.resp.StatusCode
	}
	s.emit(ev)
	switch {
	case f.err != nil || f.resp == nil:
		return f, ""
	case f.status() != p.f.status():
		return f, fmt.Sprintf("the page answers an AI user-access agent (ChatGPT-User) %d and the scanner %d: robots.txt may allow the agent, but the server (a WAF, a CDN rule) turns it away. Fix: let the AI search and user-access crawlers through the firewall, as robots.txt does", f.status(), p.f.status())
	case looksLikeChallenge(f.body()) && !looksLikeChallenge(p.f.body()):
		return f, "the page answers an AI user-access agent (ChatGPT-User) with a challenge page, and the scanner with the page: an agent acting for a person cannot pass it. Fix: exempt the AI search and user-access crawlers from the bot challenge"
	}
	return f, ""
}

// mcpContracts compares what the MCP server cards declare (protocol
// versions, tools) with what the live server answered.
func (s *scan) mcpContracts() []string {
	m := s.mcpRead()
	if m == nil || m.probe == nil || m.probe.r == nil {
		return nil
	}
	live := m.probe.r
	var out []string
	for _, c := range s.serverCards() {
		if !c.found {
			continue
		}
		var declared []string
		if v := str(c.value["protocolVersion"]); v != "" {
			declared = append(declared, v)
		}
		if vs, ok := c.value["protocolVersions"].([]any); ok {
			for _, v := range vs[:min(len(vs), 20)] {
				declared = append(declared, str(v))
			}
		}
		if got := cmp.Or(live.Protocol.Negotiated, live.Protocol.Returned); got != "" && len(declared) > 0 && !slices.Contains(declared, got) {
			out = append(out, fmt.Sprintf("the MCP server card %s declares protocol version %s, and the live server %s answered %s. Fix: state in the server card the versions the server speaks",
				c.f.url, shorten.Runes(clean(strings.Join(declared, ", ")), 80), m.endpoint, got))
		}
		if tools, ok := c.value["tools"].([]any); ok && live.Tools.ListedWithoutToken > 0 && len(tools) != live.Tools.ListedWithoutToken && !live.Tools.PagesCapped {
			out = append(out, fmt.Sprintf("the MCP server card %s lists %s, and the live server %s lists %d without a token. Fix: list in the server card the tools the server offers",
				c.f.url, plural.N(len(tools), "tool", "tools"), m.endpoint, live.Tools.ListedWithoutToken))
		}
	}
	return out
}

// linkContracts fetches the same-site targets of the page's Link header field,
// at most maxContractLinks. The memo answers what the checks read. It adds the
// llms.txt links of eps that the llms_txt_links observation checks, from the
// memo. It names those that answer neither 2xx nor a refusal, nor 402 Payment
// Required, which the x402 observation reads.
func (s *scan) linkContracts(eps []contractEndpoint) ([]*fetched, []string) {
	p := s.pageRead()
	var fs []*fetched
	var out []string
	if p != nil {
		n := 0
		for _, l := range p.headerLinks {
			u := s.obsSameSite(p.url, l.Target)
			if u == "" || n == maxContractLinks {
				continue
			}
			n++
			// The link's type is the Accept, so that a negotiated
			// alternate is asked for as the link announces it.
			accept := ""
			if l.Type == acceptMarkdown {
				accept = acceptMarkdown
			}
			f := s.obsGet(s.obsAt(u, accept), accept)
			fs = append(fs, f)
			if f.answered() && !f.ok() && f.status() != http.StatusPaymentRequired {
				out = append(out, fmt.Sprintf("the page's Link header names %s (rel %s), which answered %d. Fix: serve it, or drop the link", u, shorten.Runes(clean(strings.Join(l.Rel, " ")), 40), f.status()))
			}
		}
	}
	// The llms.txt links the llms_txt_links observation fetches, with its
	// Accept: the memo answers them.
	// An MCP endpoint answers a GET as it likes (405, 400): not a broken
	// link.
	mcpEndpoint := ""
	if m := s.mcpRead(); m != nil {
		mcpEndpoint = m.endpoint
	}
	n := 0
	for _, e := range eps {
		if e.doc != "llms.txt" || n == maxLLMsLinksChecked {
			continue
		}
		if e.url == mcpEndpoint {
			n++ // the llms_txt_links observation fetched it: counted alike
			continue
		}
		n++
		f := s.getLLMsLink(e.url)
		fs = append(fs, f)
		if f.answered() && !f.ok() && f.status() != http.StatusPaymentRequired {
			out = append(out, fmt.Sprintf("llms.txt names %s, which answered %d. Fix: serve it, or drop the link from llms.txt", e.url, f.status()))
		}
	}
	return fs, out
}

func observeDocumentContracts(s *scan) obsOutcome {
	out := obsOutcome{expected: "the site's documents agree with each other: no endpoint named by llms.txt, the card or the API catalog disallowed by robots.txt for the AI search or user-access crawlers (a training-only disallow costs nothing); the page answered alike to an AI user-access agent and to the scanner; MCP server cards that state the live server's versions and tools; Link header targets that answer 2xx"}
	var findings []string
	r := s.robotsRead()
	out.requests = append(out.requests, r.f, s.llmsRead())
	eps := s.contractEndpoints()
	findings = append(findings, s.robotsContracts(eps)...)
	uaF, ua := s.userAgentContract()
	if uaF != nil {
		out.requests = append(out.requests, uaF)
		if !uaF.answered() && uaF.status() == 0 {
			out.notes = append(out.notes, "the page as an AI user-access agent: "+uaF.why())
		}
	}
	if ua != "" {
		findings = append(findings, ua)
	}
	findings = append(findings, s.mcpContracts()...)
	linkFs, links := s.linkContracts(eps)
	out.requests = append(out.requests, linkFs...)
	findings = append(findings, links...)
	// Every finding is counted; the receipt's notes keep the first
	// maxProblemNotes and say how many more there were.
	out.notes = append(findings, out.notes...)
	switch {
	case len(findings) == 0 && uaF != nil && (uaF.err != nil || uaF.resp == nil):
		out.status = ObservationUnverified
		out.received = "no disagreement in what was read, but the page as an AI user-access agent went unanswered: " + uaF.why()
		out.meaning = "Unknown: the request went unanswered."
	case len(findings) > 0:
		out.status = ObservationFound
		out.received = fmt.Sprintf("%s between the site's documents (in the notes, each with its fix); %s compared with robots.txt", plural.N(len(findings), "disagreement", "disagreements"), plural.N(len(eps), "endpoint", "endpoints"))
		out.meaning = "Published documents disagree: an agent that follows one of them is refused or misled by another."
	default:
		out.status = ObservationAbsent
		out.received = fmt.Sprintf("the documents agree: %s compared with robots.txt, the page answered alike to an AI user-access agent", plural.N(len(eps), "endpoint", "endpoints"))
		out.meaning = "No disagreement found: what one document promises, the others allow."
	}
	return out
}
