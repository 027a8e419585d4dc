package readiness

import (
	"bytes"
	"fmt"
	"html"
	"math"
)

// badgeLabel is the left half of every badge.
const badgeLabel = "agent readiness"

// Badge returns the report's score as a badge in the style of shields.io
// ([Summary.Badge] of its summary).
func (r *Report) Badge() []byte { return r.Summary().Badge() }

// Badge draws the summary's score as a shields.io-style SVG badge, 20 pixels
// high. It shows the label "agent readiness" on grey, then the score out of 100
// with one decimal. The score's colour is its band: green from 90, orange from
// 50, red below. The scoring method defines no bands; these are the thresholds
// of the HTML report's gauge. The title (a tooltip, and the text a screen
// reader reads) adds whether the site is ready and when it was scanned. The SVG
// is self-contained: no script, font, image or link.
func (s *Summary) Badge() []byte {
	msg := oneDecimal(s.Score) + "/100"
	lw := math.Round(textWidth(badgeLabel) + 10)
	mw := math.Round(textWidth(msg) + 10)
	w := lw + mw
	title := fmt.Sprintf("%s: %s of 100, %s (%s, scanned %s)", badgeLabel, oneDecimal(s.Score), readyWord(s.Ready),
		s.Site, s.ScannedAt.Format("2006-01-02T15:04:05Z07:00"))
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="20" viewBox="0 0 %g 20" role="img" aria-label="%s: %s">`+"\n", w, w, badgeLabel, msg)
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(clean(title)))
	b.WriteString(`<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` + "\n")
	fmt.Fprintf(&b, `<clipPath id="r"><rect width="%g" height="20" rx="3" fill="#fff"/></clipPath>`+"\n", w)
	fmt.Fprintf(&b, `<g clip-path="url(#r)"><rect width="%g" height="20" fill="#555"/><rect x="%g" width="%g" height="20" fill="%s"/><rect width="%g" height="20" fill="url(#s)"/></g>`+"\n",
		lw, lw, mw, scoreColor(math.Max(0, math.Min(1, s.Score/100))), w)
	b.WriteString(`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">` + "\n")
	for _, t := range []struct {
		x    float64
		text string
	}{{lw / 2, badgeLabel}, {lw + mw/2, msg}} {
		fmt.Fprintf(&b, `<text x="%g" y="15" fill="#010101" fill-opacity=".3">%s</text><text x="%g" y="14">%s</text>`+"\n", t.x, t.text, t.x, t.text)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes()
}

// textWidth estimates the width in pixels of ASCII text in 11px Verdana,
// the badge's font, from the advance widths shields.io measures.
func textWidth(s string) float64 {
	var w float64
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			w += 7.0
		case r == ' ':
			w += 3.87
		case r == '.' || r == ',':
			w += 4.0
		case r == '/':
			w += 4.93
		case r == 'i' || r == 'l' || r == 'j':
			w += 3.08
		case r == 'r' || r == 't' || r == 'f':
			w += 4.6
		case r == 'c' || r == 's' || r == 'z':
			w += 5.73
		case r == 'm' || r == 'w':
			w += 10.7
		case r >= 'a' && r <= 'z':
			w += 6.75
		default:
			w += 7.5
		}
	}
	return w
}
