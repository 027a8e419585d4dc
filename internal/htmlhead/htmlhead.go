package htmlhead

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds applied by [Parse].
const (
	MaxLinks      = 1024    // <link> elements collected at most
	MaxMetas      = 1024    // <meta> elements collected at most
	MaxTokenBytes = 1 << 20 // bytes one token (a tag or a run of text) may use
)

// ErrLimit is wrapped by the error [Parse] returns when a bound is reached.
var ErrLimit = errors.New("htmlhead: limit reached")

// Head is what [Parse] found in a page's head.
type Head struct {
	// Lang is the lang attribute of the <html> element ("" when absent).
	Lang string
	// Base is the first <base href>, resolved against the page URL.
	Base string
	// Title is the first <title>'s text, whitespace stripped and collapsed.
	Title string
	// Links holds the <link> elements in document order.
	Links []Link
	// Metas holds the <meta> elements in document order.
	Metas []Meta
}

// Link is one <link> element (HTML section 4.2.4).
type Link struct {
	Rel      []string // the rel attribute split on ASCII whitespace, lower-cased
	Href     string   // href resolved against the base URL (or the page URL); "" when absent or unresolvable
	RawHref  string   // the href attribute as written (entities decoded)
	Type     string
	Hreflang string
	Title    string
	Media    string
}

// HasRel reports whether the link has the link type rel, compared ASCII
// case-insensitively.
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// Meta is one <meta> element (HTML section 4.2.5).
type Meta struct {
	Name      string
	Property  string // the RDFa/Open Graph property attribute
	HTTPEquiv string
	Charset   string
	Content   string
}

// LinksWithRel returns the links that have the link type rel.
func (h *Head) LinksWithRel(rel string) []Link {
	var out []Link
	for _, l := range h.Links {
		if l.HasRel(rel) {
			out = append(out, l)
		}
	}
	return out
}

// MetaContent returns the content of the first <meta> whose name attribute
// equals name ASCII case-insensitively, and whether there was one.
func (h *Head) MetaContent(name string) (string, bool) {
	for _, m := range h.Metas {
		if strings.EqualFold(m.Name, name) {
			return m.Content, true
		}
	}
	return "", false
}

// headTags are the start tags that do not end the head (HTML section
// 13.2.6.4.4, the "in head" insertion mode, and 13.2.6.4.6 "after head").
var headTags = map[atom.Atom]bool{
	atom.Html: true, atom.Head: true, atom.Base: true, atom.Basefont: true, atom.Bgsound: true,
	atom.Link: true, atom.Meta: true, atom.Title: true, atom.Noscript: true, atom.Noframes: true,
	atom.Script: true, atom.Style: true, atom.Template: true,
}

// rawText are the elements whose content the tokenizer returns as text.
var rawText = map[atom.Atom]bool{
	atom.Title: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Noframes: true,
}

// Parse reads an HTML document from r up to the end of its head and returns
// what it found. When not nil, pageURL is the URL the page was retrieved
// from, used to resolve <base href> and link targets. The caller must cap r.
//
// The error is nil, an error from r, or an error wrapping [ErrLimit]; in the
// last two cases the returned Head holds what was collected before it.
func Parse(r io.Reader, pageURL *url.URL) (*Head, error) {
	z := html.NewTokenizer(r)
	z.SetMaxBuf(MaxTokenBytes)
	p := parser{head: &Head{}}
	err := p.run(z)
	p.resolve(pageURL)
	return p.head, err
}

type parser struct {
	head      *Head
	langSet   bool
	baseSet   bool
	rawBase   string
	titleSet  bool
	inTitle   bool
	skip      atom.Atom // a raw-text element whose content is being skipped, or 0
	noscript  int
	template  int
	sawTokens bool
	hasHref   []bool // per link: whether it had an href attribute
}

func (p *parser) run(z *html.Tokenizer) error {
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			err := z.Err()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if errors.Is(err, html.ErrBufferExceeded) {
				return fmt.Errorf("%w: a token longer than %d bytes", ErrLimit, MaxTokenBytes)
			}
			return fmt.Errorf("htmlhead: reading: %w", err)
		case html.TextToken:
			first := !p.sawTokens
			p.sawTokens = true
			if p.inTitle {
				if !p.titleSet {
					p.titleSet = true
					p.head.Title = collapse(string(z.Text()))
				}
				continue
			}
			if p.skip != 0 || p.noscript > 0 || p.template > 0 {
				continue
			}
			text := z.Text()
			if first {
				text = []byte(strings.TrimPrefix(string(text), "\uFEFF"))
			}
			if strings.Trim(string(text), " \t\n\f\r") != "" {
				return nil // text opens the body
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			p.sawTokens = true
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if p.template > 0 {
				if a == atom.Template {
					p.template++
				}
				continue
			}
			if p.noscript > 0 {
				continue
			}
			if !headTags[a] {
				return nil // <body>, <frameset> or anything else opens the body
			}
			attrs := readAttrs(z, hasAttr)
			// The tokenizer reads the content of these elements as
			// text even when the tag is written self-closing, and
			// HTML ignores the self-closing flag on them.
			if rawText[a] {
				switch a {
				case atom.Title:
					p.inTitle = true
				case atom.Noscript:
					p.noscript++
				default:
					p.skip = a
				}
			}
			switch a {
			case atom.Html:
				if v, ok := attrs.get("lang"); ok && !p.langSet {
					p.langSet = true
					p.head.Lang = v
				}
			case atom.Base:
				if v, ok := attrs.get("href"); ok && !p.baseSet {
					p.baseSet = true
					p.rawBase = v
				}
			case atom.Template:
				p.template++
			case atom.Link:
				if len(p.head.Links) >= MaxLinks {
					return fmt.Errorf("%w: more than %d <link> elements", ErrLimit, MaxLinks)
				}
				l := Link{Type: attrs.val("type"), Hreflang: attrs.val("hreflang"), Title: attrs.val("title"), Media: attrs.val("media")}
				var hasHref bool
				l.RawHref, hasHref = attrs.get("href")
				p.hasHref = append(p.hasHref, hasHref)
				l.Rel = splitRel(attrs.val("rel"))
				p.head.Links = append(p.head.Links, l)
			case atom.Meta:
				if len(p.head.Metas) >= MaxMetas {
					return fmt.Errorf("%w: more than %d <meta> elements", ErrLimit, MaxMetas)
				}
				p.head.Metas = append(p.head.Metas, Meta{Name: attrs.val("name"), Property: attrs.val("property"),
					HTTPEquiv: attrs.val("http-equiv"), Charset: attrs.val("charset"), Content: attrs.val("content")})
			}
		case html.EndTagToken:
			p.sawTokens = true
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case p.template > 0:
				if a == atom.Template {
					p.template--
				}
			case a == atom.Noscript && p.noscript > 0:
				p.noscript--
			case p.noscript > 0:
			case a == atom.Title:
				p.inTitle = false
			case a == p.skip:
				p.skip = 0
			case a == atom.Body || a == atom.Html || a == atom.Br:
				// These end tags make a browser open the body
				// (13.2.6.4.6, "after head").
				return nil
			}
		default:
			// Comments and doctypes carry no head metadata.
			p.sawTokens = true
		}
	}
}

// attrs holds a start tag's attributes, first occurrence winning.
type attrs []html.Attribute

func readAttrs(z *html.Tokenizer, more bool) attrs {
	var as attrs
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		key := string(k)
		if _, dup := as.get(key); dup {
			continue
		}
		as = append(as, html.Attribute{Key: key, Val: string(v)})
	}
	return as
}

func (as attrs) get(key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func (as attrs) val(key string) string {
	v, _ := as.get(key)
	return v
}

// isASCIISpace reports whether r is ASCII whitespace as HTML defines it.
func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}

func splitRel(v string) []string {
	f := strings.FieldsFunc(v, isASCIISpace)
	if len(f) == 0 {
		return nil
	}
	for i, r := range f {
		f[i] = strings.ToLower(r)
	}
	return f
}

func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, isASCIISpace), " ")
}

// cleanURL strips leading and trailing C0 controls and spaces and removes
// tabs and newlines, as the URL parser does before parsing.
func cleanURL(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// resolve computes Base and every Href once the head has been read.
func (p *parser) resolve(pageURL *url.URL) {
	base := pageURL
	if p.baseSet {
		if u, err := url.Parse(cleanURL(p.rawBase)); err == nil {
			if pageURL != nil {
				u = pageURL.ResolveReference(u)
			}
			// A data: or javascript: base URL is ignored (HTML section
			// 4.2.3, "set the frozen base URL").
			if s := strings.ToLower(u.Scheme); s != "data" && s != "javascript" {
				p.head.Base = u.String()
				if u.IsAbs() {
					base = u
				}
			}
		}
	}
	for i := range p.head.Links {
		l := &p.head.Links[i]
		if !p.hasHref[i] {
			continue
		}
		u, err := url.Parse(cleanURL(l.RawHref))
		if err != nil {
			continue
		}
		if base != nil {
			u = base.ResolveReference(u)
		}
		l.Href = u.String()
	}
}
