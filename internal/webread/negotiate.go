package webread

import (
	"strconv"
	"strings"
)

// MaxMediaRanges bounds the media ranges [ParseAccept] reads of one header.
const MaxMediaRanges = 64

// MediaRange is one media range of an Accept header (RFC 9110 Section 12.5.1).
type MediaRange struct {
	// Type and Subtype are lower-cased; either may be "*".
	Type, Subtype string
	// Params counts the media-type parameters other than q and charset: a
	// range with parameters names a narrower type than a bare one.
	Params int
	// Q is the weight, 0 to 1 (RFC 9110 Section 12.4.2).
	Q float64
}

// ParseAccept parses an Accept header value into media ranges (RFC 9110 Section
// 12.5.1). A range that is not type/subtype (or type/*, or */*) is skipped. A
// weight that is not a qvalue by RFC 9110 Section 12.4.2's grammar counts as 0,
// not acceptable. That grammar is "0" ["." 0*3DIGIT] / "1" ["." 0*3("0")], so
// neither "0.99999" nor ".5". What follows q are accept-ext parameters and are
// ignored. At most [MaxMediaRanges] ranges are read.
//
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
func ParseAccept(h string) []MediaRange {
	var out []MediaRange
	for part := range strings.SplitSeq(h, ",") {
		if len(out) >= MaxMediaRanges {
			break
		}
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok || typ == "" || sub == "" || (typ == "*" && sub != "*") {
			continue
		}
		r := MediaRange{Type: typ, Subtype: sub, Q: 1}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(p, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			v = strings.TrimSpace(v)
			if k == "q" {
				r.Q = ParseQ(v)
				break
			}
			// charset does not narrow the type: both forms of a page are
			// served in UTF-8.
			if k != "" && k != "charset" {
				r.Params++
			}
		}
		out = append(out, r)
	}
	return out
}

// ParseQ reads a qvalue by RFC 9110 Section 12.4.2: "0" ["." 0*3DIGIT] /
// "1" ["." 0*3("0")]. Anything else is 0.
//
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
func ParseQ(v string) float64 {
	if len(v) == 0 || len(v) > 5 || (v[0] != '0' && v[0] != '1') {
		return 0
	}
	if len(v) > 1 {
		if v[1] != '.' {
			return 0
		}
		for _, c := range v[2:] {
			if c < '0' || c > '9' || (v[0] == '1' && c != '0') {
				return 0
			}
		}
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "."), 64)
	if err != nil {
		return 0
	}
	return f
}

// Quality is the weight the ranges give a media type without parameters:
// the q of the most specific matching range (type/subtype, then type/*, then
// */*; RFC 9110 Section 12.5.1). A range with media-type parameters
// (text/html;level=1) names a narrower type and does not match a bare one.
//
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
func Quality(ranges []MediaRange, mediaType string) float64 {
	typ, sub, _ := strings.Cut(strings.ToLower(mediaType), "/")
	best, bestSpec := 0.0, -1
	for _, r := range ranges {
		spec := -1
		switch {
		case r.Params > 0:
			continue
		case r.Type == typ && r.Subtype == sub:
			spec = 2
		case r.Type == typ && r.Subtype == "*":
			spec = 1
		case r.Type == "*" && r.Subtype == "*":
			spec = 0
		}
		if spec > bestSpec {
			best, bestSpec = r.Q, spec
		}
	}
	return best
}

// Preferred returns the offer the Accept header prefers: the highest weight
// above 0, ties broken by the order of offers; "" when none is acceptable.
// An empty header accepts anything (RFC 9110 Section 12.5.1), so the first offer
// wins.
//
// [RFC 9110]: https://www.rfc-editor.org/rfc/rfc9110
func Preferred(accept string, offers []string) string {
	if strings.TrimSpace(accept) == "" {
		if len(offers) > 0 {
			return offers[0]
		}
		return ""
	}
	ranges := ParseAccept(accept)
	best, bestQ := "", 0.0
	for _, o := range offers {
		if q := Quality(ranges, o); q > bestQ {
			best, bestQ = o, q
		}
	}
	return best
}
