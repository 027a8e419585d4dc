package readiness

import (
	"strconv"
	"strings"
)

// Accept header parsing with q-values (RFC 9110 §12.5.1). The scanner asks
// for a form with an Accept header and judges the answer against the form
// that header prefers, never by substring.

const maxMediaRanges = 64

type mediaRange struct {
	typ, sub string
	params   int // media-type parameters other than q (for specificity)
	q        float64
}

// parseAccept parses an Accept header value into media ranges. Malformed
// ranges are skipped; a malformed q counts as 0 (not acceptable). At most
// 64 ranges are read.
func parseAccept(h string) []mediaRange {
	var out []mediaRange
	for part := range strings.SplitSeq(h, ",") {
		if len(out) >= maxMediaRanges {
			break
		}
		fields := strings.Split(part, ";")
		mt := strings.ToLower(strings.TrimSpace(fields[0]))
		typ, sub, ok := strings.Cut(mt, "/")
		if !ok || typ == "" || sub == "" || (typ == "*" && sub != "*") {
			continue
		}
		r := mediaRange{typ: typ, sub: sub, q: 1}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(p, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			v = strings.TrimSpace(v)
			if k == "q" {
				r.q = parseQ(v)
				break // what follows q are accept-ext parameters
			}
			// charset does not narrow the type here: both forms are served
			// in UTF-8, as the method asks.
			if k != "" && k != "charset" {
				r.params++
			}
		}
		out = append(out, r)
	}
	return out
}

// parseQ reads a qvalue: "0" ["." 0*3DIGIT] / "1" ["." 0*3("0")]. Anything
// else is 0.
func parseQ(v string) float64 {
	if len(v) == 0 || len(v) > 5 || (v[0] != '0' && v[0] != '1') {
		return 0
	}
	if len(v) > 1 && v[1] != '.' {
		return 0
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1 {
		return 0
	}
	return f
}

// qualityOf is the q the ranges give a media type without parameters: the q
// of the most specific matching range (type/sub, type/*, */*). A range with
// media-type parameters (text/html;level=1) names a narrower type and does
// not match a bare one.
func qualityOf(ranges []mediaRange, mediaType string) float64 {
	typ, sub, _ := strings.Cut(strings.ToLower(mediaType), "/")
	best, bestSpec := 0.0, -1
	for _, r := range ranges {
		spec := -1
		switch {
		case r.params > 0:
			continue
		case r.typ == typ && r.sub == sub:
			spec = 2
		case r.typ == typ && r.sub == "*":
			spec = 1
		case r.typ == "*" && r.sub == "*":
			spec = 0
		}
		if spec > bestSpec {
			best, bestSpec = r.q, spec
		}
	}
	return best
}

// preferred returns the offer the Accept header prefers: the highest q
// above 0, ties broken by the order of offers; "" when none is acceptable.
// An empty header accepts anything, so the first offer wins.
func preferred(accept string, offers []string) string {
	if strings.TrimSpace(accept) == "" {
		if len(offers) > 0 {
			return offers[0]
		}
		return ""
	}
	ranges := parseAccept(accept)
	best, bestQ := "", 0.0
	for _, o := range offers {
		if q := qualityOf(ranges, o); q > bestQ {
			best, bestQ = o, q
		}
	}
	return best
}

// formOffers are the two forms of a page (readiness-method.md §04).
var formOffers = []string{"text/html", "text/markdown"}
