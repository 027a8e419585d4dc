package publish

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/serve"
)

// Sitemap limits of the sitemaps.org protocol 0.9: a sitemap holds at most
// 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed. Past either, the
// kit serves a sitemap index whose children hold the pages.
const (
	maxSitemapURLs  = 50_000
	maxSitemapBytes = 50 << 20
)

// sitemaps is the site's sitemap: one urlset, or an index and its
// children, each with its bytes and their gzip form.
type sitemaps struct {
	files map[string]*sitemapFile // by path
}

type sitemapFile struct {
	body      []byte // uncompressed, for tests and size accounting
	plain, gz http.Handler
}

// buildSitemaps writes /sitemap.xml from the pages: a urlset with loc and
// lastmod for every page, all on the site's own origin. Past perFile URLs
// or maxSitemapBytes, it writes a sitemapindex at /sitemap.xml whose
// children are /sitemap-1.xml, /sitemap-2.xml, ... (sitemaps.org,
// "Sitemap index").
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
func (k *kit) buildSitemaps(perFile int) (*sitemaps, error) {
	if perFile <= 0 || perFile > maxSitemapURLs {
		perFile = maxSitemapURLs
	}
	var chunks [][]byte
	var cur bytes.Buffer
	n := 0
	open := func() {
		cur.Reset()
		cur.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		n = 0
	}
	const closing = "</urlset>\n"
	flush := func() {
		cur.WriteString(closing)
		chunks = append(chunks, bytes.Clone(cur.Bytes()))
	}
	open()
	for _, p := range k.site.Pages {
		var entry strings.Builder
		entry.WriteString("<url><loc>")
		xml.EscapeText(&entry, []byte(k.abs(p.Path)))
		entry.WriteString("</loc>")
		if !p.Updated.IsZero() {
			entry.WriteString("<lastmod>" + p.Updated.UTC().Format(time.RFC3339) + "</lastmod>")
		}
		entry.WriteString("</url>\n")
		if n == perFile || cur.Len()+entry.Len()+len(closing) > maxSitemapBytes {
			flush()
			open()
		}
		cur.WriteString(entry.String())
		n++
	}
	flush()

	out := &sitemaps{files: map[string]*sitemapFile{}}
	if len(chunks) == 1 {
		out.files[sitemapPath] = newSitemapFile(chunks[0])
		return out, nil
	}
	var idx bytes.Buffer
	idx.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i, c := range chunks {
		path := "/sitemap-" + strconv.Itoa(i+1) + ".xml"
		out.files[path] = newSitemapFile(c)
		idx.WriteString("<sitemap><loc>")
		xml.EscapeText(&idx, []byte(k.abs(path)))
		idx.WriteString("</loc></sitemap>\n")
	}
	idx.WriteString("</sitemapindex>\n")
	if len(chunks) > maxSitemapURLs {
		return nil, fmt.Errorf("publish: %d sitemap files are more than one index may list", len(chunks))
	}
	out.files[sitemapPath] = newSitemapFile(idx.Bytes())
	return out, nil
}

func newSitemapFile(b []byte) *sitemapFile {
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(b)
	w.Close()
	vary := http.Header{"Vary": {"Accept-Encoding"}}
	return &sitemapFile{
		body:  b,
		plain: serve.Handler(serve.Document{Body: b, ContentType: "application/xml; charset=utf-8", CacheControl: cacheControl, Header: vary}),
		gz: serve.Handler(serve.Document{Body: gz.Bytes(), ContentType: "application/xml; charset=utf-8", CacheControl: cacheControl,
			Header: http.Header{"Vary": {"Accept-Encoding"}, "Content-Encoding": {"gzip"}}}),
	}
}

// acceptsGzip reports whether an Accept-Encoding field value gives gzip a
// q-value above 0 (RFC 9110 Section 12.5.3), by name or through "*".
func acceptsGzip(v string) bool {
	star := false
	for part := range strings.SplitSeq(v, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := 1.0
		if k, val, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			if f, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
				q = f
			}
		}
		switch name {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}
