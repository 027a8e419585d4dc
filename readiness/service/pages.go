package service

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/readiness"
)

//go:embed templates/*.html
var templateFS embed.FS

var pageTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"pathEscape": url.PathEscape,
	"score":      func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) },
	"delta": func(v float64) string {
		s := strconv.FormatFloat(v, 'f', 1, 64)
		if v > 0 {
			return "+" + s
		}
		return s
	},
	"when": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") },
}).ParseFS(templateFS, "templates/*.html"))

// page is what every page template reads.
type page struct {
	Title   string
	Name    string
	Contact string
	Dev     bool
	// Error is a refusal to show, with the URL typed (escaped on output).
	Error    *errorBody
	URL      string
	Status   int
	Scan     *scanJSON
	Site     *siteJSON
	Chart    template.HTML
	MCP      bool
	Browser  bool
	Limits   limitsView
	Progress []progressEvent
	Total    int
}

type limitsView struct {
	Caller, Target string
	CacheTTL       string
}

func (s *Service) page(title string) *page {
	return &page{Title: title, Name: s.o.Name, Contact: s.o.Contact, Dev: s.dev, MCP: s.o.MCP != nil, Browser: s.o.Renderer != nil,
		Total: len(readiness.Catalogue()),
		Limits: limitsView{
			Caller:   limitText(s.o.CallerLimit, "scans"),
			Target:   limitText(s.o.TargetLimit, "times"),
			CacheTTL: cacheText(s.o.CacheTTL),
		}}
}

// limitText says a limit in words: "20 scans an hour".
func limitText(l Limit, noun string) string {
	if l.Count < 0 {
		return "any number of " + noun
	}
	return strconv.Itoa(l.Count) + " " + noun + " " + durationText(l.Window, "a", "every")
}

// cacheText says how long the cache answers; "" when it is off.
func cacheText(d time.Duration) string {
	if d < 0 {
		return ""
	}
	return d.String()
}

// durationText says a duration in words: "an hour", "a minute", "10m0s".
func durationText(d time.Duration, article, every string) string {
	switch d {
	case time.Hour:
		return article + "n hour"
	case time.Minute:
		return article + " minute"
	case 24 * time.Hour:
		return article + " day"
	}
	return every + " " + d.String()
}

// withoutUserinfo drops the userinfo of a typed URL before it is shown
// again: a password is never echoed.
func withoutUserinfo(raw string) string {
	rest := raw
	if i := strings.Index(rest, "//"); i >= 0 {
		rest = rest[i+2:]
	}
	end := len(rest)
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		end = i
	}
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		return raw[:len(raw)-len(rest)] + rest[at+1:]
	}
	return raw
}

func (s *Service) render(w http.ResponseWriter, status int, name string, p *page) {
	var buf bytes.Buffer
	if err := pageTemplates.ExecuteTemplate(&buf, name, p); err != nil {
		s.log.Error("service: page", "page", name, "err", err)
		http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'")
	h.Set("Referrer-Policy", "same-origin")
	if status != http.StatusOK {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *Service) home(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		s.notFound(w, r)
		return
	}
	s.render(w, http.StatusOK, "home.html", s.page(s.o.Name))
}

func (s *Service) about(w http.ResponseWriter, r *http.Request) {
	s.render(w, http.StatusOK, "about.html", s.page("About "+s.o.Name))
}

func (s *Service) notFound(w http.ResponseWriter, r *http.Request) {
	p := s.page("Not found")
	p.Error = &errorBody{Code: "not_found", Message: "There is nothing at this address."}
	s.render(w, http.StatusNotFound, "error.html", p)
}

// postForm is the form's submission: a scan, then the scan's page; or the
// form again with the refusal.
func (s *Service) postForm(w http.ResponseWriter, r *http.Request) {
	data, ref := readBody(w, r, maxBodyBytes)
	var req scanRequest
	if ref == nil {
		vals, err := url.ParseQuery(string(data))
		if err != nil {
			ref = &refusal{status: http.StatusBadRequest, code: "bad_body", msg: "the form could not be read"}
		}
		req.URL, req.Browser = vals.Get("url"), vals.Get("browser") == "on"
	}
	var row *scanRow
	if ref == nil {
		row, _, ref = s.create(r.Context(), r, req)
	}
	if ref != nil {
		p := s.page("Scan refused")
		p.Error = &errorBody{Code: ref.code, Message: ref.msg}
		if len(req.URL) <= maxURLBytes {
			p.URL = withoutUserinfo(req.URL)
		}
		ref.setRetryAfter(w)
		s.render(w, ref.status, "home.html", p)
		return
	}
	http.Redirect(w, r, "/scans/"+row.ID, http.StatusSeeOther)
}

// scanPage shows a scan. While it runs it shows its progress: the script
// follows the event stream and reloads the page at the end. When it is
// done it shows the report (Report.HTML with the service's bar), and when
// it failed the reason.
func (s *Service) scanPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var row *scanRow
	var err error
	if validID(id) {
		row, err = s.st.get(r.Context(), id)
	} else {
		err = errNotFound
	}
	switch {
	case errors.Is(err, errNotFound):
		s.notFound(w, r)
		return
	case err != nil:
		p := s.page("Unavailable")
		p.Error = &errorBody{Code: "unavailable", Message: "The service's store is not answering; try again."}
		s.render(w, http.StatusServiceUnavailable, "error.html", p)
		return
	}
	if row.Status == statusDone {
		var rep readiness.Report
		if err := json.Unmarshal([]byte(row.Report), &rep); err == nil {
			// The report draws the site's trend, and what changed since the
			// run before, from the earlier scans.
			rep.Trend = s.trend(r, row.Host, row.FinishedAt)
			s.writeReport(w, row, &rep)
			return
		}
	}
	p := s.page("Scan of " + row.Site)
	p.Scan = s.scanObject(row, false)
	if evs, err := s.st.events(r.Context(), row.ID, 0, 500); err == nil {
		for _, e := range evs {
			var pe progressEvent
			if json.Unmarshal([]byte(e.Data), &pe) == nil && pe.Run == row.Runs {
				p.Progress = append(p.Progress, pe)
			}
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, http.StatusOK, "scan.html", p)
}

// writeReport serves the report's own page (Report.HTML) with the
// service's bar after the body's start tag.
func (s *Service) writeReport(w http.ResponseWriter, row *scanRow, rep *readiness.Report) {
	doc := rep.HTML()
	p := s.page("")
	p.Scan = s.scanObject(row, false)
	var bar bytes.Buffer
	if err := pageTemplates.ExecuteTemplate(&bar, "bar.html", p); err != nil {
		s.log.Error("service: page", "page", "bar.html", "err", err)
	}
	if i := bytes.Index(doc, []byte("<body")); i >= 0 {
		if j := bytes.IndexByte(doc[i:], '>'); j >= 0 {
			at := i + j + 1
			doc = append(doc[:at:at], append(bar.Bytes(), doc[at:]...)...)
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	// The report's page carries its own Content-Security-Policy (a meta
	// element that allows its one inline script by hash); the header adds
	// only what a meta element cannot say.
	h.Set("Content-Security-Policy", "frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(doc)
}

// sitePage shows a site's history: every scan with its score, the trend
// chart and the section deltas between the last two.
func (s *Service) sitePage(w http.ResponseWriter, r *http.Request) {
	host, ok := normHost(r.PathValue("host"))
	if !ok {
		s.notFound(w, r)
		return
	}
	h, err := s.history(r.Context(), host)
	if err != nil {
		p := s.page("Unavailable")
		p.Error = &errorBody{Code: "unavailable", Message: "The service's store is not answering; try again."}
		s.render(w, http.StatusServiceUnavailable, "error.html", p)
		return
	}
	if len(h.Scans) == 0 {
		s.notFound(w, r)
		return
	}
	p := s.page("History of " + host)
	p.Site = h
	p.Chart = s.trendChart(r, h)
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, http.StatusOK, "site.html", p)
}

// trendChart returns the trend chart of a history: the one the newest
// finished scan's report draws (Report.HTML with its Trend set). It is
// taken out of the report's page, so that the chart is drawn by one
// piece of code. The chart holds numbers and dates only.
func (s *Service) trendChart(r *http.Request, h *siteJSON) template.HTML {
	if h.latest == "" {
		return ""
	}
	row, err := s.st.get(r.Context(), h.latest)
	if err != nil {
		return ""
	}
	var rep readiness.Report
	if json.Unmarshal([]byte(row.Report), &rep) != nil {
		return ""
	}
	rep.Trend = s.trend(r, row.Host, row.FinishedAt)
	doc := rep.HTML()
	i := bytes.Index(doc, []byte(`<svg class="trend"`))
	if i < 0 {
		return ""
	}
	j := bytes.Index(doc[i:], []byte("</svg>"))
	if j < 0 {
		return ""
	}
	return template.HTML(doc[i : i+j+len("</svg>")])
}
