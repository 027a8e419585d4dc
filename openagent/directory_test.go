package openagent

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch"
)

func record(t testing.TB, source string, mutate func(p *Profile)) *Record {
	t.Helper()
	p := exampleProfile(t)
	if mutate != nil {
		mutate(p)
	}
	return &Record{Profile: p, Provenance: safefetch.Provenance{URL: source, FinalURL: source, Retrieved: time.Now()}}
}

func TestDirectory(t *testing.T) {
	f := false
	tests := []struct {
		name      string
		records   []*Record
		merged    bool
		conflicts []string // pointers
		public    bool
	}{
		{"one source", []*Record{record(t, "https://a.example/agent.json", nil)}, true, nil, true},
		{"two agreeing sources", []*Record{
			record(t, "https://a.example/agent.json", nil),
			record(t, "https://b.example/.well-known/openagent.json", nil),
		}, true, nil, true},
		{"conflicting owners", []*Record{
			record(t, "https://a.example/agent.json", nil),
			record(t, "https://b.example/agent.json", func(p *Profile) { p.OwnerDID = "mallory.example" }),
		}, false, []string{"/owner_did"}, false},
		{"owner and fields differ, owner first", []*Record{
			record(t, "https://a.example/agent.json", func(p *Profile) { p.Name = "Other" }),
			record(t, "https://b.example/agent.json", func(p *Profile) {
				p.OwnerDID = "mallory.example"
				p.PermissionsRequested = []string{"web:read", "repo:write"}
			}),
		}, false, []string{"/owner_did", "/name", "/permissions_requested"}, false},
		{"same source replaced", []*Record{
			record(t, "https://a.example/agent.json", func(p *Profile) { p.OwnerDID = "old.example" }),
			record(t, "https://a.example/agent.json", nil),
		}, true, nil, true},
		{"absent public equals the default true", []*Record{
			record(t, "https://a.example/agent.json", func(p *Profile) { p.Public = nil }),
			record(t, "https://b.example/agent.json", nil),
		}, true, nil, true},
		{"public false against the default is a conflict", []*Record{
			record(t, "https://a.example/agent.json", func(p *Profile) { p.Public = nil }),
			record(t, "https://b.example/agent.json", func(p *Profile) { p.Public = &f }),
		}, false, []string{"/public"}, false},
		{"private profile is not publicly indexed", []*Record{
			record(t, "https://a.example/agent.json", func(p *Profile) { p.Public = &f }),
		}, true, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d Directory
			for _, r := range tc.records {
				_, err := d.Add(r)
				require.NoError(t, err)
			}
			e, ok := d.Lookup("research.coinpay")
			require.True(t, ok)
			assert.Equal(t, tc.merged, e.Profile != nil)
			var ptrs []string
			for _, c := range e.Conflicts {
				ptrs = append(ptrs, c.Pointer)
				require.Len(t, c.Values, len(e.Sources))
				assert.Equal(t, "research.coinpay", c.DID)
			}
			assert.Equal(t, tc.conflicts, ptrs)
			assert.Equal(t, tc.public, e.Public())
			assert.Equal(t, tc.public, len(d.PublicEntries()) == 1)
			assert.Equal(t, e.Conflicts, d.Conflicts())
		})
	}
}

func TestDirectoryOwnershipConflictValues(t *testing.T) {
	var d Directory
	_, err := d.Add(record(t, "https://b.example/agent.json", func(p *Profile) { p.OwnerDID = "mallory.example" }))
	require.NoError(t, err)
	cs, err := d.Add(record(t, "https://a.example/agent.json", nil))
	require.NoError(t, err)
	require.Len(t, cs, 1)
	assert.True(t, cs[0].Ownership())
	assert.Equal(t, []SourcedValue{
		{SourceURL: "https://a.example/agent.json", Value: `"operator.coinpay"`},
		{SourceURL: "https://b.example/agent.json", Value: `"mallory.example"`},
	}, cs[0].Values)

	// Removing one source resolves the conflict.
	assert.True(t, d.Remove("https://b.example/agent.json"))
	assert.False(t, d.Remove("https://b.example/agent.json"))
	e, ok := d.Lookup("research.coinpay")
	require.True(t, ok)
	assert.Empty(t, e.Conflicts)
	require.NotNil(t, e.Profile)
	assert.Equal(t, "operator.coinpay", e.Profile.OwnerDID)
}

func TestDirectoryKeepsCopies(t *testing.T) {
	var d Directory
	r := record(t, "https://a.example/agent.json", nil)
	_, err := d.Add(r)
	require.NoError(t, err)
	r.Profile.OwnerDID = "changed.example"
	e, _ := d.Lookup("research.coinpay")
	e.Sources[0].Profile.Name = "changed"
	again, _ := d.Lookup("research.coinpay")
	assert.Equal(t, "operator.coinpay", again.Profile.OwnerDID)
	assert.Equal(t, "Research agent", again.Sources[0].Profile.Name)
}

func TestDirectoryEntriesAndErrors(t *testing.T) {
	var d Directory
	_, ok := d.Lookup("none.example")
	assert.False(t, ok)
	_, err := d.Add(nil)
	assert.ErrorIs(t, err, ErrEmptyRecord)
	_, err = d.Add(&Record{Provenance: safefetch.Provenance{URL: "https://a.example/"}})
	assert.ErrorIs(t, err, ErrEmptyRecord)
	_, err = d.Add(&Record{Profile: exampleProfile(t)})
	assert.ErrorIs(t, err, ErrEmptyRecord)
	for _, did := range []string{"b.example", "a.example", "c.example"} {
		_, err := d.Add(record(t, "https://"+did+"/agent.json", func(p *Profile) { p.DID = did }))
		require.NoError(t, err)
	}
	var dids []string
	for _, e := range d.Entries() {
		dids = append(dids, e.DID)
	}
	assert.Equal(t, []string{"a.example", "b.example", "c.example"}, dids)
	assert.Equal(t, 3, d.Len())
}

func TestDirectoryConcurrent(t *testing.T) {
	var d Directory
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				src := fmt.Sprintf("https://s%d.example/%d.json", i, j%3)
				_, err := d.Add(record(t, src, nil))
				assert.NoError(t, err)
				d.Lookup("research.coinpay")
				d.Entries()
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 24, d.Len())
	e, ok := d.Lookup("research.coinpay")
	require.True(t, ok)
	assert.Empty(t, e.Conflicts)
	assert.Len(t, e.Sources, 24)
}
