package linkheader

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MaxLinks is the largest number of links [Parse] and [ParseStrict] return
// across all field values of one response.
const MaxLinks = 1024

// ErrMalformed is the sentinel every [*SyntaxError] unwraps to.
var ErrMalformed = errors.New("linkheader: malformed Link header")

// ErrTooManyLinks is returned (wrapped) when the fields hold more than
// [MaxLinks] links.
var ErrTooManyLinks = errors.New("linkheader: too many links")

// SyntaxError locates a violation of the section 3 grammar found by
// [ParseStrict]: Value is the index of the field value in the slice given to
// it and Offset the byte offset within that value.
type SyntaxError struct {
	Value  int
	Offset int
	Reason string
}

// Error implements the error interface.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("linkheader: Link field value %d, byte offset %d: %s", e.Value, e.Offset, e.Reason)
}

// Unwrap returns [ErrMalformed].
func (e *SyntaxError) Unwrap() error { return ErrMalformed }

// Link is one link-value of a Link header field (RFC 8288 Section 3): the
// links it establishes share its target, context and target attributes, one
// link per relation type in Rel (Appendix B.2, step 17).
type Link struct {
	// Target is the target URI-reference, resolved against the base URL
	// when one was given.
	Target string
	// Rel holds the relation types of the first "rel" attribute, split on
	// whitespace (section 3.3). [Parse] lower-cases every one (Appendix
	// B.2, step 17.1); [ParseStrict] lower-cases registered relation
	// types and keeps extension relation types (URIs) as sent.
	Rel []string
	// Anchor is the first "anchor" attribute (section 3.2), resolved
	// against the base URL when one was given; "" when absent, and the
	// context is then the resource whose response carried the field.
	Anchor string
	// Type is the first "type" attribute, a media type hint.
	Type string
	// Title is the first "title" attribute, or the decoded first "title*"
	// attribute (section 3.4.1, RFC 8187) when present.
	Title string
	// Media is the first "media" attribute.
	Media string
	// Hreflang holds every "hreflang" attribute in order.
	Hreflang []string
	// Params holds every other target attribute in order, names
	// lower-cased.
	Params []Param
}

// Param is one target attribute that has no field of its own in [Link]. A
// parameter sent without a value has Value "".
type Param struct {
	Name  string
	Value string
}

// HasRel reports whether l has the relation type rel. Relation types
// compare case-insensitively, registered ones and extension relation types
// (URIs) alike ([RFC 8288] sections 2.1.1 and 2.1.2).
//
// [RFC 8288]: https://www.rfc-editor.org/rfc/rfc8288
func (l Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// Param returns the value of the first parameter named name (compared
// case-insensitively) in [Link.Params], and whether there was one.
func (l Link) Param(name string) (string, bool) {
	for _, p := range l.Params {
		if strings.EqualFold(p.Name, name) {
			return p.Value, true
		}
	}
	return "", false
}

func isURIRel(rel string) bool { return strings.Contains(rel, ":") }

// resolve resolves ref against base (RFC 3986 Section 5.2), or returns it
// as it is when base is nil.
func resolve(base *url.URL, ref string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if base == nil {
		return ref, nil
	}
	abs := base.ResolveReference(u).String()
	// net/url accepts some references, such as "//::", whose resolution
	// it then refuses to parse; such a target is not a usable URI.
	if _, err := url.Parse(abs); err != nil {
		return "", err
	}
	return abs, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// decodeExtValue decodes an RFC 8187 Section 3.2 ext-value:
// charset "'" [ language ] "'" value-chars. UTF-8 and ISO-8859-1 are
// supported; the result must be valid UTF-8.
func decodeExtValue(v string, quoted bool) (string, error) {
	if quoted {
		return "", errors.New("an ext-value must not be quoted")
	}
	cs, rest, ok := strings.Cut(v, "'")
	if !ok {
		return "", errors.New("missing charset delimiter")
	}
	_, enc, ok := strings.Cut(rest, "'")
	if !ok {
		return "", errors.New("missing language delimiter")
	}
	raw, err := url.PathUnescape(enc)
	if err != nil {
		return "", errors.New("invalid percent-encoding")
	}
	for i := 0; i < len(enc); i++ {
		if c := enc[i]; c != '%' && !isAttrChar(c) {
			return "", fmt.Errorf("character %q not allowed in an ext-value", c)
		}
	}
	switch {
	case strings.EqualFold(cs, "UTF-8"):
		if !utf8.ValidString(raw) {
			return "", errors.New("invalid UTF-8")
		}
		return raw, nil
	case strings.EqualFold(cs, "ISO-8859-1"):
		r := make([]rune, len(raw))
		for i := 0; i < len(raw); i++ {
			r[i] = rune(raw[i])
		}
		return string(r), nil
	default:
		return "", fmt.Errorf("unsupported charset %q", cs)
	}
}

// isTchar reports whether c is a token character (RFC 9110 Section 5.6.2).
// The '*' that ends an extended parameter name is a tchar.
func isTchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isURIChar reports whether c may appear in a URI-reference (RFC 3986
// section 2): a printable US-ASCII character other than the ones RFC 3986
// never allows (space, '"', '<', '>', '\\', '^', '`', '{', '|', '}').
func isURIChar(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"<>\\^`{|}", c) < 0
}

// isAttrChar reports whether c is an attr-char (RFC 8187 Section 3.2.1).
func isAttrChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}
