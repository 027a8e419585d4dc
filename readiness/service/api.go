package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of the HTTP surface.
const (
	// maxBodyBytes bounds a request body to the API (413 past it): room
	// for a URL over maxURLBytes, so that one is told apart (414).
	maxBodyBytes = 256 << 10
	// maxURLBytes bounds the site URL of a scan request (414 past it).
	maxURLBytes = 2048
	// maxHistory bounds the scans of a site's history.
	maxHistory = 100
)

var (
	// bodyTimeout bounds the reading of a request body (408 past it).
	bodyTimeout = 10 * time.Second
	// maxStream bounds an event stream; a variable for the test that holds it.
	maxStream = 10 * time.Minute
)

// apiError is the body of every error of the API.
type apiError struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status, data = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"the answer could not be encoded"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, apiError{Error: errorBody{Code: code, Message: msg}})
}

// refusal is a request the service refuses, with its status and code.
type refusal struct {
	status     int
	code, msg  string
	retryAfter time.Duration
}

func (e *refusal) Error() string { return e.msg }

func (e *refusal) write(w http.ResponseWriter) {
	e.setRetryAfter(w)
	writeError(w, e.status, e.code, e.msg)
}

// setRetryAfter sets Retry-After, in whole seconds rounded up, when the
// refusal names a wait (RFC 9110 Section 10.2.3).
func (e *refusal) setRetryAfter(w http.ResponseWriter) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.retryAfter+time.Second-1)/time.Second)))
	}
}

// scanRequest is the body of POST /api/scans.
type scanRequest struct {
	URL     string `json:"url"`
	Browser bool   `json:"browser"`
}

// scanJSON is a scan in the API.
type scanJSON struct {
	ID         string          `json:"id"`
	Site       string          `json:"site"`
	URL        string          `json:"url"`
	Host       string          `json:"host"`
	Status     string          `json:"status"`
	Browser    bool            `json:"browser"`
	Cached     bool            `json:"cached,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
	StartedAt  *time.Time      `json:"started_at,omitempty"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	Score      *float64        `json:"score,omitempty"`
	Ready      *bool           `json:"ready,omitempty"`
	Report     json.RawMessage `json:"report,omitempty"`
	Error      *errorBody      `json:"error,omitempty"`
	Links      scanLinks       `json:"links"`
}

type scanLinks struct {
	Self   string `json:"self"`
	Page   string `json:"page"`
	Events string `json:"events"`
	Site   string `json:"site"`
	Badge  string `json:"badge"`
}

func (s *Service) scanObject(row *scanRow, withReport bool) *scanJSON {
	out := &scanJSON{
		ID: row.ID, Site: row.Site, URL: row.Site, Host: row.Host, Status: row.Status, Browser: row.Browser,
		CreatedAt: row.CreatedAt,
		Links: scanLinks{
			Self:   s.o.Origin + "/api/scans/" + row.ID,
			Page:   s.o.Origin + "/scans/" + row.ID,
			Events: s.o.Origin + "/api/scans/" + row.ID + "/events",
			Site:   s.o.Origin + "/api/sites/" + url.PathEscape(row.Host),
			Badge:  s.o.Origin + "/badge/" + url.PathEscape(row.Host) + ".svg",
		},
	}
	if !row.StartedAt.IsZero() {
		out.StartedAt = &row.StartedAt
	}
	if !row.FinishedAt.IsZero() {
		out.FinishedAt = &row.FinishedAt
	}
	if row.Score.Valid {
		score, ready := row.Score.Float64, row.Ready
		out.Score, out.Ready = &score, &ready
	}
	if withReport && row.Report != "" {
		out.Report = json.RawMessage(row.Report)
	}
	if row.Status == statusFailed {
		out.Error = &errorBody{Code: row.ErrorCode, Message: row.Error}
	}
	return out
}

// site is a site URL read from a request: normalized, with its history key
// (host) and rate-limit key (target).
type site struct {
	URL, Host, Target string
}

// parseSite checks a site URL as the scans' client would fetch it.
func (s *Service) parseSite(raw string) (site, *refusal) {
	raw = strings.TrimSpace(raw)
	if len(raw) > maxURLBytes {
		return site{}, &refusal{status: http.StatusRequestURITooLong, code: "url_too_long",
			msg: "the URL is longer than " + strconv.Itoa(maxURLBytes) + " bytes"}
	}
	if raw == "" {
		return site{}, &refusal{status: http.StatusUnprocessableEntity, code: codeInvalidURL, msg: "a url is required"}
	}
	if !strings.Contains(raw, "://") && !strings.HasPrefix(raw, "//") {
		raw = "https://" + raw
	}
	norm, err := safefetch.NormalizeURL(raw, s.dev)
	if err != nil {
		msg := "the URL is not one this service fetches"
		var ue *safefetch.URLError
		if errors.As(err, &ue) {
			// The reason, never the URL: it may carry userinfo.
			msg += ": " + ue.Reason + " (rule " + ue.Rule + ")"
		}
		return site{}, &refusal{status: http.StatusUnprocessableEntity, code: codeInvalidURL, msg: msg}
	}
	u, err := url.Parse(norm)
	if err != nil || u.Host == "" {
		return site{}, &refusal{status: http.StatusUnprocessableEntity, code: codeInvalidURL, msg: "the URL has no host"}
	}
	if u.Path == "" {
		u.Path = "/"
		norm = u.String()
	}
	target := readiness.RegistrableDomain(norm)
	if _, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		target = u.Host
	}
	return site{URL: norm, Host: u.Host, Target: target}, nil
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}

// caller names who sent r, for its rate limits: the address of the
// connection, or the last entry of ClientIPHeader; an IPv6 address by its
// /64.
func (s *Service) caller(r *http.Request) string {
	addr := r.RemoteAddr
	if h := s.o.ClientIPHeader; h != "" {
		if v := r.Header.Values(h); len(v) > 0 {
			last := v[len(v)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			addr = strings.TrimSpace(last)
		}
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	ip, err := netip.ParseAddr(strings.Trim(addr, "[]"))
	if err != nil {
		return "unknown"
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// take counts one request against key's limit; a refusal when it is over,
// with the time left in the window. The window is returned so that a
// count can be taken back.
func (s *Service) take(ctx context.Context, key string, l Limit, what string) (time.Time, *refusal) {
	if l.Count < 0 {
		return time.Time{}, nil
	}
	now := time.Now()
	window := now.Truncate(l.Window)
	n, err := s.st.count(ctx, key, window)
	if err != nil {
		s.log.Error("service: rate limit", "err", err)
		return window, &refusal{status: http.StatusServiceUnavailable, code: "unavailable", msg: "the service cannot count requests now; try again", retryAfter: 5 * time.Second}
	}
	if n > l.Count {
		// A refused request is not counted: the counter holds what was
		// granted, so that a grant given back (uncount) is never taken
		// from a refusal's count.
		dctx, done := detached(ctx)
		_ = s.st.uncount(dctx, key, window)
		done()
		return window, &refusal{status: http.StatusTooManyRequests, code: "rate_limited",
			msg:        what + ": at most " + strconv.Itoa(l.Count) + " in " + l.Window.String(),
			retryAfter: window.Add(l.Window).Sub(now)}
	}
	return window, nil
}

// readBody reads a request body within maxBodyBytes and bodyTimeout.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *refusal) {
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		return nil, &refusal{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: "the request body is over " + strconv.FormatInt(limit, 10) + " bytes"}
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err == nil {
		_ = rc.SetReadDeadline(time.Time{})
		return data, nil
	}
	// The rest of the body is not read: the connection closes after the
	// answer, which then goes out at once.
	w.Header().Set("Connection", "close")
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return nil, &refusal{status: http.StatusRequestEntityTooLarge, code: "body_too_large", msg: "the request body is over " + strconv.FormatInt(limit, 10) + " bytes"}
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return nil, &refusal{status: http.StatusRequestTimeout, code: "body_timeout", msg: "the request body did not arrive within " + bodyTimeout.String()}
	}
	return nil, &refusal{status: http.StatusBadRequest, code: "bad_body", msg: "the request body could not be read"}
}

// create answers a request for a scan: a cached answer, the scan in
// flight, or a new queued scan; or a refusal.
func (s *Service) create(ctx context.Context, r *http.Request, req scanRequest) (*scanRow, int, *refusal) {
	if s.closing.Load() {
		return nil, 0, &refusal{status: http.StatusServiceUnavailable, code: "closing", msg: "the service is shutting down", retryAfter: 10 * time.Second}
	}
	st, ref := s.parseSite(req.URL)
	if ref != nil {
		return nil, 0, ref
	}
	if req.Browser && s.o.Renderer == nil {
		return nil, 0, &refusal{status: http.StatusUnprocessableEntity, code: "no_browser", msg: "this service has no browser mode"}
	}
	// A cached answer costs the target nothing: before any limit.
	if s.o.CacheTTL > 0 {
		row, err := s.st.cached(ctx, st.URL, req.Browser, time.Now().Add(-s.o.CacheTTL))
		if err != nil {
			return nil, 0, s.storeRefusal(err)
		}
		if row != nil {
			return row, http.StatusOK, nil
		}
	}
	if row, err := s.st.inFlight(ctx, st.URL, req.Browser); err != nil {
		return nil, 0, s.storeRefusal(err)
	} else if row != nil {
		return row, http.StatusAccepted, nil
	}
	if _, ref := s.take(ctx, "caller:"+s.caller(r), s.o.CallerLimit, "scans asked for by one caller"); ref != nil {
		return nil, 0, ref
	}
	full := &refusal{status: http.StatusTooManyRequests, code: "queue_full",
		msg: "the queue is full (" + strconv.Itoa(s.o.QueueSize) + " scans waiting)", retryAfter: 30 * time.Second}
	if n, err := s.st.queued(ctx); err != nil {
		return nil, 0, s.storeRefusal(err)
	} else if n >= s.o.QueueSize {
		return nil, 0, full
	}
	targetKey := "target:" + st.Target
	window, ref := s.take(ctx, targetKey, s.o.TargetLimit, "scans of "+st.Target)
	if ref != nil {
		return nil, 0, ref
	}
	row := &scanRow{ID: newID(), Site: st.URL, Host: st.Host, Target: st.Target, Browser: req.Browser,
		Status: statusQueued, CreatedAt: time.Now().UTC()}
	ok, err := s.st.insert(ctx, row, s.o.QueueSize)
	if err != nil {
		return nil, 0, s.storeRefusal(err)
	}
	if !ok {
		// The queue filled, or another request queued the site, since we
		// looked: the target's count is given back.
		if s.o.TargetLimit.Count >= 0 {
			dctx, done := detached(ctx)
			_ = s.st.uncount(dctx, targetKey, window)
			done()
		}
		if other, err := s.st.inFlight(ctx, st.URL, req.Browser); err == nil && other != nil {
			return other, http.StatusAccepted, nil
		}
		return nil, 0, full
	}
	s.wakeWorker()
	s.notify()
	return row, http.StatusAccepted, nil
}

func (s *Service) storeRefusal(err error) *refusal {
	s.log.Error("service: store", "err", err)
	return &refusal{status: http.StatusServiceUnavailable, code: "unavailable", msg: "the service's store is not answering; try again", retryAfter: 5 * time.Second}
}

func (s *Service) postScan(w http.ResponseWriter, r *http.Request) {
	data, ref := readBody(w, r, maxBodyBytes)
	if ref != nil {
		ref.write(w)
		return
	}
	var req scanRequest
	// A form, unless the body is a JSON object (curl -d sends JSON with the
	// form's media type).
	if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/x-www-form-urlencoded") && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		vals, err := url.ParseQuery(string(data))
		if err != nil {
			writeError(w, http.StatusBadRequest, "bad_body", "the form could not be read")
			return
		}
		req.URL, req.Browser = vals.Get("url"), vals.Get("browser") == "on" || vals.Get("browser") == "true"
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			writeError(w, http.StatusBadRequest, "bad_json", `the body must be a JSON object {"url": "https://…", "browser": false}`)
			return
		}
	}
	row, status, ref := s.create(r.Context(), r, req)
	if ref != nil {
		ref.write(w)
		return
	}
	obj := s.scanObject(row, status == http.StatusOK)
	obj.Cached = status == http.StatusOK
	w.Header().Set("Location", "/api/scans/"+row.ID)
	writeJSON(w, status, obj)
}

func (s *Service) getScan(w http.ResponseWriter, r *http.Request) {
	row, ok := s.lookup(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, s.scanObject(row, true))
}

// lookup reads the scan named by the path, answering 404 or 503 itself.
func (s *Service) lookup(w http.ResponseWriter, r *http.Request) (*scanRow, bool) {
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not_found", "no scan has this id")
		return nil, false
	}
	row, err := s.st.get(r.Context(), id)
	if errors.Is(err, errNotFound) {
		writeError(w, http.StatusNotFound, "not_found", "no scan has this id")
		return nil, false
	}
	if err != nil {
		s.storeRefusal(err).write(w)
		return nil, false
	}
	return row, true
}

// validID reports whether id has the form of a scan id (32 hex digits).
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// siteJSON is a site's history in the API.
type siteJSON struct {
	Host  string        `json:"host"`
	Scans []historyJSON `json:"scans"`
	// Deltas and Changes compare the last two finished scans
	// (readiness.CompareSummaries): every section's move, and every check
	// whose state changed.
	Deltas  []deltaJSON             `json:"deltas"`
	Changes []readiness.CheckChange `json:"changes"`
	Badge   string                  `json:"badge"`

	summaries []readiness.Summary // the finished scans', newest first
	latest    string              // the newest finished scan's id
}

type historyJSON struct {
	ID         string             `json:"id"`
	Site       string             `json:"site"`
	Status     string             `json:"status"`
	CreatedAt  time.Time          `json:"created_at"`
	FinishedAt *time.Time         `json:"finished_at,omitempty"`
	Score      *float64           `json:"score,omitempty"`
	Ready      *bool              `json:"ready,omitempty"`
	Summary    *readiness.Summary `json:"summary,omitempty"`
	Error      *errorBody         `json:"error,omitempty"`
}

// deltaJSON is how one section moved between the last two finished scans,
// in points.
type deltaJSON struct {
	Section  readiness.SectionID `json:"section"`
	Title    string              `json:"title"`
	Previous float64             `json:"previous"`
	Current  float64             `json:"current"`
	Delta    float64             `json:"delta"`
}

// normHost reads the {host} of a path: lower case, without the default
// port, as a scan's host is stored.
func normHost(h string) (string, bool) {
	if h == "" || len(h) > 300 {
		return "", false
	}
	norm, err := safefetch.NormalizeURL("https://"+h+"/", true)
	if err != nil {
		return "", false
	}
	u, err := url.Parse(norm)
	if err != nil || u.Host == "" {
		return "", false
	}
	return u.Host, true
}

// history reads the history of host: its newest maxHistory scans, and the
// comparison of its last two finished ones.
func (s *Service) history(ctx context.Context, host string) (*siteJSON, error) {
	rows, err := s.st.history(ctx, host, maxHistory)
	if err != nil {
		return nil, err
	}
	out := &siteJSON{Host: host, Scans: []historyJSON{}, Deltas: []deltaJSON{}, Changes: []readiness.CheckChange{},
		Badge: s.o.Origin + "/badge/" + url.PathEscape(host) + ".svg"}
	for _, row := range rows {
		h := historyJSON{ID: row.ID, Site: row.Site, Status: row.Status, CreatedAt: row.CreatedAt}
		if !row.FinishedAt.IsZero() {
			h.FinishedAt = &row.FinishedAt
		}
		if row.Score.Valid {
			score, ready := row.Score.Float64, row.Ready
			h.Score, h.Ready = &score, &ready
			var sum readiness.Summary
			if json.Unmarshal([]byte(row.Summary), &sum) == nil {
				h.Summary = &sum
				out.summaries = append(out.summaries, sum)
				if out.latest == "" {
					out.latest = row.ID
				}
			}
		}
		if row.Status == statusFailed {
			h.Error = &errorBody{Code: row.ErrorCode, Message: row.Error}
		}
		out.Scans = append(out.Scans, h)
	}
	if len(out.summaries) >= 2 {
		prev, cur := &out.summaries[1], &out.summaries[0]
		cmp := readiness.CompareSummaries(prev, cur)
		for _, sec := range readiness.Sections() {
			d, ok := cmp.Sections[sec.ID]
			if !ok {
				continue
			}
			out.Deltas = append(out.Deltas, deltaJSON{Section: sec.ID, Title: sec.Title,
				Previous: prev.Sections[sec.ID], Current: cur.Sections[sec.ID], Delta: d})
		}
		out.Changes = append(out.Changes, cmp.Changes...)
	}
	return out, nil
}

func (s *Service) getSite(w http.ResponseWriter, r *http.Request) {
	host, ok := normHost(r.PathValue("host"))
	if !ok {
		writeError(w, http.StatusNotFound, "not_found", "not a site host")
		return
	}
	h, err := s.history(r.Context(), host)
	if err != nil {
		s.storeRefusal(err).write(w)
		return
	}
	if len(h.Scans) == 0 {
		writeError(w, http.StatusNotFound, "not_found", "this service has not scanned that site")
		return
	}
	writeJSON(w, http.StatusOK, h)
}
