package webread

import (
	"bytes"
	"strings"
)

// MaxRobotsBytes is how much of a robots.txt file [ParseRobots] reads: the 500
// kibibytes that RFC 9309 Section 2.5 asks crawlers to parse at least.
// Content after it is ignored, and the line it cuts is dropped.
//
// [RFC 9309]: https://www.rfc-editor.org/rfc/rfc9309
const MaxRobotsBytes = 500 << 10

// maxLineBytes is the longest line kept; the rest of a longer line is
// ignored. It is the bound of Google's parser (eight times the 2083 bytes
// of the longest URL browsers accept, less the terminator).
const maxLineBytes = 2083*8 - 1

// Availability says what a crawler may do with a site, per RFC 9309
// Section 2.3.1.
type Availability uint8

const (
	// AvailabilityParsed: the file was fetched (2xx) and its rules apply.
	AvailabilityParsed Availability = iota
	// AvailabilityUnavailable: the server answered 4xx, or redirects
	// did not end (RFC 9309 Sections 2.3.1.2 and 2.3.1.3): a crawler may
	// access any resource.
	AvailabilityUnavailable
	// AvailabilityUnreachable: a server error (5xx), a 429, or no answer
	// (RFC 9309 Section 2.3.1.4): a crawler must assume complete disallow.
	AvailabilityUnreachable
)

// String returns "parsed", "unavailable" or "unreachable".
func (a Availability) String() string {
	switch a {
	case AvailabilityParsed:
		return "parsed"
	case AvailabilityUnavailable:
		return "unavailable"
	case AvailabilityUnreachable:
		return "unreachable"
	}
	return "unknown"
}

// Robots is a robots.txt file as a crawler reads it. The zero value allows
// everything, as an empty file does. A Robots is immutable and safe for
// concurrent use.
type Robots struct {
	avail     Availability
	groups    []group
	sitemaps  []string
	truncated bool

	// counts of the lines read, for the tests that port Google's parse
	// handler cases
	directives, unknown, lastLine int
}

type group struct {
	agents []string // product tokens, lower case
	global bool     // a "*" line
	rules  []rule
}

type rule struct {
	allow   bool
	pattern string // normalized
}

// Availability reports whether the rules of the file apply, or everything
// is allowed or disallowed because of how the fetch ended.
func (r *Robots) Availability() Availability { return r.avail }

// Sitemaps returns the values of the Sitemap lines in file order (RFC 9309
// Section 2.2.4), as written; a Sitemap line may appear anywhere in the
// file and belongs to no group.
func (r *Robots) Sitemaps() []string { return append([]string(nil), r.sitemaps...) }

// Truncated reports whether the file was longer than [MaxRobotsBytes] and
// only its first part was read.
func (r *Robots) Truncated() bool { return r.truncated }

// RobotsUnreachable returns the Robots of a robots.txt that could not be fetched
// (a network error or timeout): RFC 9309 Section 2.3.1.4 asks crawlers to
// assume complete disallow.
func RobotsUnreachable() *Robots { return &Robots{avail: AvailabilityUnreachable} }

// RobotsForStatus returns the Robots of a fetched robots.txt with the final
// status code status (after the fetcher followed redirects) and the body
// body. It follows RFC 9309 Section 2.3.1. A 2xx is parsed. A 3xx that is
// still a redirect after the redirects were followed, and a 4xx, leave the
// file unavailable, and everything is allowed. A 5xx is unreachable, and
// everything is disallowed. A 429 (Too Many Requests) is a 4xx the RFC does
// not single out; this package takes the safer reading of Google's crawler
// and treats it as unreachable. Any other status is unreachable too.
func RobotsForStatus(status int, body []byte) *Robots {
	switch {
	case status >= 200 && status < 300:
		return ParseRobots(body)
	case status == 429:
		return RobotsUnreachable()
	case status >= 300 && status < 500:
		return &Robots{avail: AvailabilityUnavailable}
	}
	return RobotsUnreachable()
}

// ParseRobots reads a robots.txt body (RFC 9309 Section 2). It never fails: a
// line that is not a rule is ignored, as the RFC asks.
//
//   - At most [MaxRobotsBytes] are read (Section 2.5); a leading UTF-8 byte
//     order mark, or the part of one, is skipped; lines end at CR, LF or
//     CRLF, and a '#' starts a comment.
//   - A line is a name, a colon and a value; the names user-agent, allow,
//     disallow and sitemap are case-insensitive (Section 2.1). Like Google's
//     parser, a missing colon is accepted when the line is two words
//     ("disallow /"), a name is recognized by its prefix, and the common
//     misspellings "useragent", "user agent", "dissallow", "dissalow",
//     "disalow", "diasllow", "disallaw" and "site-map" are read as meant.
//   - A group is one or more user-agent lines followed by rules; rules
//     before the first user-agent line are ignored; lines other than
//     user-agent, allow and disallow do not end a group (Section 2.1).
//   - A user-agent value is its leading product token, the letters, '-'
//     and '_' it starts with ("FooBot/2.1" and "FooBot Images" are FooBot),
//     or "*" (Section 2.2.1).
//   - Allow and disallow values are normalized as [Robots.Allowed]
//     normalizes paths (Section 2.2.2). Following Google's parser, an allow
//     rule for ".../index.htm" or ".../index.html" also allows the directory
//     ".../" itself.
func ParseRobots(body []byte) *Robots {
	r := &Robots{}
	var cur *group
	inRules := false
	r.truncated = robotsLines(body, func(line int, key, value string) {
		switch keyKind(key) {
		case keyUserAgent:
			r.count(line)
			if cur == nil || inRules {
				r.groups = append(r.groups, group{})
				cur = &r.groups[len(r.groups)-1]
				inRules = false
			}
			if value == "*" || strings.HasPrefix(value, "*") && len(value) > 1 && isSpace(value[1]) {
				cur.global = true
			} else {
				cur.agents = append(cur.agents, strings.ToLower(productToken(value)))
			}
		case keyAllow, keyDisallow:
			r.count(line)
			if cur == nil {
				return // outside any group
			}
			inRules = true
			allow := keyKind(key) == keyAllow
			p := normalize(value)
			cur.rules = append(cur.rules, rule{allow: allow, pattern: p})
			if allow {
				if i := strings.LastIndexByte(p, '/'); i >= 0 && strings.HasPrefix(p[i:], "/index.htm") {
					cur.rules = append(cur.rules, rule{allow: true, pattern: p[:i+1] + "$"})
				}
			}
		case keySitemap:
			r.count(line)
			r.sitemaps = append(r.sitemaps, value)
		default:
			r.unknown++
			r.lastLine = line
		}
	})
	return r
}

// robotsLines calls f with the name and value of every line of a
// robots.txt body that has one, in order, numbering lines from 1. At most
// [MaxRobotsBytes] are read, and the line that limit cuts is dropped. A
// leading byte order mark or the part of one is skipped. Lines end at CR,
// LF or CRLF, and a longer line than Google's bound is cut. Comments are
// removed (RFC 9309 Sections 2.2 and 2.5). It reports whether the body was
// longer than the limit.
func robotsLines(body []byte, f func(line int, key, value string)) (truncated bool) {
	if len(body) > MaxRobotsBytes {
		body = body[:MaxRobotsBytes]
		truncated = true
		if i := bytes.LastIndexAny(body, "\r\n"); i >= 0 {
			body = body[:i+1]
		} else {
			body = nil
		}
	}
	// A BOM, or the part of one, is skipped.
	for _, b := range []byte{0xEF, 0xBB, 0xBF} {
		if len(body) == 0 || body[0] != b {
			break
		}
		body = body[1:]
	}
	line := 0
	for len(body) > 0 || line == 0 {
		end := bytes.IndexAny(body, "\r\n")
		var l []byte
		if end < 0 {
			l, body = body, nil
		} else {
			l = body[:end]
			if body[end] == '\r' && end+1 < len(body) && body[end+1] == '\n' {
				body = body[end+2:]
			} else {
				body = body[end+1:]
			}
		}
		line++
		if len(l) > maxLineBytes {
			l = l[:maxLineBytes]
		}
		if key, value, ok := splitLine(string(l)); ok {
			f(line, key, value)
		}
	}
	return truncated
}

func (r *Robots) count(line int) {
	r.directives++
	r.lastLine = line
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
}

// splitLine cuts the comment and returns the trimmed name and value.
func splitLine(l string) (key, value string, ok bool) {
	if i := strings.IndexByte(l, '#'); i >= 0 {
		l = l[:i]
	}
	l = strings.TrimFunc(l, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })
	if l == "" {
		return "", "", false
	}
	sep := strings.IndexByte(l, ':')
	if sep < 0 {
		// "disallow /": the colon is assumed when the value is one word.
		sep = strings.IndexAny(l, " \t")
		if sep < 0 {
			return "", "", false
		}
		if strings.ContainsAny(strings.TrimLeft(l[sep:], " \t"), " \t") {
			return "", "", false
		}
	}
	key = strings.TrimRight(l[:sep], " \t\v\f")
	if key == "" {
		return "", "", false
	}
	value = strings.TrimLeft(l[sep+1:], " \t\v\f")
	return key, value, true
}

type kind uint8

const (
	keyUnknown kind = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
)

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

func keyKind(k string) kind {
	switch {
	case hasPrefixFold(k, "user-agent"), hasPrefixFold(k, "useragent"), hasPrefixFold(k, "user agent"):
		return keyUserAgent
	case hasPrefixFold(k, "allow"):
		return keyAllow
	case hasPrefixFold(k, "disallow"), hasPrefixFold(k, "dissallow"), hasPrefixFold(k, "dissalow"),
		hasPrefixFold(k, "disalow"), hasPrefixFold(k, "diasllow"), hasPrefixFold(k, "disallaw"):
		return keyDisallow
	case hasPrefixFold(k, "sitemap"), hasPrefixFold(k, "site-map"):
		return keySitemap
	}
	return keyUnknown
}

func isTokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

// productToken returns the leading run of product-token characters of v.
func productToken(v string) string {
	i := 0
	for i < len(v) && isTokenChar(v[i]) {
		i++
	}
	return v[:i]
}

// ValidUserAgent reports whether token is a product token a crawler can
// obey: one or more letters, '-' or '_' (RFC 9309 Section 2.2.1, the
// identifier rule of Section 2.2).
func ValidUserAgent(token string) bool {
	return token != "" && productToken(token) == token
}

// Allowed reports whether the crawler whose product token is userAgent may
// fetch target, a URL path with its query ("/a/b?c=d") or an absolute URL,
// of which only the path and query count.
//
// The group for userAgent is every group one of whose user-agent lines
// names it, compared case-insensitively, and merged when several do. When
// none does, it is every "*" group. When there is none either, everything
// is allowed (RFC 9309 Section 2.2.1). Of the group's rules that match,
// the one with the longest pattern wins, and allow wins a tie (Section
// 2.2.2). A '*' matches any run of characters, and a final '$' the end of
// the path (Section 2.2.3). An empty rule matches nothing.
//
// Paths and patterns are compared after the same normalization (Section
// 2.2.2): octets outside US-ASCII are percent-encoded, percent-encoded
// unreserved characters are decoded ("/%7Euser" is "/~user"), and the hex
// digits of the remaining percent-encodings are upper-cased. Google's
// parser does the first part for patterns only and leaves the path to the
// caller; the tests record the two cases where this differs.
//
// A file that is unavailable allows everything, one that is unreachable
// disallows everything (RFC 9309 Section 2.3.1).
func (r *Robots) Allowed(userAgent, target string) bool {
	switch r.avail {
	case AvailabilityUnavailable:
		return true
	case AvailabilityUnreachable:
		return false
	}
	path := normalize(requestPath(target))
	specific := false
	if userAgent != "" {
		for gi := range r.groups {
			for _, a := range r.groups[gi].agents {
				if strings.EqualFold(a, userAgent) {
					specific = true
				}
			}
		}
	}
	bestAllow, bestDisallow := 0, 0
	for gi := range r.groups {
		g := &r.groups[gi]
		if specific {
			if !g.names(userAgent) {
				continue
			}
		} else if !g.global {
			continue
		}
		for _, ru := range g.rules {
			n := len(ru.pattern)
			if ru.allow && n <= bestAllow || !ru.allow && n <= bestDisallow {
				continue
			}
			if match(path, ru.pattern) {
				if ru.allow {
					bestAllow = n
				} else {
					bestDisallow = n
				}
			}
		}
	}
	return bestDisallow <= bestAllow
}

func (g *group) names(userAgent string) bool {
	for _, a := range g.agents {
		if strings.EqualFold(a, userAgent) {
			return true
		}
	}
	return false
}

// match reports whether pattern matches a prefix of path, or all of it
// when pattern ends in '$'. '*' matches any run of octets. Leftmost
// matching of each literal segment is enough for '*'-only patterns, so the
// cost is linear in the path for each segment.
func match(path, pattern string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	first, rest, star := strings.Cut(pattern, "*")
	if !strings.HasPrefix(path, first) {
		return false
	}
	if !star {
		return !anchored || len(path) == len(first)
	}
	pos := len(first)
	for {
		seg, more, hasMore := strings.Cut(rest, "*")
		if !hasMore {
			if anchored {
				return len(path)-len(seg) >= pos && strings.HasSuffix(path, seg)
			}
			return strings.Contains(path[pos:], seg)
		}
		i := strings.Index(path[pos:], seg)
		if i < 0 {
			return false
		}
		pos += i + len(seg)
		rest = more
	}
}

// requestPath returns the path, parameters and query of target, without
// the fragment, "/" when it has none; target may be a path or an absolute
// URL (the reading of Google's parser, which the tests check).
func requestPath(target string) string {
	start := 0
	if strings.HasPrefix(target, "//") {
		start = 2
	}
	early := indexAnyFrom(target, "/?;", start)
	protoEnd := indexFrom(target, "://", start)
	if early >= 0 && (protoEnd < 0 || early < protoEnd) {
		protoEnd = -1
	}
	if protoEnd < 0 {
		protoEnd = start
	} else {
		protoEnd += 3
	}
	ps := indexAnyFrom(target, "/?;", protoEnd)
	if ps < 0 {
		return "/"
	}
	hash := indexFrom(target, "#", start)
	if hash >= 0 && hash < ps {
		return "/"
	}
	pe := len(target)
	if hash >= 0 {
		pe = hash
	}
	if target[ps] != '/' {
		return "/" + target[ps:pe]
	}
	return target[ps:pe]
}

func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.IndexAny(s[from:], chars); i >= 0 {
		return from + i
	}
	return -1
}

func indexFrom(s, sub string, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// normalize percent-encodes octets outside US-ASCII, decodes the
// percent-encoded unreserved characters and upper-cases the hex digits of
// the other percent-encodings (RFC 9309 Section 2.2.2). The characters
// '*' and '$' are not unreserved, so a pattern keeps its meaning: "%2A"
// stays a literal.
func normalize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '%' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s):
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				b.WriteByte(c)
				continue
			}
			if v := hi<<4 | lo; isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(upperHex[hi])
				b.WriteByte(upperHex[lo])
			}
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
