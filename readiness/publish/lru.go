package publish

import (
	"container/list"
	"sync"
)

// lru is the kit's one bounded cache: at most maxEntries entries and
// maxBytes bytes (as each entry's size says), the least recently used
// evicted first. It is safe for concurrent use.
type lru[K comparable, V any] struct {
	mu         sync.Mutex
	order      *list.List // of *lruEntry[K, V], most recent first
	byKey      map[K]*list.Element
	bytes      int
	maxEntries int
	maxBytes   int
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	size int
}

func newLRU[K comparable, V any](maxEntries, maxBytes int) *lru[K, V] {
	return &lru[K, V]{order: list.New(), byKey: map[K]*list.Element{}, maxEntries: maxEntries, maxBytes: maxBytes}
}

// get returns the value kept for key and marks it recently used.
func (c *lru[K, V]) get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[K, V]).val, true
}

// put keeps val under key, replacing what was there, unless its size is
// over a quarter of the cache, and evicts until the bounds hold.
func (c *lru[K, V]) put(key K, val V, size int) {
	if size > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.byKey[key]; ok {
		c.bytes -= c.order.Remove(old).(*lruEntry[K, V]).size
	}
	c.byKey[key] = c.order.PushFront(&lruEntry[K, V]{key, val, size})
	c.bytes += size
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.order.Remove(c.order.Back()).(*lruEntry[K, V])
		delete(c.byKey, old.key)
		c.bytes -= old.size
	}
}

// len is the number of entries kept.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
