package linkheader

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Parse reads the Link field values of one response (as returned by
// http.Header.Values("Link")). It reads them as the algorithm of [RFC
// 8288] Appendix B does, which is how a client is to parse what the web
// sends. It returns the link-values that establish at least one link, in
// order. Relative targets and anchors are resolved against base (RFC 3986
// section 5.2) unless base is nil.
//
// The algorithm never fails. Where the field strays from the Section 3
// grammar, Parse reads what the grammar's delimiters allow. An unquoted
// value runs to the next ";" or "," (so "type=text/plain" is read). A
// target runs to the first ">", a parameter name to the first whitespace,
// "=", ";" or ",". The field may not go on: no "<" where a link starts, no
// ">" after a target, something other than ";" or "," after a parameter.
// Then the rest of that field value is left, and the links already read are
// kept. Further, following the appendix step by step:
//
//   - the first "rel" gives the relation types, split on whitespace and
//     lower-cased (B.2 steps 9, 10 and 17.1); a link-value without one
//     establishes no link and is left out (step 17);
//   - the first "anchor" gives the context (steps 11 and 12);
//   - of "media", "title", "title*" and "type" the first occurrence counts
//     (step 14.2), "hreflang" and every other attribute repeat;
//   - parameter names are lower-cased (B.3 step 9);
//   - a parameter whose name ends in "*" is decoded as an [RFC 8187]
//     ext-value (B.3 step 7.5), in UTF-8 or ISO-8859-1, and replaces every
//     parameter of the name without the star (B.2 step 16), "title*" over
//     "title" included. A value that does not decode, and a "rel*" or
//     "anchor*" (whose plain forms are not target attributes, step 14.1),
//     is dropped and the plain parameter kept (step 16.2);
//   - a quoted value is read as B.4 says: a backslash takes the next
//     character whatever it is.
//
// Two readings go beyond the appendix's letter, each where the text cannot
// mean what it says. The comma that ends a link-value is consumed before
// the next one. B.3 stops at it, and B.2 step 2 would then find no "<" and
// read only the first link-value of every field. The list rule of Section 3
// ("Link = #link-value") and the appendix's own purpose rule that out. And
// empty list elements (",,") are skipped, as [RFC 9110] section 5.6.1.2
// asks of every recipient. And an unquoted value ends before the whitespace
// that precedes the ";" or "," ending it. B.3 step 7.4 consumes up to the
// delimiter. But the Section 3 grammar calls that whitespace OWS around the
// delimiter, not part of the token. So "type=text/html ;" has the type
// "text/html", and "title*=UTF-8'en'a ;" decodes. On every field value the
// grammar accepts, Parse reads the grammar's values.
//
// A target or anchor that net/url cannot resolve leaves that link-value
// out, and reading goes on. The only error is [ErrTooManyLinks], returned
// (wrapped) with the first [MaxLinks] links when there are more.
//
// Parse reads; to judge whether a field is what a publisher must write, use
// [ParseStrict].
//
// [RFC 8288]: https://www.rfc-editor.org/rfc/rfc8288#appendix-B
// [RFC 8187]: https://www.rfc-editor.org/rfc/rfc8187#section-3.2
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110#section-5.6.1.2
func Parse(values []string, base *url.URL) ([]Link, error) {
	// B.1: the links of every field value, in order.
	var links []Link
	for _, v := range values {
		var full bool
		if links, full = readField(v, base, links); full {
			return links, fmt.Errorf("%w: more than %d", ErrTooManyLinks, MaxLinks)
		}
	}
	return links, nil
}

// rawParam is one (param_name, param_value) tuple of B.3; bad marks a star
// parameter whose value did not decode.
type rawParam struct {
	name, value string
	bad         bool
}

func isOWS(c byte) bool { return c == ' ' || c == '\t' }

func skipOWS(s string, i int) int {
	for i < len(s) && isOWS(s[i]) {
		i++
	}
	return i
}

// readField is Appendix B.2, Parsing a Link Field Value. It appends to
// links and reports whether [MaxLinks] was passed.
func readField(s string, base *url.URL, links []Link) ([]Link, bool) {
	var params []rawParam
	i := 0
	for i < len(s) {
		// 2.1: consume leading OWS; also the comma that ended the previous
		// link-value and empty list elements (RFC 9110 Section 5.6.1.2).
		for i < len(s) && (isOWS(s[i]) || s[i] == ',') {
			i++
		}
		// 2.2, 2.3: a link-value starts with "<".
		if i >= len(s) || s[i] != '<' {
			return links, false
		}
		i++
		// 2.4, 2.5, 2.6: the target runs to the first ">".
		end := strings.IndexByte(s[i:], '>')
		if end < 0 {
			return links, false
		}
		target := s[i : i+end]
		i += end + 1
		// 2.7: the parameters.
		params, i = readParams(s, i, params[:0])
		// 2.8 to 2.17.
		if l, ok := linkOf(target, params, base); ok {
			if len(links) == MaxLinks {
				return links, true
			}
			links = append(links, l)
		}
	}
	return links, false
}

// readParams is Appendix B.3, Parsing Parameters, from s[i:]; it returns the
// parameters and where it stopped.
func readParams(s string, i int, params []rawParam) ([]rawParam, int) {
	for i < len(s) {
		// 2.1 to 2.4.
		i = skipOWS(s, i)
		if i >= len(s) || s[i] != ';' {
			return params, i
		}
		i = skipOWS(s, i+1)
		// 2.5: the name runs to the first BWS, "=", ";" or ",".
		start := i
		for i < len(s) && !isOWS(s[i]) && s[i] != '=' && s[i] != ';' && s[i] != ',' {
			i++
		}
		name := s[start:i]
		// 2.6.
		i = skipOWS(s, i)
		p := rawParam{}
		// 2.7: a value; 2.8: else the empty string.
		if i < len(s) && s[i] == '=' {
			i = skipOWS(s, i+1)
			if i < len(s) && s[i] == '"' {
				p.value, i = readQuoted(s, i)
			} else {
				start := i
				for i < len(s) && s[i] != ';' && s[i] != ',' {
					i++
				}
				// The OWS before the delimiter is the grammar's, not the
				// value's (section 3: OWS ";" and the list rule's OWS ",").
				end := i
				for end > start && isOWS(s[end-1]) {
					end--
				}
				p.value = s[start:end]
			}
			// 2.7.5: a star parameter's value is an RFC 8187 ext-value;
			// one that does not decode is marked and dropped in B.2
			// step 16.
			if strings.HasSuffix(name, "*") {
				if v, err := decodeExtValue(p.value, false); err == nil {
					p.value = v
				} else {
					p.bad = true
				}
			}
		}
		// 2.9, 2.10.
		p.name = asciiLower(name)
		params = append(params, p)
		// 2.11, 2.12.
		i = skipOWS(s, i)
		if i >= len(s) || s[i] == ',' {
			return params, i
		}
	}
	return params, i
}

// readQuoted is Appendix B.4, Parsing a Quoted String, from the DQUOTE at
// s[i]; it returns the output and where it stopped.
func readQuoted(s string, i int) (string, int) {
	i++ // 3: discard the DQUOTE.
	from := i
	var b []byte
	for i < len(s) {
		switch s[i] {
		case '\\': // 4.1
			if i+1 >= len(s) {
				b = append(b, s[from:i]...)
				return string(b), len(s)
			}
			b = append(b, s[from:i]...)
			b = append(b, s[i+1])
			i += 2
			from = i
		case '"': // 4.2
			if b == nil {
				return s[from:i], i + 1
			}
			return string(append(b, s[from:i]...)), i + 1
		default: // 4.3
			i++
		}
	}
	// 5: the input ended inside the string.
	return string(append(b, s[from:]...)), i
}

// linkOf is Appendix B.2 steps 8 to 17: the link-value's target, relation
// types, context and target attributes. It returns false when it
// establishes no link (no relation type), or its target or anchor cannot
// be resolved.
func linkOf(target string, params []rawParam, base *url.URL) (Link, bool) {
	var l Link
	// 9, 10, 17.1: the first "rel", split on RWS, lower-cased.
	for _, p := range params {
		if p.name == "rel" {
			l.Rel = splitRWS(p.value)
			break
		}
	}
	if len(l.Rel) == 0 {
		return l, false // 17: no relation type, no link
	}
	// 8: the target.
	t, err := resolve(base, target)
	if err != nil {
		return l, false
	}
	l.Target = t
	// 11, 12: the first "anchor".
	for _, p := range params {
		if p.name == "anchor" {
			a, err := resolve(base, p.value)
			if err != nil {
				return l, false
			}
			l.Anchor = a
			break
		}
	}
	// 13, 14: the target attributes.
	attrs := make([]rawParam, 0, len(params))
	for _, p := range params {
		switch p.name {
		case "rel", "anchor":
			continue // 14.1
		case "media", "title", "title*", "type":
			if hasAttr(attrs, p.name) {
				continue // 14.2
			}
		}
		attrs = append(attrs, p) // 14.3
	}
	// 15: the star parameter names, in order.
	var stars []string
	for _, a := range attrs {
		if strings.HasSuffix(a.name, "*") && !slices.Contains(stars, a.name) {
			stars = append(stars, a.name)
		}
	}
	// 16: each replaces its plain form.
	for _, star := range stars {
		plain := star[:len(star)-1]
		// A value that did not decode (B.3 step 7.5) is not kept.
		attrs = dropAttr(attrs, star, true)
		if plain == "" || plain == "rel" || plain == "anchor" || !hasAttr(attrs, star) {
			attrs = dropAttr(attrs, star, false) // 16.2
			continue
		}
		attrs = dropAttr(attrs, plain, false) // 16.3
		for j := range attrs {                // 16.4
			if attrs[j].name == star {
				attrs[j].name = plain
			}
		}
	}
	for _, a := range attrs {
		switch a.name {
		case "type":
			l.Type = a.value
		case "title":
			l.Title = a.value
		case "media":
			l.Media = a.value
		case "hreflang":
			l.Hreflang = append(l.Hreflang, a.value)
		default:
			l.Params = append(l.Params, Param{Name: a.name, Value: a.value})
		}
	}
	return l, true
}

func hasAttr(attrs []rawParam, name string) bool {
	for _, a := range attrs {
		if a.name == name {
			return true
		}
	}
	return false
}

// dropAttr removes the attributes named name, only the undecodable ones
// when badOnly.
func dropAttr(attrs []rawParam, name string, badOnly bool) []rawParam {
	out := attrs[:0]
	for _, a := range attrs {
		if a.name == name && (!badOnly || a.bad) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// splitRWS splits v on runs of SP and HTAB (B.2 step 10) and lower-cases
// each relation type (step 17.1).
func splitRWS(v string) []string {
	var rels []string
	for i := 0; i < len(v); {
		for i < len(v) && isOWS(v[i]) {
			i++
		}
		start := i
		for i < len(v) && !isOWS(v[i]) {
			i++
		}
		if i > start {
			rels = append(rels, asciiLower(v[start:i]))
		}
	}
	return rels
}

// asciiLower lower-cases the ASCII letters of s and leaves every other byte
// as it is (a header may carry any octet).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
