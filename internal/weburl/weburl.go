package weburl

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// MaxHostLength is the longest host name NormalizeHost accepts, in ASCII
// octets after IDNA conversion and without a trailing dot (RFC 1035 Section 2.3.4
// gives 255 octets on the wire, that is 253 characters in text form).
const MaxHostLength = 253

// maxLabelLength is the longest DNS label (RFC 1035 Section 2.3.4).
const maxLabelLength = 63

// ErrInvalidHost is returned (wrapped) by NormalizeHost and Origin when a
// host cannot be normalized.
var ErrInvalidHost = errors.New("weburl: invalid host")

// ErrNonCanonicalIP is returned (wrapped, together with [ErrInvalidHost]) by
// NormalizeHost for a host that is not a canonical IP literal but that a
// WHATWG URL parser or a resolver would read as an IPv4 address: "127.1",
// "0x7f.1", "2130706433", "0177.0.0.1", "127.0.0.1." or full-width digits.
var ErrNonCanonicalIP = errors.New("weburl: non-canonical IP address")

// hostProfile is the IDNA profile used for hosts: the domain to ASCII of
// the URL Standard (section 3.3, beStrict false), that is UTS #46 ToASCII
// with CheckHyphens false, CheckBidi and CheckJoiners true, non-transitional
// processing and VerifyDnsLength false, except that the STD3 rules stay on
// (UseSTD3ASCIIRules true: letters, digits and hyphens only). CheckHyphens
// is off because public hosts such as "r3---sn-4g5e6nsz.googlevideo.com"
// have "--" in their third and fourth characters; the DNS length limits
// and the hyphen at a label's edge are checked by NormalizeHost itself.
//
// [URL Standard]: https://url.spec.whatwg.org/#concept-domain-to-ascii
var hostProfile = idna.New(
	idna.MapForLookup(), // sets ValidateLabels, which turns CheckHyphens on: keep it first
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(true),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.VerifyDNSLength(false),
)

// NormalizeHost returns the canonical form of a host name or IP address
// literal, as it appears in a URL's authority without port.
//
// An IP address literal (IPv4 dotted decimal, or IPv6 with or without square
// brackets) is returned in its canonical net/netip text form, IPv6 without
// brackets; a zoned IPv6 address is an error. A name is mapped with the IDNA
// lookup profile (UTS #46 Section 4 with STD3 rules: ASCII lower-cased, Unicode
// converted to its A-label form), a single trailing dot (the root label) is
// dropped, and the result must be at most [MaxHostLength] octets with
// non-empty labels of at most 63 octets (RFC 1035 Section 2.3.4). Names with
// characters outside letters, digits and hyphens (such as "_") are errors.
// Hyphens may stand anywhere inside a label, "--" in the third and fourth
// characters included, as the URL Standard's domain to ASCII allows
// (CheckHyphens false), but not first or last (RFC 1123 Section 2.1); an
// "xn--" label must still be valid Punycode.
//
// Every error wraps [ErrInvalidHost].
func NormalizeHost(host string) (string, error) {
	if host == "" {
		return "", fmt.Errorf("%w: empty host", ErrInvalidHost)
	}
	lit := host
	if strings.HasPrefix(lit, "[") && strings.HasSuffix(lit, "]") {
		lit = lit[1 : len(lit)-1]
		a, err := netip.ParseAddr(lit)
		if err != nil || !a.Is6() {
			return "", fmt.Errorf("%w: %q is not an IPv6 literal", ErrInvalidHost, host)
		}
	}
	if a, err := netip.ParseAddr(lit); err == nil {
		if a.Zone() != "" {
			return "", fmt.Errorf("%w: %q has an IPv6 zone", ErrInvalidHost, host)
		}
		return a.String(), nil
	}
	if !utf8.ValidString(host) {
		return "", fmt.Errorf("%w: %q is not valid UTF-8", ErrInvalidHost, host)
	}
	if EndsInNumber(host) {
		return "", nonCanonicalIPError(host)
	}
	name, rooted := strings.CutSuffix(host, ".")
	if name == "" {
		return "", fmt.Errorf("%w: %q has no labels", ErrInvalidHost, host)
	}
	// A name already in lower-case letters, digits, hyphens and dots with no
	// A-label is its own lookup form: UTS #46 maps each of those characters
	// to itself, so the mapping is skipped (the label checks below remain).
	ascii, err := name, error(nil)
	if !plainLDH(name) {
		if ascii, err = hostProfile.ToASCII(name); err != nil {
			return "", fmt.Errorf("%w: %q: %v", ErrInvalidHost, host, err)
		}
	}
	// The mapping may produce a trailing dot (for example from U+3002
	// IDEOGRAPHIC FULL STOP); treat it like an ASCII one, once.
	if a, ok := strings.CutSuffix(ascii, "."); ok {
		if rooted {
			return "", fmt.Errorf("%w: %q has an empty label", ErrInvalidHost, host)
		}
		ascii = a
	}
	// The A-label form must map to itself, or two spellings of one host
	// could normalize differently.
	// (A plain LDH name maps to itself, as above.)
	if !plainLDH(ascii) {
		if again, err := hostProfile.ToASCII(ascii); err != nil || again != ascii {
			return "", fmt.Errorf("%w: %q does not normalize to a stable A-label form", ErrInvalidHost, host)
		}
	}
	// Mapping folds full-width digits and dots: check the result again.
	if _, err := netip.ParseAddr(ascii); err == nil || EndsInNumber(ascii) {
		return "", nonCanonicalIPError(host)
	}
	if ascii == "" || len(ascii) > MaxHostLength {
		return "", fmt.Errorf("%w: %q is empty or longer than %d octets", ErrInvalidHost, host, MaxHostLength)
	}
	for label := range strings.SplitSeq(ascii, ".") {
		if label == "" || len(label) > maxLabelLength {
			return "", fmt.Errorf("%w: %q has an empty label or one longer than %d octets", ErrInvalidHost, host, maxLabelLength)
		}
		// The URL Standard would take a label that starts or ends with a
		// hyphen; RFC 1123 Section 2.1 host names do not, and neither do
		// we.
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "", fmt.Errorf("%w: %q has a label that starts or ends with a hyphen", ErrInvalidHost, host)
		}
	}
	return ascii, nil
}

// plainLDH reports whether name holds only lower-case ASCII letters,
// digits, hyphens and dots, and no label starting with "xn--" (whose
// Punycode must be checked by the mapping).
func plainLDH(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return !strings.HasPrefix(name, "xn--") && !strings.Contains(name, ".xn--")
}

// Origin returns the ASCII serialization of the origin of an absolute http
// or https URL (RFC 6454 Section 6.2): the lower-case scheme, "://", the host as
// [NormalizeHost] gives it (IPv6 in square brackets), and ":port" only when
// the port is not the scheme's default (443 for https, 80 for http). An
// empty port ("https://example.com:/") is the default port. A URL with
// userinfo, another scheme, no host, or a port outside 1–65535 is an error:
// agentweb never compares origins of URLs it would not fetch.
func Origin(u *url.URL) (string, error) {
	scheme, host, err := origin(u)
	if err != nil {
		return "", err
	}
	return scheme + "://" + host, nil
}

// NormalizeURL returns a copy of an absolute http or https URL with its
// origin normalized as [Origin] normalizes it (lower-case scheme, host as
// [NormalizeHost] gives it, so lower case, IDNA A-labels and no trailing
// dot, and the default port dropped) and its fragment dropped; path and
// query are kept as they are. So "https://SHOP.example.:443/a#b" and
// "https://shop.example/a" give the same URL, and an entry point that
// normalizes the URL it is given compares origins one way. The errors are
// those of Origin.
func NormalizeURL(u *url.URL) (*url.URL, error) {
	scheme, host, err := origin(u)
	if err != nil {
		return nil, err
	}
	n := *u
	n.Scheme, n.Host = scheme, host
	n.Fragment, n.RawFragment = "", ""
	return &n, nil
}

// origin returns the normalized scheme and host[:port] of u.
func origin(u *url.URL) (scheme, host string, err error) {
	if u == nil {
		return "", "", errors.New("weburl: nil URL")
	}
	scheme = strings.ToLower(u.Scheme)
	var defPort int
	switch scheme {
	case "https":
		defPort = 443
	case "http":
		defPort = 80
	default:
		return "", "", fmt.Errorf("weburl: scheme %q has no web origin", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return "", "", fmt.Errorf("weburl: %s URL without authority", scheme)
	}
	if u.User != nil {
		return "", "", errors.New("weburl: URL has userinfo")
	}
	host, err = NormalizeHost(u.Hostname())
	if err != nil {
		return "", "", err
	}
	port := defPort
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "", "", fmt.Errorf("weburl: invalid port %q", p)
		}
		port = n
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != defPort {
		host += ":" + strconv.Itoa(port)
	}
	return scheme, host, nil
}

// IsWWWCounterpart reports whether hosts a and b are exactly a registrable
// domain and its "www." subdomain, in either order: "example.com" and
// "www.example.com" are, while "www.co.uk" and "co.uk" (a public suffix is
// not registrable), "www.www.example.com" and "www.example.com" (the shorter
// one is not the registrable domain), equal hosts, and IP addresses are not.
// The registrable domain is eTLD+1 under the Public Suffix List, private
// suffixes included (so "www.user.github.io" and "user.github.io" are
// counterparts, "www.github.io" and "github.io" are not). Both hosts are
// normalized with [NormalizeHost] first; a host that does not normalize is
// never a counterpart.
func IsWWWCounterpart(a, b string) bool {
	na, err := NormalizeHost(a)
	if err != nil {
		return false
	}
	nb, err := NormalizeHost(b)
	if err != nil {
		return false
	}
	if len(na) > len(nb) {
		na, nb = nb, na
	}
	// na is the apex candidate, nb must be "www." + na.
	if nb != "www."+na {
		return false
	}
	return RegistrableDomain(na) == na
}

// RegistrableDomain returns the registrable domain of host: its eTLD+1 under
// the Public Suffix List, private suffixes included. For example,
// "www.shop.example.co.uk" gives "example.co.uk", and "a.user.github.io"
// gives "user.github.io". The host is normalized with [NormalizeHost] first,
// so the result is lower-case, in A-label form and has no trailing dot. It
// returns "" when host has no registrable domain: an IP address, a public
// suffix itself, a single label, or a host that does not normalize.
func RegistrableDomain(host string) string {
	h, err := NormalizeHost(host)
	if err != nil {
		return ""
	}
	if _, err := netip.ParseAddr(h); err == nil {
		return ""
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(h)
	if err != nil {
		return ""
	}
	return d
}

// nonCanonicalIPError is the error of NormalizeHost for an IP-like host; it
// matches both ErrInvalidHost and ErrNonCanonicalIP.
type nonCanonicalIPError string

func (e nonCanonicalIPError) Error() string {
	return "weburl: invalid host: " + strconv.Quote(string(e)) + " reads as an IPv4 address but is not a canonical literal"
}

func (e nonCanonicalIPError) Is(target error) bool {
	return target == ErrInvalidHost || target == ErrNonCanonicalIP
}

// EndsInNumber reports whether a WHATWG URL parser would treat host as an
// IPv4 address (URL Standard Section 3.5, "ends in a number checker"): after
// dropping one trailing empty label, the last label is all ASCII digits, or
// "0x"/"0X" followed by hexadecimal digits. Canonical dotted-decimal IPv4
// ends in a number too; NormalizeHost accepts only that form as an IPv4
// literal.
func EndsInNumber(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if isAll(last, isDigit) {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		return isAll(last[2:], isHexDigit)
	}
	return false
}

func isAll(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// RawAuthority returns the authority of "scheme://authority/..." as written,
// and false when raw has no scheme followed by "//".
func RawAuthority(raw string) (string, bool) {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", false
	}
	for j := 0; j < i; j++ {
		c := raw[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	a := raw[i+3:]
	if k := strings.IndexAny(a, "/?#"); k >= 0 {
		a = a[:k]
	}
	return a, true
}

// Redact replaces the userinfo of a URL written "scheme://user@host" by
// "redacted", so that a password in a URL never reaches an error message, a
// log, a progress line or a report. It is the one redaction of the module:
// safefetch's refusals and every package that wraps a fetch error with the
// URL it was given use it. Any other string is returned unchanged.
func Redact(raw string) string {
	authority, ok := RawAuthority(raw)
	if !ok {
		return raw
	}
	i := strings.LastIndexByte(authority, '@')
	if i < 0 {
		return raw
	}
	start := strings.Index(raw, "://") + 3
	return raw[:start] + "redacted@" + raw[start+i+1:]
}
