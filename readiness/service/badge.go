package service

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// startTime is the Last-Modified of the embedded files.
var startTime = time.Now()

// badge serves /badge/{host}.svg: a shields-style badge of the last
// finished score of the site, "not scanned" when there is none, with an
// ETag of its bytes and a short Cache-Control.
func (s *Service) badge(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	name, ok := strings.CutSuffix(file, ".svg")
	host, valid := normHost(name)
	if !ok || !valid {
		writeError(w, http.StatusNotFound, "not_found", "a badge is /badge/{host}.svg")
		return
	}
	rows, err := s.st.history(r.Context(), host, maxHistory)
	if err != nil {
		s.storeRefusal(err).write(w)
		return
	}
	value, color := "not scanned", "#9f9f9f"
	for _, row := range rows {
		if row.Score.Valid {
			value = strconv.FormatFloat(row.Score.Float64, 'f', 0, 64) + "/100"
			if row.Ready {
				value += " ready"
			}
			color = scoreColor(row.Score.Float64)
			break
		}
	}
	svg := badgeSVG("agent readiness", value, color)
	sum := sha256.Sum256(svg)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(svg)
}

func scoreColor(v float64) string {
	switch {
	case v >= 90:
		return "#2e7d32"
	case v >= 70:
		return "#689f38"
	case v >= 50:
		return "#e59400"
	default:
		return "#c62828"
	}
}

// badgeSVG draws a two-part badge; widths follow the text at about 6.5
// pixels a character, as shields.io's Verdana 11px does.
func badgeSVG(label, value, color string) []byte {
	lw, vw := 10+len(label)*13/2, 10+len(value)*13/2
	esc := template.HTMLEscapeString
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">`+
		`<title>%s: %s</title><linearGradient id="s" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`+
		`<clipPath id="r"><rect width="%d" height="20" rx="3" fill="#fff"/></clipPath><g clip-path="url(#r)">`+
		`<rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/><rect width="%d" height="20" fill="url(#s)"/></g>`+
		`<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`+
		`<text x="%d" y="14">%s</text><text x="%d" y="14">%s</text></g></svg>`,
		lw+vw, esc(label), esc(value), esc(label), esc(value), lw+vw, lw, lw, vw, color, lw+vw,
		lw/2, esc(label), lw+vw/2, esc(value))
}

// trendSVG draws the scores of the finished scans of a history (given
// newest first) as a line chart, oldest on the left: one circle per scan,
// with its score as the circle's title.
func trendSVG(scans []historyJSON) template.HTML {
	type point struct {
		score float64
		when  time.Time
	}
	var pts []point
	for i := len(scans) - 1; i >= 0; i-- {
		if sc := scans[i]; sc.Score != nil {
			pts = append(pts, point{*sc.Score, sc.CreatedAt})
		}
	}
	const w, h, pad = 600, 200, 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="score trend, %d finished scans" class="trend">`, w, h, len(pts))
	for _, y := range []float64{0, 50, 100} {
		py := float64(h-pad) - y*float64(h-2*pad)/100
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="4" y="%.1f" font-size="11" fill="#666">%.0f</text>`, pad, w-10, py, py, py+4, y)
	}
	xy := func(i int, v float64) (float64, float64) {
		x := float64(pad + (w-pad-20)/2)
		if len(pts) > 1 {
			x = float64(pad) + float64(i)*float64(w-pad-20)/float64(len(pts)-1)
		}
		return x, float64(h-pad) - v*float64(h-2*pad)/100
	}
	if len(pts) > 1 {
		b.WriteString(`<polyline fill="none" stroke="#1a56c4" stroke-width="2" points="`)
		for i, p := range pts {
			x, y := xy(i, p.score)
			fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
		}
		b.WriteString(`"/>`)
	}
	for i, p := range pts {
		x, y := xy(i, p.score)
		fmt.Fprintf(&b, `<circle class="point" cx="%.1f" cy="%.1f" r="4" fill="%s" data-score="%.1f"><title>%.1f on %s</title></circle>`,
			x, y, scoreColor(p.score), p.score, p.score, p.when.UTC().Format("2006-01-02 15:04"))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
