package publish

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/agentweb/agentweb/internal/htmlhead"
	"github.com/agentweb/agentweb/internal/serve"
)

// pageHandler wraps the site's own page handler: the negotiation and
// decoration that Site.Handler's doc describes.
type pageHandler struct {
	k    *kit
	next http.Handler
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (h *pageHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.next.ServeHTTP(w, r)
		return
	}
	if target, ok := h.k.twinTarget(r.URL.Path); ok {
		// The page's Markdown twin: its Markdown form at its URL with .md.
		md := r.Clone(r.Context())
		md.URL.Path, md.URL.RawPath = target, ""
		md.Header.Set("Accept", "text/markdown")
		h.ServeHTTP(w, md)
		return
	}
	wantMD := prefersMarkdown(r.Header.Get("Accept"))
	path := r.URL.Path
	if p, ok := h.k.site.pageFor(path); ok && wantMD && p.Markdown != nil {
		h.writeMarkdown(w, r, path, nil, "", p.Markdown)
		return
	}

	inner := r.Clone(r.Context())
	inner.Method = http.MethodGet
	for _, k := range []string{"If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"} {
		inner.Header.Del(k)
	}
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 {
			bufPool.Put(buf)
		}
	}()
	rec := &recorder{w: w, head: r.Method == http.MethodHead, max: h.k.maxPage, buf: buf, header: http.Header{}}
	h.next.ServeHTTP(rec, inner)
	if rec.passed {
		return // too large: already streamed through
	}
	rec.sniff()
	status := rec.status()
	isHTML := mediaEssence(rec.header.Get("Content-Type")) == "text/html" && rec.header.Get("Content-Encoding") == ""
	if !isHTML {
		rec.flushThrough()
		return
	}
	if status != http.StatusOK {
		addVary(rec.header, "Accept")
		rec.flushThrough()
		return
	}
	page := buf.Bytes()
	if wantMD {
		head, _ := htmlhead.Parse(bytes.NewReader(page), h.k.origin.JoinPath(path))
		key := rec.header.Get("ETag")
		if key == "" {
			key = serve.ETag(page)
		}
		if md, err := h.k.md.convert(r.Context(), path+" "+key, page, h.k.abs("/")); err == nil {
			h.writeMarkdown(w, r, path, head, rec.header.Get("Last-Modified"), md)
			return
		}
		// A page that cannot be converted is served as HTML.
	}
	page, etag := h.k.pages.served(path, page, h.k.site.NoInject, h.k.decorate)
	hdr := w.Header()
	for k, vs := range rec.header {
		if k != "Content-Length" && k != "Etag" {
			hdr[k] = vs
		}
	}
	h.k.addLinks(hdr, path)
	addVary(hdr, "Accept")
	hdr.Set("ETag", etag)
	if serve.NoneMatch(r.Header.Values("If-None-Match"), etag) {
		hdr.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

// writeMarkdown answers with the Markdown form of the page at path: front
// matter, then body.
func (h *pageHandler) writeMarkdown(w http.ResponseWriter, r *http.Request, path string, head *htmlhead.Head, lastModified string, body []byte) {
	var b bytes.Buffer
	h.k.frontMatterFor(path, head, lastModified).write(&b)
	b.Write(body)
	if !bytes.HasSuffix(body, []byte("\n")) {
		b.WriteByte('\n')
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/markdown; charset=utf-8")
	addVary(hdr, "Accept")
	h.k.addLinks(hdr, path)
	if lastModified != "" {
		hdr.Set("Last-Modified", lastModified)
	}
	etag := serve.ETag(b.Bytes())
	hdr.Set("ETag", etag)
	if serve.NoneMatch(r.Header.Values("If-None-Match"), etag) {
		hdr.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}

// addVary adds name to the Vary header unless it is already listed (or
// Vary is "*").
func addVary(h http.Header, name string) {
	for _, v := range h.Values("Vary") {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f == "*" || strings.EqualFold(f, name) {
				return
			}
		}
	}
	h.Add("Vary", name)
}

// recorder buffers what the wrapped handler writes, up to max bytes. Past
// that it writes the status, the headers and the buffered bytes to the
// real ResponseWriter, and streams the rest through (passed is then
// true).
type recorder struct {
	w      http.ResponseWriter
	head   bool // the client asked HEAD: streamed bytes are dropped
	header http.Header
	code   int
	max    int64
	buf    *bytes.Buffer
	passed bool
}

func (rc *recorder) Header() http.Header { return rc.header }

func (rc *recorder) WriteHeader(code int) {
	if rc.code != 0 {
		return
	}
	if code >= 100 && code < 200 {
		rc.w.WriteHeader(code) // 1xx goes out as it is
		return
	}
	rc.code = code
}

func (rc *recorder) status() int {
	if rc.code == 0 {
		return http.StatusOK
	}
	return rc.code
}

func (rc *recorder) Write(p []byte) (int, error) {
	if rc.code == 0 {
		rc.WriteHeader(http.StatusOK)
	}
	if rc.passed {
		if rc.head {
			return len(p), nil
		}
		return rc.w.Write(p)
	}
	if int64(rc.buf.Len()+len(p)) > rc.max {
		rc.passThrough()
		if rc.head {
			return len(p), nil
		}
		return rc.w.Write(p)
	}
	return rc.buf.Write(p)
}

// Flush makes a streaming handler stream: everything so far is passed
// through and the page is not decorated.
func (rc *recorder) Flush() {
	if !rc.passed {
		rc.passThrough()
	}
	if f, ok := rc.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (rc *recorder) passThrough() {
	rc.passed = true
	rc.sniff()
	hdr := rc.w.Header()
	for k, vs := range rc.header {
		hdr[k] = vs
	}
	if mediaEssence(rc.header.Get("Content-Type")) == "text/html" {
		addVary(hdr, "Accept")
	}
	rc.w.WriteHeader(rc.status())
	if !rc.head {
		rc.w.Write(rc.buf.Bytes())
	}
}

// sniff sets the Content-Type net/http would send for what the handler
// wrote. A handler may write a page without setting Content-Type, and
// without deleting the key. It then gets the type http.DetectContentType
// finds in its first 512 bytes, as net/http's own ResponseWriter does
// (see [http.ResponseWriter]'s Write). The kit must see that type, or a
// sniffed HTML page would pass through undecorated.
func (rc *recorder) sniff() {
	if _, set := rc.header["Content-Type"]; set || rc.buf.Len() == 0 || rc.header.Get("Transfer-Encoding") != "" {
		return
	}
	rc.header.Set("Content-Type", http.DetectContentType(rc.buf.Bytes()))
}

// flushThrough writes a buffered response unchanged.
func (rc *recorder) flushThrough() {
	hdr := rc.w.Header()
	for k, vs := range rc.header {
		hdr[k] = vs
	}
	if hdr.Get("Content-Length") == "" && rc.status() != http.StatusNoContent && rc.status() != http.StatusNotModified {
		hdr.Set("Content-Length", strconv.Itoa(rc.buf.Len()))
	}
	rc.w.WriteHeader(rc.status())
	if !rc.head {
		rc.w.Write(rc.buf.Bytes())
	}
}

// twinTarget returns the listed page whose Markdown twin path is. A twin
// path is the page's path with ".md" appended, or "index.md" appended for
// a path that ends in "/". That is the llms.txt proposal's convention,
// which the scanner's markdown_twin observation reads. A path that is
// itself a listed page is never a twin.
func (k *kit) twinTarget(path string) (string, bool) {
	if !strings.HasSuffix(path, ".md") {
		return "", false
	}
	if _, listed := k.site.pageFor(path); listed {
		return "", false
	}
	if base, ok := strings.CutSuffix(path, "/index.md"); ok {
		if _, listed := k.site.pageFor(base + "/"); listed {
			return base + "/", true
		}
	}
	base := strings.TrimSuffix(path, ".md")
	if _, listed := k.site.pageFor(base); listed && base != "" && !strings.HasSuffix(base, "/") {
		return base, true
	}
	return "", false
}
