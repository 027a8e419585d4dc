package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// Document is one fixed document to serve.
type Document struct {
	// Body is the exact bytes served.
	Body []byte
	// ContentType is the Content-Type header value, for example
	// "application/json" or "application/linkset+json".
	ContentType string
	// CacheControl is the Cache-Control header value; "" sends none.
	CacheControl string
	// Header holds extra response headers (CORS, Link, Vary ...). They are
	// sent on 200 and 304 responses. They cannot replace Content-Type,
	// Content-Length, ETag or Cache-Control, which the handler owns.
	Header http.Header
}

// ETag returns the strong entity tag of body (RFC 9110 Section 8.8.3): the
// lower-case hex SHA-256 of the exact bytes between double quotes.
func ETag(body []byte) string {
	sum := sha256.Sum256(body)
	var b [2 + 2*sha256.Size]byte
	b[0] = '"'
	hex.Encode(b[1:], sum[:])
	b[len(b)-1] = '"'
	return string(b[:])
}

// owned lists the headers the handler sets itself.
var owned = []string{"Content-Type", "Content-Length", "Etag", "Cache-Control"}

// Handler returns an http.Handler that serves d as the package documentation
// describes. The body and headers are copied, and the ETag is computed once,
// when Handler is called.
func Handler(d Document) http.Handler {
	h := &handler{
		body:   append([]byte(nil), d.Body...),
		etag:   ETag(d.Body),
		header: http.Header{},
	}
	for k, vs := range d.Header {
		h.header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	for _, k := range owned {
		delete(h.header, k)
	}
	h.notModified = h.header.Clone()
	h.notModified["Etag"] = []string{h.etag}
	if d.CacheControl != "" {
		h.notModified["Cache-Control"] = []string{d.CacheControl}
	}
	h.ok = h.notModified.Clone()
	if d.ContentType != "" {
		h.ok["Content-Type"] = []string{d.ContentType}
	} else {
		// Without this, net/http would sniff a type from the body.
		h.ok["Content-Type"] = []string{"application/octet-stream"}
	}
	h.ok["Content-Length"] = []string{strconv.Itoa(len(h.body))}
	return h
}

type handler struct {
	body        []byte
	etag        string
	header      http.Header // extra headers only
	ok          http.Header // everything a 200 carries
	notModified http.Header // everything a 304 carries
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 && NoneMatch(inm, h.etag) {
		copyHeader(w.Header(), h.notModified)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	copyHeader(w.Header(), h.ok)
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(h.body)
	}
}

func copyHeader(dst, src http.Header) {
	for k, vs := range src {
		dst[k] = vs
	}
}

// NoneMatch reports whether the If-None-Match field values match etag under
// the weak comparison function of RFC 9110 Section 8.8.3.2. That is whether
// the condition is false and a GET should get 304 Not Modified. Each value is
// a comma-separated list of entity tags (weak or strong) or "*". Parsing
// stops at the first malformed element; the elements before it still count.
func NoneMatch(values []string, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, v := range values {
		for {
			v = strings.TrimLeft(v, " \t,")
			if v == "" {
				break
			}
			if v[0] == '*' {
				return true
			}
			tag := v
			if strings.HasPrefix(tag, "W/") {
				tag = tag[2:]
			}
			if len(tag) < 2 || tag[0] != '"' {
				break
			}
			end := strings.IndexByte(tag[1:], '"')
			if end < 0 {
				break
			}
			if tag[:end+2] == want {
				return true
			}
			v = tag[end+2:]
		}
	}
	return false
}
