package readiness

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"
)

// skippedExt are extensions of routes that are not pages.
var skippedExt = map[string]bool{
	".xml": true, ".txt": true, ".json": true, ".pdf": true, ".jpg": true, ".jpeg": true, ".png": true,
	".gif": true, ".svg": true, ".webp": true, ".ico": true, ".css": true, ".js": true, ".zip": true,
	".gz": true, ".mp3": true, ".mp4": true, ".md": true,
}

// extraPages reads the further pages, once per scan.
func (s *scan) extraPages() []*pageRead { return readOnce(s, "extra-pages", s.readExtraPages) }

// readExtraPages reads at most MaxPages further same-origin routes, chosen
// from the sitemap, then from the page's own links (the check catalogue,
// "Scope and budget"), concurrently.
func (s *scan) readExtraPages() []*pageRead {
	if s.maxPages <= 0 {
		return nil
	}
	seen := map[string]bool{s.page.String(): true}
	var picks []string
	consider := func(u *url.URL) {
		if len(picks) >= s.maxPages || u == nil || !s.sameOrigin(u) {
			return
		}
		c := *u
		// Same origin: spell it as the page does, so that one route
		// written two ways is read once.
		c.Scheme, c.Host = s.page.Scheme, s.page.Host
		c.Fragment, c.RawFragment = "", ""
		if c.Path == "" {
			c.Path = "/"
		}
		if skippedExt[strings.ToLower(path.Ext(c.Path))] {
			return
		}
		k := c.String()
		if seen[k] {
			return
		}
		seen[k] = true
		picks = append(picks, k)
	}
	if sm := s.sitemapRead(); sm != nil {
		// A sitemap may list 50,000 locations: stop once enough are chosen.
		for _, l := range sm.pageLocs() {
			if len(picks) >= s.maxPages {
				break
			}
			if u, err := url.Parse(l); err == nil {
				consider(u)
			}
		}
	}
	// The page is waited for only when the sitemap did not give enough
	// routes: the choice stays on the critical path's first round.
	if len(picks) < s.maxPages {
		if p := s.pageRead(); p.readable() {
			for _, u := range p.anchors {
				consider(u)
			}
		}
	}
	out := make([]*pageRead, len(picks))
	var wg sync.WaitGroup
	for i, u := range picks {
		wg.Go(func() { out[i] = s.readPage(u) })
	}
	wg.Wait()
	return out
}

// pagesRead returns the given page and the further pages read as HTML.
// Further pages that could not be read are returned apart, for notes.
func (s *scan) pagesRead() (read []*pageRead, skipped []*pageRead) {
	read = []*pageRead{s.pageRead()}
	for _, p := range s.extraPages() {
		if p.readable() {
			read = append(read, p)
		} else {
			skipped = append(skipped, p)
		}
	}
	return read, skipped
}

// overPages judges every page the scan read as HTML and combines the verdicts:
// all the same gives that verdict, a mix gives partial (the receipt names each
// page). The given page decides alone whether there is anything to judge:
// unanswered is unverified, and a page that is not HTML fails. Further pages
// that could not be read are left out of the scope and named in the notes (the
// agent-readiness scoring method, Section 07, "findings state their scope").
func (s *scan) overPages(judge func(p *pageRead) (Verdict, string)) outcome {
	pages, skipped := s.pagesRead()
	main := pages[0]
	out := outcome{}
	if !main.f.answered() {
		out.verdict, out.received, out.requests = VerdictUnverified, main.f.why(), []*fetched{main.f}
		return out
	}
	if !main.readable() {
		mt, _ := main.f.mediaType()
		out.verdict, out.requests = VerdictFail, []*fetched{main.f}
		out.received = fmt.Sprintf("the page answered %d %s, not an HTML page", main.f.status(), mt)
		return out
	}
	var verdicts []Verdict
	var details []string
	for _, p := range pages {
		v, d := judge(p)
		verdicts = append(verdicts, v)
		details = append(details, d)
		out.requests = append(out.requests, p.f)
		out.scope = append(out.scope, p.url)
	}
	for _, p := range skipped {
		reason := p.f.why()
		if p.f.answered() {
			mt, _ := p.f.mediaType()
			reason = fmt.Sprintf("answered %d %s", p.f.status(), mt)
		}
		out.notes = append(out.notes, "route "+p.url+" not read: "+reason)
	}
	out.verdict = verdicts[0]
	for _, v := range verdicts[1:] {
		if v != out.verdict {
			out.verdict = VerdictPartial
		}
	}
	if len(pages) == 1 {
		out.received = details[0]
		out.notes = append(out.notes, "read from one page")
		return out
	}
	parts := make([]string, len(pages))
	for i, p := range pages {
		parts[i] = fmt.Sprintf("%s: %s (%s)", p.url, details[i], verdicts[i])
	}
	out.received = strings.Join(parts, "; ")
	return out
}
