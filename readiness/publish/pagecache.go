package publish

import (
	"bytes"
	"container/list"
	"hash/maphash"
	"sync"

	"github.com/agentweb/agentweb/internal/serve"
)

// pageCache keeps, per path, the last pages the site's handler wrote and
// what the kit serves for them (the decorated HTML and its ETag), so that
// a page that has not changed costs a hash and a comparison, not a head
// parse and a SHA-256. An entry is used only when the page's bytes are
// equal to the ones it was made from; the cache holds at most maxEntries
// entries and maxBytes bytes, least recently used first out.
type pageCache struct {
	seed       maphash.Seed
	mu         sync.Mutex
	lru        *list.List // of *pageEntry, most recent first
	byKey      map[pageKey]*list.Element
	bytes      int
	maxEntries int
	maxBytes   int
}

type pageKey struct {
	path string
	sum  uint64
}

type pageEntry struct {
	key          pageKey
	page, served []byte
	etag         string
	size         int // bytes held: page, and served when it is another slice
}

func newPageCache(maxEntries, maxBytes int) *pageCache {
	return &pageCache{seed: maphash.MakeSeed(), lru: list.New(), byKey: map[pageKey]*list.Element{}, maxEntries: maxEntries, maxBytes: maxBytes}
}

// served returns what to serve for page at path, and its strong ETag:
// decorate(page, path) unless noInject, from the cache when the same page
// was seen before. The returned bytes must not be modified.
func (c *pageCache) served(path string, page []byte, noInject bool, decorate func([]byte, string) []byte) ([]byte, string) {
	key := pageKey{path, maphash.Bytes(c.seed, page)}
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		if ent := e.Value.(*pageEntry); bytes.Equal(ent.page, page) {
			c.lru.MoveToFront(e)
			c.mu.Unlock()
			return ent.served, ent.etag
		}
	}
	c.mu.Unlock()

	orig := bytes.Clone(page)
	out := orig
	if !noInject {
		out = decorate(orig, path)
	}
	ent := &pageEntry{key: key, page: orig, served: out, etag: serve.ETag(out), size: len(orig)}
	if len(out) != len(orig) || (len(out) > 0 && &out[0] != &orig[0]) {
		ent.size += len(out)
	}
	if ent.size > c.maxBytes/4 {
		return ent.served, ent.etag // too large to keep
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byKey[key]; ok {
		c.bytes -= c.lru.Remove(old).(*pageEntry).size
	}
	c.byKey[key] = c.lru.PushFront(ent)
	c.bytes += ent.size
	for c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.lru.Remove(c.lru.Back()).(*pageEntry)
		delete(c.byKey, old.key)
		c.bytes -= old.size
	}
	return ent.served, ent.etag
}
