package publish

import (
	"bytes"
	stdhtml "html"
	"net/url"
	"strings"

	"github.com/agentweb/agentweb/internal/htmlhead"
	"github.com/agentweb/agentweb/internal/weburl"
	"golang.org/x/net/html"
)

// maxHeadScan bounds how much of a page is read to find its head.
const maxHeadScan = 256 << 10

// decorate returns the page's HTML with what an agent-ready head needs and
// the page lacks, inserted before </head>. First the three <link> elements
// of the method's Section 04: llms.txt as describedby, the card as
// alternate JSON, the page's Markdown as alternate text/markdown. Then a
// canonical link, and a meta description for a listed page. Then JSON-LD
// when the page has none, and the html lang attribute when the site states
// a language. Nothing the page already has is added twice. A page without
// a head (no </head>, <head> or <body> to anchor on, within the first 256
// KiB) is returned unchanged.
func (k *kit) decorate(page []byte, path string) []byte {
	scan := page
	if len(scan) > maxHeadScan {
		scan = scan[:maxHeadScan]
	}
	at := anchor(scan)
	if at < 0 {
		return page
	}
	pageURL := k.origin.JoinPath(path)
	head, _ := htmlhead.Parse(bytes.NewReader(scan), pageURL)
	if head == nil {
		head = &htmlhead.Head{}
	}
	var add strings.Builder
	if !hasLink(head, "describedby", "", k.abs(llmsPath)) {
		add.WriteString(`<link rel="describedby" type="text/plain" href="` + llmsPath + `">`)
	}
	if !hasLink(head, "alternate", "application/json", "") {
		add.WriteString(`<link rel="alternate" type="application/json" href="` + cardTwin + `">`)
	}
	if !hasLink(head, "alternate", "text/markdown", "") {
		add.WriteString(`<link rel="alternate" type="text/markdown" href="` + stdhtml.EscapeString(path) + `">`)
	}
	if len(head.LinksWithRel("canonical")) == 0 {
		add.WriteString(`<link rel="canonical" href="` + stdhtml.EscapeString(pageURL.String()) + `">`)
	}
	if p, ok := k.site.pageFor(path); ok && p.Description != "" {
		if _, has := head.MetaContent("description"); !has {
			add.WriteString(`<meta name="description" content="` + stdhtml.EscapeString(p.Description) + `">`)
		}
	}
	if !hasJSONLD(page) {
		add.WriteString(`<script type="application/ld+json">`)
		add.Write(k.jsonLD(path))
		add.WriteString(`</script>`)
	}
	lang := ""
	if head.Lang == "" && k.site.Language != "" {
		lang = k.site.Language
	}
	if add.Len() == 0 && lang == "" {
		return page
	}
	out := make([]byte, 0, len(page)+add.Len()+len(lang)+16)
	rest := page
	if lang != "" {
		if i := tagEnd(page, "<html"); i >= 0 && i < at {
			out = append(out, page[:i]...)
			out = append(out, ` lang="`+stdhtml.EscapeString(lang)+`"`...)
			rest = page[i:]
			at -= i
		}
	}
	out = append(out, rest[:at]...)
	out = append(out, add.String()...)
	out = append(out, rest[at:]...)
	return out
}

// anchor returns where head elements go: the start of </head>, else just
// after the <head> start tag, else the start of <body>; -1 when the page
// has none of them.
func anchor(page []byte) int {
	if i := indexFold(page, "</head"); i >= 0 {
		return i
	}
	if i := tagEnd(page, "<head"); i >= 0 {
		if j := bytes.IndexByte(page[i:], '>'); j >= 0 {
			return i + j + 1
		}
	}
	return indexFold(page, "<body")
}

// tagEnd returns the offset just after the name of the first start tag
// named by open ("<html"), where an attribute can be inserted; -1 when
// there is none.
func tagEnd(page []byte, open string) int {
	for off := 0; off < len(page); {
		i := indexFold(page[off:], open)
		if i < 0 {
			return -1
		}
		end := off + i + len(open)
		if end == len(page) || page[end] == '>' || page[end] == ' ' || page[end] == '\t' || page[end] == '\n' || page[end] == '\r' || page[end] == '/' {
			return end
		}
		off = end
	}
	return -1
}

// hasLink reports whether the head has a link with rel (and type when not
// ""), and href when not "".
func hasLink(h *htmlhead.Head, rel, typ, href string) bool {
	for _, l := range h.LinksWithRel(rel) {
		if typ != "" && !strings.EqualFold(mediaEssence(l.Type), typ) {
			continue
		}
		if href != "" && !sameURL(l.Href, href) {
			continue
		}
		return true
	}
	return false
}

// sameURL reports whether a and b name the same path on the same normalized
// origin, so a link the page already has under another spelling of its
// host is not added twice.
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && originKey(ua) == originKey(ub) && ua.Path == ub.Path
}

// originKey is u's normalized origin, or its host in lower case when it
// has none (a relative reference: "").
func originKey(u *url.URL) string {
	if o, err := weburl.Origin(u); err == nil {
		return o
	}
	return strings.ToLower(u.Host)
}

func mediaEssence(t string) string {
	t, _, _ = strings.Cut(t, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// indexFold is bytes.Index with ASCII case folding of s (s is lower-case).
func indexFold(b []byte, s string) int {
	n := len(s)
	for i := 0; i+n <= len(b); i++ {
		j := bytes.IndexByte(b[i:], s[0])
		k := bytes.IndexByte(b[i:], s[0]-32*boolByte(s[0] >= 'a' && s[0] <= 'z'))
		switch {
		case j < 0 && k < 0:
			return -1
		case j < 0 || (k >= 0 && k < j):
			j = k
		}
		i += j
		if i+n > len(b) {
			return -1
		}
		if equalFoldASCII(b[i:i+n], s) {
			return i
		}
	}
	return -1
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func equalFoldASCII(b []byte, s string) bool {
	for i := range len(s) {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func containsFold(b []byte, s string) bool { return indexFold(b, s) >= 0 }

// hasJSONLD reports whether the page has a script element of type
// application/ld+json (parameters and case aside), anywhere in it. The
// text "application/ld+json" in the page's prose, a comment or another
// element's attribute is not one: the kit still adds its own JSON-LD there.
func hasJSONLD(page []byte) bool {
	if !containsFold(page, "ld+json") {
		return false
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return false
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			if string(name) != "script" {
				continue
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "type" {
					mt, _, _ := strings.Cut(string(v), ";")
					if strings.EqualFold(strings.TrimSpace(mt), "application/ld+json") {
						return true
					}
				}
			}
		}
	}
}
