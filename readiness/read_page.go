package readiness

import (
	"bytes"
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agentweb/agentweb/internal/htmlhead"
	"github.com/agentweb/agentweb/internal/linkheader"
	"github.com/agentweb/agentweb/internal/webread"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on what is kept from one page.
const (
	maxJSONLDBlocks = 64
	maxAnchors      = 256
)

// pageRead is one page read as HTML (without running scripts) and what the
// checks read from it.
type pageRead struct {
	url         string
	f           *fetched
	html        bool // a 2xx HTML answer
	head        *htmlhead.Head
	headerLinks []linkheader.Link // read as RFC 8288 Appendix B reads them
	linkErr     error             // the links passed linkheader.MaxLinks
	linkGrammar error             // where the fields stray from RFC 8288 Section 3
	text        int               // visible characters, whitespace collapsed
	headings    int               // h1–h6 with text
	scripts     int               // scripts that run: external or non-empty inline, data blocks excluded
	ld          webread.JSONLD    // its JSON-LD blocks, parsed once for every check
	anchors     []*url.URL

	// base is the document's base URL: its <base href> when absolute, else
	// its URL after redirects. Anchors and script sources resolve against it.
	base *url.URL
	// What the Act checks read, from the same parse: the forms, the text
	// of the inline scripts and the URLs of the external ones.
	forms  []pageForm
	inline []string
	srcs   []string
}

// readable reports whether the page was read as HTML.
func (p *pageRead) readable() bool { return p != nil && p.html }

func isHTMLMedia(mt string, body []byte) bool {
	switch mt {
	case "text/html", "application/xhtml+xml":
		return true
	case "":
		return looksLikeHTML(body)
	}
	return false
}

// looksLikeHTML reports whether a body starts like an HTML document.
func looksLikeHTML(b []byte) bool {
	b = bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(b) > 64 {
		b = b[:64]
	}
	l := bytes.ToLower(b)
	return bytes.HasPrefix(l, []byte("<!doctype html")) || bytes.HasPrefix(l, []byte("<html")) || bytes.HasPrefix(l, []byte("<head"))
}

// pageRead reads the given page, once per scan.
func (s *scan) pageRead() *pageRead {
	return readOnce(s, "page", func() *pageRead { return s.readPage(s.page.String()) })
}

// readPage fetches u as HTML and reads it.
func (s *scan) readPage(u string) *pageRead {
	p := &pageRead{url: u, f: s.get(u, acceptHTML)}
	p.parse()
	return p
}

// parse reads a 2xx HTML answer: its Link header, its head, and one parse
// of its document, without running scripts, for everything else.
func (p *pageRead) parse() {
	if !p.f.ok() {
		return
	}
	mt, _ := p.f.mediaType()
	body := p.f.body()
	if !isHTMLMedia(mt, body) {
		return
	}
	p.html = true
	base, err := documentURL(p.url, p.f.finalURL())
	if err != nil {
		return
	}
	p.headerLinks, p.linkErr = linkheader.Parse(p.f.resp.Header.Values("Link"), base)
	if _, err := linkheader.ParseStrict(p.f.resp.Header.Values("Link"), base); errors.Is(err, linkheader.ErrMalformed) {
		p.linkGrammar = err
	}
	// A head parser error (a token over its cap) still leaves what was read
	// before it.
	p.head, _ = htmlhead.Parse(bytes.NewReader(body), base)
	if p.head == nil {
		p.head = &htmlhead.Head{}
	}
	if p.head.Base != "" {
		if b, err := url.Parse(p.head.Base); err == nil && b.IsAbs() {
			base = b
		}
	}
	p.base = base
	doc, err := html.ParseWithOptions(bytes.NewReader(body), html.ParseOptionEnableScripting(true))
	if err != nil {
		return
	}
	p.walk(doc)
	p.forms, p.inline, p.srcs = readDocTools(p.url, base, doc)
}

// documentURL is the URL of a document read from u: final, the URL after
// redirects, when it is absolute, else u.
func documentURL(u, final string) (*url.URL, error) {
	base, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	if fu, err := url.Parse(final); err == nil && fu.IsAbs() {
		base = fu
	}
	return base, nil
}

// walk gathers visible text, headings, scripts, JSON-LD and links
// without recursion (the tree comes from a capped body, but its depth is the
// publisher's).
func (p *pageRead) walk(doc *html.Node) {
	type item struct {
		n      *html.Node
		hidden bool
	}
	var sb strings.Builder
	var blocks []string
	stack := []item{{doc, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		hidden := it.hidden
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script:
				if isScriptType(n) && (hasAttr(n, "src") || strings.TrimSpace(textOf(n)) != "") {
					// Only a script that runs could build the page; a
					// data block (JSON-LD, a template) never runs.
					p.scripts++
				}
				if isJSONLD(attr(n, "type")) && len(blocks) < maxJSONLDBlocks {
					var t strings.Builder
					for c := n.FirstChild; c != nil; c = c.NextSibling {
						if c.Type == html.TextNode {
							t.WriteString(c.Data)
						}
					}
					blocks = append(blocks, t.String())
				}
				continue
			case atom.Style, atom.Template, atom.Noscript, atom.Iframe, atom.Object:
				continue
			case atom.Head:
				// Not visible, but its scripts hold JSON-LD.
				hidden = true
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				if !hidden && strings.TrimSpace(textOf(n)) != "" {
					p.headings++
				}
			case atom.A:
				if href, ok := attrOK(n, "href"); ok && len(p.anchors) < maxAnchors {
					if u, err := p.base.Parse(strings.TrimSpace(href)); err == nil {
						u.Fragment, u.RawFragment = "", ""
						p.anchors = append(p.anchors, u)
					}
				}
			}
			if _, ok := attrOK(n, "hidden"); ok {
				hidden = true
			}
		}
		if n.Type == html.TextNode && !hidden {
			sb.WriteString(n.Data)
			sb.WriteByte(' ')
		}
		// Push children in reverse so text keeps document order.
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			stack = append(stack, item{c, hidden})
		}
	}
	p.text = utf8.RuneCountInString(strings.Join(strings.Fields(sb.String()), " "))
	p.ld = webread.ReadJSONLD(blocks)
}

func isJSONLD(t string) bool {
	mt, _, _ := strings.Cut(t, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/ld+json")
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
		if b.Len() > 256 {
			break
		}
	}
	return b.String()
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func hasAttr(n *html.Node, key string) bool {
	_, ok := attrOK(n, key)
	return ok
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}
