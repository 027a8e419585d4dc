package openagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"sync"
)

// Directory is a small in-memory index of fetched profiles, keyed by did,
// that keeps every source of a did apart. [OpenAgent 0.1], "Publication and
// discovery", says: "Two URLs with the same did are two sources about one
// agent, and conflicting ownership claims must be surfaced rather than
// silently combined".
//
// Records are added per source URL; adding a record for a source URL that is
// already present replaces it (a refresh). When the sources of one did
// disagree on any member, owner_did included, the entry has no merged
// profile, only its sources and the conflicts. A Directory never calls a
// webhook_url, never fetches and never launches anything; it does not verify
// ownership claims either.
//
// The zero value is an empty directory. A Directory is safe for concurrent
// use. It stores copies of the records it is given and returns copies.
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
type Directory struct {
	mu       sync.RWMutex
	bySource map[string]*Record
}

// ErrEmptyRecord is returned by [Directory.Add] for a record without a
// profile or a source URL.
var ErrEmptyRecord = errors.New("openagent: record has no profile or no source URL")

// Entry is everything a [Directory] knows about one did.
type Entry struct {
	// DID is the agent identity the sources share.
	DID string `json:"did"`
	// Profile is the profile every source agrees on, or nil when the sources
	// conflict: conflicting claims are never combined.
	Profile *Profile `json:"profile,omitempty"`
	// Sources are the records of every source URL for this did, sorted by
	// source URL.
	Sources []*Record `json:"-"`
	// SourceURLs are the source URLs of Sources, in the same order.
	SourceURLs []string `json:"sources"`
	// Conflicts lists the members on which sources disagree; owner_did
	// first, then in the specification's member order.
	Conflicts []Conflict `json:"conflicts,omitempty"`
}

// Public reports whether the entry may be indexed publicly: no conflict,
// and no source says public: false ([OpenAgent 0.1], "A directory must not
// publicly index such a record").
//
// [OpenAgent 0.1]: https://github.com/profullstack/logicsrc/blob/main/docs/openagent.md
func (e Entry) Public() bool {
	if len(e.Conflicts) > 0 {
		return false
	}
	for _, r := range e.Sources {
		if !r.Profile.IsPublic() {
			return false
		}
	}
	return true
}

// Conflict is one member on which the sources of a did disagree.
type Conflict struct {
	// DID is the agent identity.
	DID string `json:"did"`
	// Pointer is the JSON Pointer of the member, such as "/owner_did".
	Pointer string `json:"pointer"`
	// Values are the member's value from every source, sorted by source
	// URL; Value is the member's JSON text, or "" when the source omits it.
	Values []SourcedValue `json:"values"`
}

// Ownership reports whether the conflict is about owner_did: two sources
// claim different owners for one agent.
func (c Conflict) Ownership() bool { return c.Pointer == "/owner_did" }

// SourcedValue is one source's value of a conflicting member.
type SourcedValue struct {
	SourceURL string `json:"source_url"`
	Value     string `json:"value"`
}

// Add stores a copy of rec under its source URL, replacing an earlier record
// of the same source, and returns the conflicts of rec's did after the
// addition (nil when its sources agree).
func (d *Directory) Add(rec *Record) ([]Conflict, error) {
	if rec == nil || rec.Profile == nil || rec.URL == "" {
		return nil, ErrEmptyRecord
	}
	c := copyRecord(rec)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bySource == nil {
		d.bySource = make(map[string]*Record)
	}
	d.bySource[c.URL] = c
	e, _ := d.entryLocked(c.Profile.DID)
	return e.Conflicts, nil
}

// Remove forgets the record of a source URL and reports whether there was
// one.
func (d *Directory) Remove(sourceURL string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.bySource[sourceURL]
	delete(d.bySource, sourceURL)
	return ok
}

// Lookup returns the entry of a did.
func (d *Directory) Lookup(did string) (Entry, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.entryLocked(did)
}

// Entries returns every entry, sorted by did.
func (d *Directory) Entries() []Entry {
	d.mu.RLock()
	defer d.mu.RUnlock()
	dids := map[string]bool{}
	for _, r := range d.bySource {
		dids[r.Profile.DID] = true
	}
	keys := make([]string, 0, len(dids))
	for k := range dids {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		e, _ := d.entryLocked(k)
		out = append(out, e)
	}
	return out
}

// PublicEntries returns the entries a public directory may index: those
// for which [Entry.Public] is true.
func (d *Directory) PublicEntries() []Entry {
	var out []Entry
	for _, e := range d.Entries() {
		if e.Public() {
			out = append(out, e)
		}
	}
	return out
}

// Conflicts returns the conflicts of every did, sorted by did.
func (d *Directory) Conflicts() []Conflict {
	var out []Conflict
	for _, e := range d.Entries() {
		out = append(out, e.Conflicts...)
	}
	return out
}

// Len returns the number of source records held.
func (d *Directory) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.bySource)
}

func (d *Directory) entryLocked(did string) (Entry, bool) {
	var recs []*Record
	for _, r := range d.bySource {
		if r.Profile.DID == did {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return Entry{}, false
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].URL < recs[j].URL })
	e := Entry{DID: did}
	for _, r := range recs {
		e.Sources = append(e.Sources, copyRecord(r))
		e.SourceURLs = append(e.SourceURLs, r.URL)
	}
	e.Conflicts = conflicts(did, recs)
	if len(e.Conflicts) == 0 {
		e.Profile = recs[0].Profile.Clone()
	}
	return e, true
}

// conflicts compares the members of the profiles of one did.
func conflicts(did string, recs []*Record) []Conflict {
	if len(recs) < 2 {
		return nil
	}
	values := make([]map[string]string, len(recs))
	for i, r := range recs {
		values[i] = memberTexts(r.Profile)
	}
	order := append([]string{"owner_did"}, topMembers...)
	var out []Conflict
	seen := map[string]bool{}
	for _, m := range order {
		if seen[m] {
			continue
		}
		seen[m] = true
		differ := false
		for i := 1; i < len(values); i++ {
			if compareText(m, values[i][m]) != compareText(m, values[0][m]) {
				differ = true
				break
			}
		}
		if !differ {
			continue
		}
		c := Conflict{DID: did, Pointer: "/" + m}
		for i, r := range recs {
			c.Values = append(c.Values, SourcedValue{SourceURL: r.URL, Value: values[i][m]})
		}
		out = append(out, c)
	}
	return out
}

// compareText returns the text a member is compared by: an absent public
// member means true, the schema's default, so it does not conflict with an
// explicit true.
func compareText(member, text string) string {
	if member == "public" && text == "" {
		return "true"
	}
	return text
}

// memberTexts returns the compact JSON text of every member of p.
func memberTexts(p *Profile) map[string]string {
	raw, err := p.MarshalJSON()
	if err != nil {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		var b bytes.Buffer
		if json.Compact(&b, v) == nil {
			out[k] = b.String()
		}
	}
	return out
}

func copyRecord(r *Record) *Record {
	c := *r
	c.Profile = r.Profile.Clone()
	c.Body = append([]byte(nil), r.Body...)
	return &c
}
