package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"

	"github.com/agentweb/agentweb/internal/htmlhead"
)

// errConvert reports an HTML page that could not be turned into Markdown
// within the bounds; the kit then serves the HTML.
var errConvert = errors.New("publish: markdown conversion failed")

// frontMatter is the Markdown form's header (the agent-readiness scoring
// method, Section 04): title, description, canonical, updated and language, each
// a single-line YAML scalar, between two "---" lines.
type frontMatter struct {
	title, description, canonical, updated, language string
}

func (f frontMatter) write(b *bytes.Buffer) {
	b.WriteString("---\n")
	for _, kv := range [][2]string{
		{"title", f.title}, {"description", f.description}, {"canonical", f.canonical},
		{"updated", f.updated}, {"language", f.language},
	} {
		if kv[1] != "" {
			b.WriteString(kv[0] + ": " + yamlScalar(kv[1]) + "\n")
		}
	}
	b.WriteString("---\n\n")
}

// yamlScalar writes v as a YAML plain scalar when that reads back as v, and
// as a single-quoted scalar (with ' doubled) otherwise (YAML 1.2, Section
// 7.3.2). v is one line.
func yamlScalar(v string) string {
	v = oneLine(v)
	plain := v != "" && !strings.ContainsAny(v[:1], "-?:,[]{}#&*!|>'\"%@`") &&
		!strings.Contains(v, ": ") && !strings.Contains(v, " #") && !strings.HasSuffix(v, ":")
	if plain {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// frontMatterFor gathers the front matter of the page at path from the
// site's facts, falling back to the page's own head.
func (k *kit) frontMatterFor(path string, head *htmlhead.Head, lastModified string) frontMatter {
	f := frontMatter{canonical: k.abs(path), language: k.site.Language}
	if p, ok := k.site.pageFor(path); ok {
		f.title, f.description = p.Title, p.Description
		if !p.Updated.IsZero() {
			f.updated = p.Updated.UTC().Format(time.DateOnly)
		}
	}
	if head != nil {
		if f.title == "" {
			f.title = head.Title
		}
		if f.description == "" {
			f.description, _ = head.MetaContent("description")
		}
		if c := head.LinksWithRel("canonical"); len(c) > 0 && c[0].Href != "" {
			f.canonical = c[0].Href
		}
		if head.Lang != "" {
			f.language = head.Lang
		}
	}
	if f.updated == "" && lastModified != "" {
		if t, err := time.Parse(time.RFC1123, lastModified); err == nil {
			f.updated = t.UTC().Format(time.DateOnly)
		}
	}
	return f
}

// mdConverter turns page HTML into Markdown with html-to-markdown,
// bounded in time and in how many conversions run at once, and caches the
// result by the page's entity tag.
type mdConverter struct {
	timeout time.Duration
	cache   *lru[string, []byte]
	// slots holds one token per conversion running, abandoned ones
	// included: a conversion that timed out keeps its token until its
	// goroutine ends, so slow pages cannot pile up as CPU.
	slots chan struct{}
}

// errBusy is the error of a conversion that found no free slot within its
// timeout.
var errBusy = errors.New("every conversion slot is taken")

func newConverter(timeout time.Duration, entries, maxBytes, maxRunning int) *mdConverter {
	return &mdConverter{timeout: timeout, cache: newLRU[string, []byte](entries, maxBytes), slots: make(chan struct{}, max(1, maxRunning))}
}

// convert returns the Markdown body of page, from the cache when key (the
// page's entity tag) was converted before. The conversion reads its own
// copy of page, so the caller may reuse page as soon as convert returns,
// even when the conversion timed out and still runs.
func (c *mdConverter) convert(ctx context.Context, key string, page []byte, domain string) ([]byte, error) {
	if md, ok := c.cache.get(key); ok {
		return md, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: %w (%w)", errConvert, errBusy, context.Cause(ctx))
	}
	type result struct {
		md  []byte
		err error
	}
	done := make(chan result, 1)
	own := bytes.Clone(page)
	go func() {
		defer func() { <-c.slots }()
		md, err := newMarkdownConverter().ConvertReader(bytes.NewReader(own), converter.WithContext(ctx), converter.WithDomain(domain))
		done <- result{md, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: %w", errConvert, context.Cause(ctx))
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w", errConvert, r.err)
	}
	md := bytes.TrimSpace(r.md)
	c.cache.put(key, md, len(md))
	return md, nil
}
