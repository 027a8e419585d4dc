package agentic

import (
	"cmp"
	"net/url"
	"path"
	"strings"

	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/strictjson"
)

func (s *scan) fail(r *fetched) {
	s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: failureReason(r)})
}

// analyse reads one fetched document: what it is, and the links it selects.
func (s *scan) analyse(r *fetched, declared, source, title string) {
	if !r.ok {
		// A conventional path that does not exist is not a failure; a
		// broken link is.
		missing := r.err == nil && (r.rec.StatusCode == 404 || r.rec.StatusCode == 410)
		if !missing || !isConventional(s.originS, declared) {
			s.fail(r)
		}
		return
	}
	docURL := declared
	if r.rec.FinalURL != "" && r.rec.FinalURL != declared && s.sameSite(r.rec.FinalURL) {
		docURL = r.rec.FinalURL
		s.movedTo[declared] = docURL
	}
	du, err := url.Parse(docURL)
	if err != nil {
		return
	}
	if !validResourceURL(docURL) {
		s.report.Linked = append(s.report.Linked, LinkedURL{URL: docURL, Source: source, Reason: "URL breaks the profile's URL rules; left out"})
		return
	}
	// HTTP Link headers (RFC 8288 Section 3) select documents as well:
	// service-desc, service-doc, describedby and the like.
	if vals := r.hdr.Values("Link"); len(vals) > 0 {
		if ls, err := linkheader.Parse(vals, du); err == nil {
			var pl []pageLink
			for _, l := range ls {
				if len(pl) == maxLinksPerDocument {
					break
				}
				if u, ok := resolveHref(du, l.Target); ok {
					pl = append(pl, pageLink{href: u, rel: l.Rel, typ: strings.ToLower(l.Type), text: cleanText(l.Title)})
				}
			}
			s.addLinks(pl, docURL)
		}
	}
	mt := mediaType(r.rec.ContentType)
	isJSON := strings.Contains(mt, "json") || (mt == "" && len(r.body) > 0 && r.body[0] == '{')
	p := du.Path
	switch {
	case isJSON:
		s.analyseJSON(r, docURL, source, p, title)
	case mt == "text/html" || mt == "application/xhtml+xml":
		info := parseHTML(r.body, du)
		kind := KindDocumentation
		if p == "/" || p == "" {
			kind = KindWebsite
			s.home, s.homeOK = info, true
		}
		s.addRetrieved(docURL, source, cmp.Or(info.title, title), kind)
		s.addLinks(info.links, docURL)
	case strings.HasPrefix(mt, "text/plain") || mt == "text/markdown" || mt == "text/x-markdown":
		info := parseMarkdown(r.body, du)
		kind := KindDocumentation
		if path.Base(p) == "llms.txt" || path.Base(p) == "llms-full.txt" {
			kind = KindLLMs
		}
		if p == "/" || p == "" {
			kind = KindWebsite
			s.home, s.homeOK = info, true
		}
		s.addRetrieved(docURL, source, cmp.Or(info.title, title), kind)
		s.addLinks(info.links, docURL)
	default:
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "unsupported media type " + quoteTXT(mt)})
	}
}

func isConventional(origin, u string) bool {
	for _, c := range conventionalPaths {
		if origin+c.path == u {
			return true
		}
	}
	return false
}

func (s *scan) analyseJSON(r *fetched, docURL, source, p, title string) {
	switch {
	case strings.HasSuffix(p, "/.well-known/agent-card.json") || strings.HasSuffix(p, "/agent.json"):
		tree, err := strictjson.Decode(r.body)
		if name, ok := isA2ACard(tree); err == nil && ok {
			s.addRetrieved(docURL, source, cmp.Or(cleanText(name), title), KindA2A)
			return
		}
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "not an A2A agent card (needs a string name and a skills array)"})
	case strings.HasSuffix(p, "/.well-known/agent-configuration"):
		tree, err := strictjson.Decode(r.body)
		if err == nil && isAgentAuthConfig(tree) {
			s.addRetrieved(docURL, source, title, KindAgentAuth)
			return
		}
		s.report.Failures = append(s.report.Failures, Failure{URL: r.rec.URL, Status: r.rec.StatusCode, Reason: "not an Agent Auth configuration (needs a string issuer and an endpoints object)"})
	default:
		doc, err := parseOpenAPI(r.body)
		if err != nil {
			s.report.Bindings = append(s.report.Bindings, BindingCheck{Document: docURL, Status: BindingStatusNotOpenAPI3, Reason: err.Error()})
			return
		}
		s.openapi[docURL] = doc
		s.addRetrieved(docURL, source, cmp.Or(doc.title, title), KindOpenAPI)
	}
}

// validResourceURL applies the profile's URL rules to a URL before it is
// recorded.
func validResourceURL(u string) bool {
	return len(u) <= maxURLLength && len(checkSiteURL(u)) == 0
}

func (s *scan) addRetrieved(u, source, title string, kind Kind) {
	if _, ok := s.retrieved[u]; ok {
		return
	}
	if !validResourceURL(source) {
		source = u
	}
	s.retrieved[u] = &retrievedDoc{url: u, source: source, title: title, kind: kind}
	s.order = append(s.order, u)
}
