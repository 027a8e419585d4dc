// Package corpustest checks a corpus of defective documents against its
// files and its golden list of messages. Only tests import it.
package corpustest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/problem"
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

// Corpus is a table of defective documents and the parser they fail.
type Corpus struct {
	// Name names the files: testdata/Name holds Name+".json" for each case,
	// and no other file; testdata/Name.golden holds their messages.
	Name string
	// Cases is the table, in the golden file's order.
	Cases []Defect
	// Update rewrites the files and the golden file from the table first.
	Update bool
	// Build returns the document of a case, as the table builds it.
	Build func(t testing.TB, d Defect) []byte
	// Parse parses a document. It returns the value it gives and its error.
	Parse func(data []byte) (any, error)
	// Check, when set, makes more assertions on the error of a case.
	Check func(t *testing.T, d Defect, err error)
}

// Run checks every case in a subtest named after it. Each file must hold
// what Build returns. Parse must fail with a [*problem.ValidationError] of
// exactly the case's one problem, and give no value. The messages must
// match the golden file.
func Run(t *testing.T, c Corpus) {
	t.Helper()
	dir := filepath.Join("testdata", c.Name)
	goldenPath := filepath.Join("testdata", c.Name+".golden")
	if c.Update {
		require.NoError(t, os.RemoveAll(dir))
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, d := range c.Cases {
			require.NoError(t, os.WriteFile(filepath.Join(dir, d.Name+".json"), c.Build(t, d), 0o644))
		}
	}
	top := t.Name()
	var golden []byte
	names := map[string]bool{}
	for _, d := range c.Cases {
		names[d.Name+".json"] = true
		t.Run(d.Name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, d.Name+".json"))
			require.NoError(t, err, "run go test -run %s -update", top)
			assert.Equal(t, string(c.Build(t, d)), string(data), "corpus file is stale; run with -update")
			v, err := c.Parse(data)
			require.Error(t, err)
			assert.Nil(t, v, "no usable value for a defective document")
			var ve *problem.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Len(t, ve.Problems, 1, "one defect gives one problem: %v", ve.Problems)
			assert.Equal(t, d.Pointer, ve.Problems[0].Pointer)
			assert.Equal(t, d.Rule, ve.Problems[0].Rule)
			assert.NotEmpty(t, ve.Problems[0].Message)
			if c.Check != nil {
				c.Check(t, d, err)
			}
			golden = fmt.Appendf(golden, "%s\t%s\n", d.Name, ve.Problems[0])
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, names[e.Name()], "file %s has no table entry", e.Name())
	}
	if c.Update {
		require.NoError(t, os.WriteFile(goldenPath, golden, 0o644))
	}
	want, err := os.ReadFile(goldenPath)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(golden), "messages changed; run with -update and review the diff")
}
