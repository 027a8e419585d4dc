package webread

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// SitemapNS is the sitemaps.org 0.9 namespace.
const SitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// Bounds of the sitemap reader ([sitemaps.org]: at most 50,000 URLs and
// 50 MB uncompressed a file; a loc is under 2,048 characters).
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
const (
	MaxSitemapLocs   = 50000
	maxSitemapTokens = 1 << 20
	maxSitemapDepth  = 16
	maxLocBytes      = 2048
)

// The sitemap roots.
const (
	SitemapURLSet = "urlset"
	SitemapIndex  = "sitemapindex"
)

var (
	// ErrNotSitemap is wrapped by every error of [ParseSitemap].
	ErrNotSitemap = errors.New("not a sitemap")
	// ErrTooLarge is wrapped by [Gunzip] when the uncompressed data is over
	// the cap: a decompression bomb is refused, never read in full.
	ErrTooLarge = errors.New("uncompressed size over the cap")
	// ErrGzip is wrapped by [Gunzip] when the data is not a valid gzip
	// stream.
	ErrGzip = errors.New("not a valid gzip stream")
)

// SitemapError says why a text is not a sitemap. It wraps [ErrNotSitemap].
type SitemapError struct {
	Reason string
}

// Error returns "not a sitemap: " and the reason.
func (e *SitemapError) Error() string { return "not a sitemap: " + e.Reason }

// Unwrap returns [ErrNotSitemap].
func (e *SitemapError) Unwrap() error { return ErrNotSitemap }

func notSitemap(format string, args ...any) error {
	return &SitemapError{Reason: fmt.Sprintf(format, args...)}
}

// Sitemap is a sitemap as the strict reader saw it.
type Sitemap struct {
	// Root is [SitemapURLSet] or [SitemapIndex].
	Root string
	// Locs are the page URLs (urlset/url/loc) or the child sitemaps
	// (sitemapindex/sitemap/loc), trimmed, in document order.
	Locs []string
}

// ParseSitemap reads a sitemap with a strict XML decoder ([sitemaps.org],
// "XML tag definitions"). The root must be urlset or sitemapindex in the
// sitemaps.org 0.9 namespace. Every loc of a url (or of a sitemap, in an
// index) is collected. The token count, depth and loc count are bounded.
// Entities other than XML's five are refused by the strict decoder;
// encodings other than UTF-8 are refused. Gzip-compressed data is not
// accepted here: call [Gunzip] first.
//
// [sitemaps.org]: https://www.sitemaps.org/protocol.html
func ParseSitemap(data []byte) (*Sitemap, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(charset string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "utf-8") || strings.EqualFold(charset, "utf8") {
			return r, nil
		}
		return nil, fmt.Errorf("encoding %q is not UTF-8", charset)
	}
	doc := &Sitemap{}
	var stack []xml.Name
	var loc *strings.Builder
	for tokens := 0; ; tokens++ {
		if tokens > maxSitemapTokens {
			return nil, notSitemap("more than %d XML tokens", maxSitemapTokens)
		}
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &SitemapError{Reason: err.Error()}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) == 0 {
				if doc.Root != "" {
					return nil, notSitemap("more than one root element")
				}
				if t.Name.Local != SitemapURLSet && t.Name.Local != SitemapIndex {
					return nil, notSitemap("root element <%s>, not <urlset> or <sitemapindex>", t.Name.Local)
				}
				if t.Name.Space != SitemapNS {
					return nil, notSitemap("root element in namespace %q, not %q", t.Name.Space, SitemapNS)
				}
				doc.Root = t.Name.Local
			}
			stack = append(stack, t.Name)
			if len(stack) > maxSitemapDepth {
				return nil, notSitemap("elements nested deeper than %d", maxSitemapDepth)
			}
			want := "url"
			if doc.Root == SitemapIndex {
				want = "sitemap"
			}
			if len(stack) == 3 && t.Name.Local == "loc" && t.Name.Space == SitemapNS && stack[1].Local == want && stack[1].Space == SitemapNS {
				if len(doc.Locs) >= MaxSitemapLocs {
					return nil, notSitemap("more than %d locs", MaxSitemapLocs)
				}
				loc = &strings.Builder{}
			}
		case xml.CharData:
			if loc != nil && loc.Len() <= maxLocBytes {
				loc.Write(t)
			}
		case xml.EndElement:
			if loc != nil && len(stack) == 3 {
				doc.Locs = append(doc.Locs, strings.TrimSpace(loc.String()))
				loc = nil
			}
			stack = stack[:len(stack)-1]
		}
	}
	if doc.Root == "" {
		return nil, notSitemap("no root element")
	}
	return doc, nil
}

// IsGzip reports whether data starts with the gzip magic bytes (RFC 1952
// Section 2.3.1).
//
// [RFC 1952]: https://www.rfc-editor.org/rfc/rfc1952
func IsGzip(data []byte) bool {
	return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b
}

// Gunzip decompresses a gzip stream (RFC 1952; every member, as gzip(1)
// does) into at most maxBytes bytes. Data over the cap is refused with an
// error wrapping [ErrTooLarge] that gives both sizes, after reading at most
// maxBytes+1 bytes of output: a decompression bomb costs its cap, no more. A
// corrupt or truncated stream gives an error wrapping [ErrGzip].
//
// [RFC 1952]: https://www.rfc-editor.org/rfc/rfc1952
func Gunzip(data []byte, maxBytes int64) ([]byte, error) {
	return GunzipCharged(data, maxBytes, nil)
}

// gunzipStep is the unit in which [GunzipCharged] inflates and charges.
const gunzipStep = 32 << 10

// GunzipCharged is [Gunzip] that tells charge, when not nil, of every byte
// it inflates, at most 32 KiB at a time. So the inflated bytes count
// against a total (a scan's byte budget) as well as against maxBytes. An
// error from charge ends the decompression and is returned, wrapped; the
// bytes it was told of stay charged.
func GunzipCharged(data []byte, maxBytes int64, charge func(n int) error) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrGzip, err)
	}
	defer zr.Close()
	lr := io.LimitReader(zr, maxBytes+1)
	var out []byte
	buf := make([]byte, gunzipStep)
	for {
		n, rerr := lr.Read(buf)
		if n > 0 {
			out = append(out, buf[:n]...)
			if charge != nil {
				if cerr := charge(n); cerr != nil {
					return nil, fmt.Errorf("inflating past what is left: %w", cerr)
				}
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, fmt.Errorf("%w: %w", ErrGzip, rerr)
		}
	}
	if int64(len(out)) > maxBytes {
		return nil, fmt.Errorf("%w: %d compressed bytes inflate past %d bytes", ErrTooLarge, len(data), maxBytes)
	}
	return out, nil
}
