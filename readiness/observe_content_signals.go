package readiness

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
	"github.com/go-jose/go-jose/v4"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
)

// headerSignals is what one response said in its Content-Signal and
// Content-Usage header fields.
type headerSignals struct {
	f     *fetched
	lines []webread.PreferenceLine
}

// pageSignals reads the Content-Signal and Content-Usage response header
// fields of the responses the scan already has for the site's pages (the
// page, its Markdown form, the further routes): no request of its own.
func (s *scan) pageSignals() []headerSignals {
	var fs []*fetched
	if p := s.pageObs(); p != nil {
		fs = append(fs, p.f)
	}
	fs = append(fs, s.markdownObs())
	for _, p := range s.extraPages() {
		fs = append(fs, p.f)
	}
	var out []headerSignals
	for _, f := range fs {
		if !f.ok() {
			continue
		}
		h := headerSignals{f: f}
		if v := f.resp.Header.Values(webread.ContentSignalName); len(v) > 0 {
			h.lines = append(h.lines, webread.ParseContentSignal(strings.Join(v, ", ")))
		}
		if v := f.resp.Header.Values(webread.ContentUsageName); len(v) > 0 {
			l := webread.ParseContentUsage(strings.Join(v, ", "))
			if l.Path != "" {
				l.Problems = append(l.Problems, "a path in a header field: the header applies to its own response")
			}
			h.lines = append(h.lines, l)
		}
		if len(h.lines) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// prefLine formats one preference line's values, keys sorted.
func prefLine(l webread.PreferenceLine) string {
	keys := make([]string, 0, len(l.Values))
	for k := range l.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var kv []string
	for _, k := range keys {
		kv = append(kv, k+"="+l.Values[k])
	}
	line := l.Name + ": "
	if l.Path != "" {
		line += l.Path + " "
	}
	return line + strings.Join(kv, ", ")
}

// signalsPrecedence is what the receipt says when robots.txt and a header
// state the same signal differently. Content Signals defines the
// robots.txt line only; draft-ietf-aipref-attach defines both the
// robots.txt rule and the header field and does not say which wins when
// they disagree. The scanner reads the stricter one ("no", "n") as the
// site's preference: it is the reading that cannot use content against the
// publisher's wish.
const signalsPrecedence = "the texts are silent on which wins (Content Signals defines the robots.txt line only; draft-ietf-aipref-attach defines both and orders neither): this reader takes the stricter"

func observeContentSignals(s *scan) obsOutcome {
	r := s.robotsObs()
	f := r.f
	found := isDocument(f)
	var problems, notes, groups []string
	// robotsAll are the preferences of the group for every crawler, by line
	// name then key, for the comparison with the headers.
	robotsAll := map[string]map[string]string{}
	if found {
		p := webread.ReadPreferences(f.body())
		if p.Truncated {
			notes = append(notes, "robots.txt or its preference lines were longer than this reader keeps: the rest was not read")
		}
		for _, g := range p.Groups {
			agents := strings.Join(g.UserAgents, ", ")
			if agents == "" {
				agents = "(no user-agent group)"
				problems = append(problems, "a preference line before any User-agent line applies to no crawler")
			}
			var parts []string
			for _, l := range g.Lines {
				parts = append(parts, prefLine(l))
				for _, pr := range l.Problems {
					problems = append(problems, fmt.Sprintf("robots.txt line %d (%s): %s", l.Line, l.Name, clean(pr)))
				}
				if slices.Contains(g.UserAgents, "*") && l.Path == "" {
					if robotsAll[l.Name] == nil {
						robotsAll[l.Name] = map[string]string{}
					}
					maps.Copy(robotsAll[l.Name], l.Values)
				}
			}
			groups = append(groups, truncate(clean("robots.txt: User-agent "+agents+" — "+strings.Join(parts, "; ")), 300))
		}
		found = len(p.Groups) > 0
		notes = append(notes, lighthouseRobotsNotes(f.body(), "content-usage")...)
	}
	headers := s.pageSignals()
	requests := []*fetched{f}
	for _, h := range headers {
		requests = append(requests, h.f)
		var parts []string
		for _, l := range h.lines {
			parts = append(parts, prefLine(l))
			for _, pr := range l.Problems {
				problems = append(problems, fmt.Sprintf("the %s header of %s: %s", l.Name, h.f.url, clean(pr)))
			}
			for k, hv := range l.Values {
				rv, ok := robotsAll[l.Name][k]
				if !ok || rv == hv {
					continue
				}
				stricter := "no"
				if l.Name == webread.ContentUsageName {
					stricter = "n"
				}
				notes = append(notes, fmt.Sprintf("%s %s: robots.txt (User-agent *) says %s, the header of %s says %s; %s, %s",
					l.Name, clean(k), rv, h.f.url, hv, signalsPrecedence, stricter))
			}
		}
		if len(groups) < 8 {
			groups = append(groups, truncate(clean("header of "+h.f.url+" — "+strings.Join(parts, "; ")), 300))
		}
	}
	if len(headers) > 0 {
		found = true
		if !isDocument(f) {
			// What the headers say stands without robots.txt.
			f = headers[0].f
		}
	}
	out := docOutcome(f, found, strings.Join(groups, " | "), problems, notes)
	out.requests = requests
	if out.status == ObservationAbsent && r.f.ok() {
		out.received = "absent: robots.txt has no Content-Signal or Content-Usage line, and no page read answered with either header"
	}
	out.expected = "Content-Signal lines (search, ai-input, ai-train = yes/no) or IETF aipref Content-Usage lines (y/n), read per user-agent group of /robots.txt, and the same fields as response headers of the pages the scan read; where both state a signal differently, the stricter is read"
	out.meaning = meaning(out.status, "crawlers and agents that honour them know which uses of the content the site allows", "the site states no preference on search, AI input or AI training beyond its crawl rules")
	return out
}

// webBotAuthMedia is the media type of a key directory.
const webBotAuthMedia = "application/http-message-signatures-directory+json"

// jwkPrivateMembers are the members of a private JWK (RFC 7518 Section 6.2.2,
// Section 6.3.2; RFC 8037 Section 2): a key directory publishes public keys only.
var jwkPrivateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// maxDirectoryKeys bounds the keys read from a directory.
const maxDirectoryKeys = 100

func observeWebBotAuth(s *scan) obsOutcome {
	f := s.obsGet(s.obsResolve("/.well-known/http-message-signatures-directory"), webBotAuthMedia)
	m, found, problems := jsonObject(f)
	var notes []string
	what := "a key directory"
	var keys []jose.JSONWebKey
	if m != nil {
		if mt, _ := f.mediaType(); mt != webBotAuthMedia {
			notes = append(notes, fmt.Sprintf("served as %q, not %s", mt, webBotAuthMedia))
		}
		set := any(m)
		_, isSet := m["keys"]
		_, hasJWKS := m["jwks"]
		_, hasURI := m["jwks_uri"]
		if !isSet && (hasJWKS || hasURI || m["client_id"] != nil) {
			// A Signature Agent Card at the directory's place: validated as
			// cloudflare/web-bot-auth reads one, its keys from jwks.
			what = "a Signature Agent Card"
			problems = append(problems, signatureAgentCardProblems(m, first(f.resp.FinalURL, f.url))...)
			set = m["jwks"]
			if hasURI {
				notes = append(notes, "the card names its keys by jwks_uri: not fetched")
			}
		}
		if set != nil {
			sm, _ := set.(map[string]any)
			list, ok := sm["keys"].([]any)
			switch {
			case !ok && isSet:
				problems = append(problems, `/keys: not an array (a JWK Set, RFC 7517 §5)`)
			case ok:
				valid := 0
				if len(list) > maxDirectoryKeys {
					notes = append(notes, fmt.Sprintf("read the first %d of %d keys", maxDirectoryKeys, len(list)))
					list = list[:maxDirectoryKeys]
				}
				for i, k := range list {
					if why := jwkProblem(k); why != "" {
						problems = append(problems, fmt.Sprintf("/keys/%d: %s", i, why))
						continue
					}
					valid++
				}
				what += fmt.Sprintf(" with a JWK Set of %s, %d valid", plural.N(len(list), "key", "keys"), valid)
				if len(list) == 0 {
					problems = append(problems, "/keys: empty: no key to verify a signature with")
				}
				keys = jwksKeys(sm)
			}
		}
		notes, problems = directorySignatures(f, keys, notes, problems)
	}
	out := docOutcome(f, found, what, problems, notes)
	out.expected = "a JWK Set (" + webBotAuthMedia + ") of public keys at /.well-known/http-message-signatures-directory (or a Signature Agent Card with jwks xor jwks_uri), its response signed by its own keys (RFC 9421, tag " + tagDirectory + ", keyid the key's RFC 7638 thumbprint)"
	out.meaning = meaning(out.status, "the site's own bots sign their requests, and servers can verify them with these keys", "the site publishes no keys for signed bot requests (nothing is lost unless it runs bots)")
	return out
}

// maxDirectorySignatures bounds the signatures of a directory response
// verified.
const maxDirectorySignatures = 5

// directorySignatures verifies the signatures of a directory response
// (HTTP Message Signatures Directory: the directory is signed by its own
// keys, tag "http-message-signatures-directory", covering the request's
// "@authority"): a note for each that verifies, a problem for each that
// does not.
func directorySignatures(f *fetched, keys []jose.JSONWebKey, notes, problems []string) ([]string, []string) {
	input, signature := strings.Join(f.resp.Header.Values("Signature-Input"), ", "), strings.Join(f.resp.Header.Values("Signature"), ", ")
	if signature == "" || input == "" {
		return append(notes, "the response carries no Signature and Signature-Input (the directory draft has the directory signed by its own keys)"), problems
	}
	d, err := httpsfv.UnmarshalDictionary([]string{input})
	if err != nil {
		return notes, append(problems, "Signature-Input: not an RFC 9651 dictionary")
	}
	u, _ := url.Parse(f.url)
	for i, label := range d.Names() {
		if i == maxDirectorySignatures {
			notes = append(notes, fmt.Sprintf("verified the first %d signatures", maxDirectorySignatures))
			break
		}
		keyid, err := verifyHTTPSig(httpSig{label: label, input: input, signature: signature, authority: u.Host, tag: tagDirectory}, keys, time.Now())
		if err != nil {
			problems = append(problems, fmt.Sprintf("the response's signature %s: %s", clip60(label), clean(err.Error())))
			continue
		}
		notes = append(notes, fmt.Sprintf("the response's signature %s verifies with the directory's key %s", clip60(label), keyid))
	}
	return notes, problems
}

// jwkProblem validates one member of a JWK Set as a public key (RFC 7517
// Section 4, RFC 7518 Section 6, RFC 8037 Section 2), with go-jose's reader: "" when it is one.
func jwkProblem(v any) string {
	o, ok := v.(map[string]any)
	if !ok {
		return "not an object"
	}
	if str(o["kty"]) == "" {
		return `no "kty"`
	}
	for _, m := range jwkPrivateMembers {
		if _, ok := o[m]; ok {
			return fmt.Sprintf("a private or symmetric key member %q is published", m)
		}
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return "not a key"
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(raw); err != nil {
		return "not a valid " + truncate(clean(str(o["kty"])), 20) + " key: " + truncate(clean(err.Error()), 120)
	}
	if !k.Valid() || !k.IsPublic() {
		return "not a valid public key"
	}
	return ""
}

// x402Requirements validates a 402 answer's payment requirements (x402
// protocol specification): version 2 carries them base64-encoded in the
// PAYMENT-REQUIRED header, version 1 as the JSON body; either is an object
// with x402Version and a non-empty accepts array whose entries name a
// scheme, a network, a payTo address and an amount (maxAmountRequired in
// version 1, amount in version 2). It returns a description and the
// problems.
func x402Requirements(f *fetched) (string, []string) {
	var doc []byte
	where := "body"
	if h := f.resp.Header.Get("Payment-Required"); h != "" {
		where = "PAYMENT-REQUIRED header"
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(h))
		if err != nil {
			if b, err = base64.URLEncoding.DecodeString(strings.TrimSpace(h)); err != nil {
				return "", []string{"the PAYMENT-REQUIRED header is not base64"}
			}
		}
		doc = b
	} else {
		doc = f.body()
	}
	v, err := strictjson.Decode(doc)
	if err != nil {
		return "", []string{"the " + where + " is not JSON payment requirements"}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", []string{"the " + where + " is not a JSON object"}
	}
	var problems []string
	ver := fmt.Sprint(m["x402Version"])
	if ver != "1" && ver != "2" {
		problems = append(problems, "/x402Version: not 1 or 2")
	}
	amount := "maxAmountRequired"
	if ver == "2" {
		amount = "amount"
	}
	accepts, _ := m["accepts"].([]any)
	if len(accepts) == 0 {
		problems = append(problems, "/accepts: no payment option")
	}
	var schemes []string
	for i, a := range accepts[:min(len(accepts), 20)] {
		o, ok := a.(map[string]any)
		if !ok {
			problems = append(problems, fmt.Sprintf("/accepts/%d: not an object", i))
			continue
		}
		for _, k := range []string{"scheme", "network", "payTo", amount} {
			if str(o[k]) == "" {
				problems = append(problems, fmt.Sprintf("/accepts/%d/%s: missing", i, k))
			}
		}
		schemes = append(schemes, truncate(clean(str(o["scheme"])+" on "+str(o["network"])), 60))
	}
	return fmt.Sprintf("x402 version %s payment requirements in the %s (%s)", ver, where, strings.Join(schemes, ", ")), problems
}

func observeX402(s *scan) obsOutcome {
	paid := s.paid
	out := obsOutcome{
		expected: "a 402 Payment Required answer carrying x402 payment requirements, among the answers the scan received",
		requests: paid,
	}
	if len(paid) == 0 {
		out.status, out.received = ObservationAbsent, "absent: no request of the scan was answered 402 Payment Required"
		out.meaning = meaning(out.status, "", "nothing the scan read asks for payment")
		return out
	}
	var found []string
	for _, f := range paid[:min(len(paid), 5)] {
		what, problems := x402Requirements(f)
		if len(problems) > 0 {
			for _, p := range problems {
				out.notes = append(out.notes, f.url+": "+p)
			}
			continue
		}
		found = append(found, f.url+": "+what)
	}
	switch {
	case len(found) > 0:
		out.status, out.received = ObservationFound, "found: "+strings.Join(found, "; ")
	default:
		out.status, out.received = ObservationInvalid, plural.N(len(paid), "answer", "answers")+" 402 Payment Required, none with valid x402 payment requirements"
	}
	out.meaning = meaning(out.status, "an agent with an x402 wallet can pay for what it asked and retry", "")
	return out
}

// maxLLMsLinksChecked bounds the llms.txt links fetched.
const maxLLMsLinksChecked = 5

func observeLLMsLinks(s *scan) obsOutcome {
	f := s.llmsObs()
	out := obsOutcome{expected: fmt.Sprintf("the first %d same-site links of llms.txt answer 200", maxLLMsLinksChecked)}
	if !f.answered() {
		out.status, out.received, out.requests = ObservationUnverified, f.url+": "+f.why(), []*fetched{f}
		out.meaning = meaning(out.status, "", "")
		return out
	}
	if !isDocument(f) || llmsIsHTML(f.body()) {
		out.status, out.received, out.requests = ObservationAbsent, fmt.Sprintf("absent: no llms.txt (%d)", f.status()), []*fetched{f}
		out.meaning = meaning(out.status, "", "there is no llms.txt whose links could be followed")
		return out
	}
	var links []string
	seen := map[string]bool{}
	foreign := 0
	for _, m := range llmsLink.FindAllString(string(f.body()), 1000) {
		open := strings.LastIndex(m, "](")
		ref := strings.TrimSuffix(m[open+2:], ")")
		if i := strings.IndexAny(ref, " \t"); i >= 0 {
			ref = ref[:i] // a title follows the target
		}
		u := s.obsSameSite(first(f.resp.FinalURL, f.url), ref)
		if u == "" {
			foreign++
			continue
		}
		if !seen[u] {
			seen[u] = true
			links = append(links, u)
		}
	}
	out.requests = []*fetched{f}
	if len(links) == 0 {
		out.status, out.received = ObservationAbsent, fmt.Sprintf("absent: llms.txt has no same-site Markdown link (%d to other sites)", foreign)
		out.meaning = meaning(out.status, "", "llms.txt names no page of the site")
		return out
	}
	checked := links[:min(len(links), maxLLMsLinksChecked)]
	results := make([]*fetched, len(checked))
	done := make(chan struct{}, len(checked))
	for i, u := range checked {
		go func() {
			// The Accept of a page read: a link to a route the checks
			// read is answered from the scan's memo, at no cost.
			results[i] = s.obsGet(s.obsAt(u, acceptHTML), acceptHTML)
			done <- struct{}{}
		}()
	}
	for range checked {
		<-done
	}
	okN, unanswered := 0, 0
	for _, r := range results {
		out.requests = append(out.requests, r)
		switch {
		case !r.answered():
			unanswered++
		case r.status() == 200:
			okN++
		default:
			out.notes = append(out.notes, fmt.Sprintf("%s answered %d", r.url, r.status()))
		}
	}
	if len(links) > len(checked) {
		out.notes = append(out.notes, fmt.Sprintf("checked the first %d of %d same-site links", len(checked), len(links)))
	}
	out.received = fmt.Sprintf("%d of %s checked answer 200", okN, plural.N(len(checked), "link", "links"))
	switch {
	case okN == len(checked):
		out.status = ObservationFound
	case unanswered > 0 && okN+unanswered == len(checked):
		out.status = ObservationUnverified
		out.received += fmt.Sprintf(", %d unanswered", unanswered)
	default:
		out.status = ObservationInvalid
	}
	out.meaning = meaning(out.status, "an agent that follows llms.txt reaches the pages it names", "")
	return out
}

// twinURL is the page's Markdown twin: its path with ".md" appended, or
// "index.md" for a directory ("/" and paths ending in "/").
func twinURL(page *url.URL) string {
	u := *page
	u.RawQuery, u.Fragment, u.RawFragment, u.RawPath = "", "", "", ""
	switch {
	case strings.HasSuffix(u.Path, "/"):
		u.Path += "index.md"
	case path.Ext(u.Path) == ".md":
		return ""
	default:
		u.Path += ".md"
	}
	return u.String()
}

func observeMarkdownTwin(s *scan) obsOutcome {
	out := obsOutcome{expected: "Markdown at the page's URL with .md appended (index.md for a directory); never counted as the canonical Markdown form"}
	pu := *s.page
	o := s.obsOrigin()
	pu.Scheme, pu.Host = o.Scheme, o.Host
	u := twinURL(&pu)
	if u == "" {
		out.status, out.received = ObservationAbsent, "the page is itself a .md URL"
		out.meaning = meaning(out.status, "", "")
		return out
	}
	f := s.obsGet(u, "text/markdown")
	found := isDocument(f) && !llmsIsHTML(f.body())
	var problems []string
	what := "Markdown"
	if found {
		mt, _ := f.mediaType()
		what = fmt.Sprintf("Markdown served as %s, %d bytes", first(mt, "no Content-Type"), len(f.body()))
		if mt != "text/markdown" && mt != "text/plain" {
			problems = append(problems, fmt.Sprintf("served as %q, not text/markdown", mt))
		}
		if len(strings.TrimSpace(string(f.body()))) == 0 {
			problems = append(problems, "an empty body")
		}
	}
	out2 := docOutcome(f, found, what, problems, nil)
	out2.expected = out.expected
	out2.meaning = meaning(out2.status, "an agent that appends .md to a URL gets the page as Markdown", "an agent that appends .md to a URL gets no Markdown (negotiation with Accept may still work)")
	return out2
}
