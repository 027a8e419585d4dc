package linkset

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
)

// This file holds the rules of Section 4.1 of the knowledge-linkset
// draft: top-level structure, the link context and its anchor, hrefs. It
// walks the Bundle context, handing each relation, link and attribute to
// the rules of its own section.

// Bundle returns the link context this profile reads: the only one, or the
// only one anchored at a Bundle IRI (Section 4.1). It is nil when there is
// no such single context.
func (d *Document) Bundle() *Context {
	i := d.bundleIndex()
	if i < 0 {
		return nil
	}
	return &d.Contexts[i]
}

func (d *Document) bundleIndex() int {
	switch len(d.Contexts) {
	case 0:
		return -1
	case 1:
		return 0
	}
	found := -1
	for i := range d.Contexts {
		if !d.Contexts[i].NoAnchor && isBundleIRI(d.Contexts[i].Anchor) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

func (c *checker) run() {
	d := c.d
	for _, m := range d.extra {
		c.ps.add("/"+strictjson.EscapeToken(m.name), RuleTopLevelMember, "4.1", "%q is not allowed: linkset is the sole top-level member", m.name)
	}
	if len(d.Contexts) == 0 {
		c.ps.add("/linkset", RuleContextNone, "4.1", "the linkset array holds no link context")
		return
	}
	bi := d.bundleIndex()
	if bi < 0 {
		n := 0
		for i := range d.Contexts {
			if !d.Contexts[i].NoAnchor && isBundleIRI(d.Contexts[i].Anchor) {
				n++
				if n == 2 {
					c.ps.add("/linkset/"+strconv.Itoa(i), RuleContextMultiple, "4.1", "a second link context is anchored at a Bundle IRI; the link set holds exactly one")
				}
			}
		}
		if n == 0 {
			c.ps.add("/linkset", RuleContextNone, "4.1", "no link context is anchored at a Bundle IRI (an https origin with the path /)")
		}
		return
	}
	for i := range d.Contexts {
		if i != bi {
			c.ps.note("/linkset/"+strconv.Itoa(i), RuleContextIgnored, "4.1", "an additional link context not anchored at the Bundle IRI is ignored")
		}
	}
	c.context(bi)
}

// linkScan is what the walk over the Bundle context's links found.
type linkScan struct {
	hasDigest, hasFact, hasLedger bool
}

func (c *checker) context(bi int) {
	ctx := &c.d.Contexts[bi]
	cptr := "/linkset/" + strconv.Itoa(bi)
	if ctx.NoAnchor {
		c.ps.add(cptr, RuleAnchorMissing, "4.1", "the link context has no anchor; it must be the Bundle IRI")
	} else if !isBundleIRI(ctx.Anchor) {
		c.ps.add(cptr+"/anchor", RuleAnchorBundleIRI, "4.1", "anchor %q is not a Bundle IRI: an https origin's base URL with a trailing solidus and nothing after it", shorten.Bytes(ctx.Anchor, 120))
	}
	gri, gli, graph := ctx.graphLink()
	var scan linkScan
	for ri := range ctx.Relations {
		r := &ctx.Relations[ri]
		rptr := cptr + "/" + strictjson.EscapeToken(r.Name)
		if !c.relation(r, rptr) {
			continue
		}
		short := shortRel(r.Name)
		if short == "#ledger" {
			scan.hasLedger = true
		}
		if c.mode == ModeStrict && len(r.Links) == 0 {
			c.ps.add(rptr, RuleRelationEmpty, "4.1", "relation %q holds an empty array", r.Name)
		}
		for li := range r.Links {
			l := &r.Links[li]
			lptr := rptr + "/" + strconv.Itoa(li)
			c.href(r, li, lptr)
			c.relatedType(l, lptr, short, ctx.Anchor)
			if short == "#peer" && !isWellKnownURL(l.Href) {
				c.ps.add(lptr+"/href", RulePeerURL, "7.2", "a peer link's target is the peer's discovery document: an https URL with the path %s", WellKnownPath)
			}
			isGraph := ri == gri && li == gli
			for ai := range l.Attributes {
				a := &l.Attributes[ai]
				switch {
				case a.Name == "digest":
					scan.hasDigest = true
				case isBundleFact(a.Name):
					scan.hasFact = true
				case a.Name == "agsc-ledger-head":
					scan.hasLedger = true
				}
				c.attribute(l, a, lptr, short, isGraph)
			}
			if c.mode == ModeStrict && short == "#surface" {
				c.surfaceVersion(l, lptr)
			}
		}
	}
	c.reduced = !scan.hasDigest && !scan.hasFact && !scan.hasLedger
	if graph == nil {
		c.ps.add(cptr, RuleGraphLinkMissing, "4.3.2", "the link context has no describedby link of type application/ld+json to the Bundle's graph")
		return
	}
	gptr := cptr + "/" + strictjson.EscapeToken(ctx.Relations[gri].Name) + "/" + strconv.Itoa(gli)
	_, gated := graph.Attr("agsc-visibility")
	if !c.reduced {
		c.factsPresent(graph, gptr, gated)
	}
	if gated {
		c.gated(ctx, graph, cptr, gptr)
	}
	if hv, ok := graph.Attr("agsc-bundle-hash"); ok && len(hv) == 1 {
		if want, err := ParseDigest(hv[0]); err == nil {
			c.bundleHash(ctx, want, gptr+"/agsc-bundle-hash")
		}
	}
}

// href applies Section 4.1 to one link's href: an absolute URI, in code
// point order within its relation.
func (c *checker) href(r *Relation, li int, lptr string) {
	l := &r.Links[li]
	if !isAbsoluteURI(l.Href) {
		c.ps.add(lptr+"/href", RuleURLSyntax, "4.1", "href %q is not an absolute URI", shorten.Bytes(l.Href, 120))
	}
	if li == 0 {
		return
	}
	prev := r.Links[li-1].Href
	if prev > l.Href {
		c.ps.add(lptr+"/href", RuleHrefOrder, "4.1", "href %q comes before %q in code point order; links within a relation are ordered by href", shorten.Bytes(l.Href, 120), shorten.Bytes(prev, 120))
	} else if prev == l.Href && c.mode == ModeStrict {
		c.ps.add(lptr+"/href", RuleHrefDuplicate, "4.1", "href %q repeats the previous link's href", shorten.Bytes(l.Href, 120))
	}
}

// isBundleIRI reports whether s is an https origin's base URL with a
// trailing solidus: no userinfo, path "/", no query, no fragment (Section 2).
func isBundleIRI(s string) bool {
	if !strings.HasPrefix(s, "https://") || strings.ContainsAny(s, "?#\\ \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.Hostname() != "" && u.User == nil && u.Path == "/" && u.RawPath == ""
}

// isAbsoluteURI reports whether s is an absolute URI (or IRI) reference
// with a scheme (RFC 3986, Section 4.3; fragments allowed), without spaces
// or control characters.
func isAbsoluteURI(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c == 0x7f || c == '\\' || c == '"' || c == '<' || c == '>' {
			return false
		}
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return false
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return false
	}
	return true
}

// isWellKnownURL reports whether s is an https URL whose path is the
// well-known path and which has no userinfo, query or fragment.
func isWellKnownURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != "" && u.User == nil && u.Path == WellKnownPath &&
		u.RawQuery == "" && !u.ForceQuery && u.Fragment == "" && !strings.Contains(s, "#")
}

// originOf returns the origin of an absolute URL, or "" when s is not
// absolute. For http and https it is normalized as weburl.Origin does:
// scheme and host case, IDNA, trailing dot, default port. For other
// schemes it is the lower-cased scheme://host[:port].
func originOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	if o, err := weburl.Origin(u); err == nil {
		return o
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// mediaTypeIs compares the essence of a media type (parameters dropped)
// case-insensitively.
func mediaTypeIs(t, want string) bool {
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	return strings.EqualFold(strings.TrimSpace(t), want)
}
