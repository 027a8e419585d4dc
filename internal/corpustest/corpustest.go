// Package corpustest checks a corpus of defective documents against its
// files and its golden list of messages. Only tests import it.
package corpustest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Defect is one case of a corpus: the seed document with exactly one
// defect, and the one problem (pointer and rule) it must give.
type Defect struct {
	Name    string                   // the file is Name+".json"
	Mutate  func(m map[string]any)   // applied to the seed tree
	Raw     func(seed []byte) []byte // applied to the seed's bytes instead
	Pointer string
	Rule    string
}

// Corpus is a table of defective documents, one file each under Dir.
type Corpus struct {
	// Cases is the table, in the golden file's order.
	Cases []Defect
	// Dir holds a file for each case, and no other file.
	Dir string
	// Golden holds one line "NAME<tab>message" for each message of Check.
	Golden string
	// Update rewrites Dir and Golden from the table first.
	Update bool
	// Build returns the document of a case, as the table builds it.
	Build func(t testing.TB, d Defect) []byte
	// Check parses the document of a case, read from its file. It returns
	// the messages for the golden file.
	Check func(t *testing.T, d Defect, data []byte) []string
}

// Run checks every case in a subtest named after it. Each file must hold
// what Build returns, and the messages must match Golden.
func Run(t *testing.T, c Corpus) {
	t.Helper()
	if c.Update {
		require.NoError(t, os.RemoveAll(c.Dir))
		require.NoError(t, os.MkdirAll(c.Dir, 0o755))
		for _, k := range c.Cases {
			require.NoError(t, os.WriteFile(filepath.Join(c.Dir, k.Name+".json"), c.Build(t, k), 0o644))
		}
	}
	top := t.Name()
	var golden strings.Builder
	names := map[string]bool{}
	for _, k := range c.Cases {
		name := k.Name
		names[name+".json"] = true
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(c.Dir, name+".json"))
			require.NoError(t, err, "run go test -run %s -update", top)
			assert.Equal(t, string(c.Build(t, k)), string(data), "corpus file is stale; run with -update")
			for _, m := range c.Check(t, k, data) {
				fmt.Fprintf(&golden, "%s\t%s\n", name, m)
			}
		})
	}
	entries, err := os.ReadDir(c.Dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, names[e.Name()], "file %s has no table entry", e.Name())
	}
	if c.Update {
		require.NoError(t, os.WriteFile(c.Golden, []byte(golden.String()), 0o644))
	}
	want, err := os.ReadFile(c.Golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), golden.String(), "messages changed; run with -update and review the diff")
}
