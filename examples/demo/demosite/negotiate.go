package demosite

import (
	"strconv"
	"strings"
)

// prefersMarkdown reports whether an Accept header value (RFC 9110, Section
// 12.5.1) ranks text/markdown above text/html. Ranges are weighed by their
// q-value and, for equal q, by specificity; a missing header prefers HTML.
func prefersMarkdown(accept string) bool {
	return quality(accept, "text", "markdown") > quality(accept, "text", "html")
}

// quality is the q-value the most specific range of accept gives typ/sub.
func quality(accept, typ, sub string) float64 {
	best, spec := 0.0, -1
	for i, part := range strings.Split(accept, ",") {
		if i >= 64 {
			break
		}
		fields := strings.Split(part, ";")
		t, s, ok := strings.Cut(strings.ToLower(strings.TrimSpace(fields[0])), "/")
		if !ok {
			continue
		}
		q := 1.0
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(p, "=")
			if strings.TrimSpace(strings.ToLower(k)) == "q" {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				q = f
			}
		}
		var sp int
		switch {
		case t == typ && s == sub:
			sp = 2
		case t == typ && s == "*":
			sp = 1
		case t == "*" && s == "*":
			sp = 0
		default:
			continue
		}
		if sp > spec {
			best, spec = q, sp
		}
	}
	return best
}
