package publish

import (
	"bytes"
	"hash/maphash"

	"github.com/agentweb/agentweb/internal/serve"
)

// pageCache keeps, per path, the last pages the site's handler wrote and
// what the kit serves for them: the decorated HTML and its ETag. So a
// page that has not changed costs a hash and a comparison, not a head
// parse and a SHA-256. An entry is used only when the page's bytes are
// equal to the ones it was made from; the cache holds at most maxEntries
// entries and maxBytes bytes, least recently used first out.
type pageCache struct {
	seed  maphash.Seed
	cache *lru[pageKey, *pageEntry]
}

type pageKey struct {
	path string
	sum  uint64
}

type pageEntry struct {
	page, served []byte
	etag         string
}

func newPageCache(maxEntries, maxBytes int) *pageCache {
	return &pageCache{seed: maphash.MakeSeed(), cache: newLRU[pageKey, *pageEntry](maxEntries, maxBytes)}
}

// served returns what to serve for page at path, and its strong ETag:
// decorate(page, path) unless noInject, from the cache when the same page
// was seen before. The returned bytes must not be modified.
func (c *pageCache) served(path string, page []byte, noInject bool, decorate func([]byte, string) []byte) ([]byte, string) {
	key := pageKey{path, maphash.Bytes(c.seed, page)}
	if ent, ok := c.cache.get(key); ok && bytes.Equal(ent.page, page) {
		return ent.served, ent.etag
	}
	orig := bytes.Clone(page)
	out := orig
	if !noInject {
		out = decorate(orig, path)
	}
	ent := &pageEntry{page: orig, served: out, etag: serve.ETag(out)}
	size := len(orig) // bytes held: the page, and what is served when it is another slice
	if len(out) != len(orig) || (len(out) > 0 && &out[0] != &orig[0]) {
		size += len(out)
	}
	c.cache.put(key, ent, size)
	return ent.served, ent.etag
}
