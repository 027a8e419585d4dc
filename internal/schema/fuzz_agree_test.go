package schema

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// The differential fuzz targets below hold the fast checker to the schema
// library on every schema the module embeds (the copies in
// testdata/agreement, which each spec package tests byte-identical to its
// own): for any document, a certain answer of the fast checker must be the
// library's answer, and Validate must say valid exactly when the library
// does. Go fuzzes one target per invocation, so each schema has its own;
// .ci/run fuzzes each for a bounded time, and a finding is kept under
// testdata/fuzz/<target> as a regression entry that plain go test runs.
//
// Each input is either a whole document (path "" and value a JSON text) or
// an edit of one of the schema's documents (valid and invalid ones): the
// value at path (slash-separated segments: a member name, or a number that
// picks a member in sorted order or an array element, modulo their count)
// is replaced by value, or removed when value is not JSON.
// Edits keep most of a document valid, which is where the checker's and the
// library's answers are hardest to keep equal.

func FuzzFastAgreesWithAgenticSchema(f *testing.F)     { fuzzAgreement(f, "agentic") }
func FuzzFastAgreesWithOpenAgentSchema(f *testing.F)   { fuzzAgreement(f, "openagent") }
func FuzzFastAgreesWithAgentSignupSchema(f *testing.F) { fuzzAgreement(f, "agentsignup") }
func FuzzFastAgreesWithAICatalogSchema(f *testing.F)   { fuzzAgreement(f, "aicatalog") }

func fuzzAgreement(f *testing.F, name string) {
	var c *agreementCase
	for _, a := range agreementCases(f) {
		if a.name == name {
			c = &a
		}
	}
	if c == nil {
		f.Fatalf("no schema %s in testdata/agreement", name)
	}
	var seeds []any
	for _, group := range []map[string]any{c.valid, c.bad} {
		for _, label := range sortedKeys(group) {
			seeds = append(seeds, group[label])
			data, err := json.Marshal(group[label])
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(0), "", data)
		}
	}
	// A few edits of each valid document to start from.
	for i := range len(c.valid) {
		f.Add(uint8(i), "name", []byte(`""`))
		f.Add(uint8(i), "0", []byte(`null`))
		f.Add(uint8(i), "0/0", []byte(`1e400`))
		f.Add(uint8(i), "1/1", []byte(`[]`))
	}
	f.Fuzz(func(t *testing.T, which uint8, path string, value []byte) {
		var doc any
		if path == "" {
			d, err := strictjson.Decode(value)
			if err != nil {
				return
			}
			doc = d
		} else {
			doc = edit(deepCopy(seeds[int(which)%len(seeds)]), path, value)
		}
		label := strconv.Quote(path) + " " + strconv.Quote(string(value))
		fastAgrees(t, c.schema, doc, label)
		fast, lib := c.schema.Validate(doc) == nil, c.schema.s.Validate(doc) == nil
		if fast != lib {
			data, _ := json.Marshal(doc)
			t.Fatalf("Validate says valid=%t, the library valid=%t, on %s", fast, lib, data)
		}
	})
}

// edit replaces the value at path in doc by the JSON text value, or removes
// it when value is not JSON, and returns the document. A path segment is a
// member name, or a number that picks a member in sorted order or an array
// element, modulo their count; a named member that does not exist is added
// at the last segment.
func edit(doc any, path string, value []byte) any {
	v, err := strictjson.Decode(value)
	remove := err != nil
	segs := strings.Split(path, "/")
	if len(segs) > 16 {
		segs = segs[:16]
	}
	var set func(cur any, i int) any
	set = func(cur any, i int) any {
		seg := segs[i]
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			if n, err := strconv.Atoi(seg); err == nil && n >= 0 && len(c) > 0 {
				// A number picks an existing member, in sorted order, so
				// that the fuzzer reaches every member without its name.
				keys := make([]string, 0, len(c))
				for k := range c {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				seg = keys[n%len(keys)]
			}
			if last {
				if remove {
					delete(c, seg)
				} else {
					c[seg] = v
				}
				return c
			}
			if next, ok := c[seg]; ok {
				c[seg] = set(next, i+1)
			}
			return c
		case []any:
			if len(c) == 0 {
				return c
			}
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 {
				n = len(seg)
			}
			n %= len(c)
			if last {
				if remove {
					return append(c[:n:n], c[n+1:]...)
				}
				c[n] = v
				return c
			}
			c[n] = set(c[n], i+1)
			return c
		default:
			if last && !remove {
				return v
			}
			return cur
		}
	}
	return set(doc, 0)
}

// deepCopy copies a generic JSON tree.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	default:
		return v
	}
}

// agreementFuzzTargets names the differential fuzz target of every schema
// in testdata/agreement; .ci/run fuzzes each.
var agreementFuzzTargets = map[string]func(*testing.F){
	"agentic":     FuzzFastAgreesWithAgenticSchema,
	"openagent":   FuzzFastAgreesWithOpenAgentSchema,
	"agentsignup": FuzzFastAgreesWithAgentSignupSchema,
	"aicatalog":   FuzzFastAgreesWithAICatalogSchema,
}

// TestEveryEmbeddedSchemaIsFuzzed finds every JSON Schema file of the
// module (outside testdata) and requires a byte-identical copy in
// testdata/agreement with a differential fuzz target that .ci/run runs, so
// that a schema added to a package cannot escape the fast checker's
// differential test.
func TestEveryEmbeddedSchemaIsFuzzed(t *testing.T) {
	copies := map[string]string{} // contents -> agreement name
	files, err := filepath.Glob(filepath.Join("testdata", "agreement", "*.schema.json"))
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		copies[string(b)] = strings.TrimSuffix(filepath.Base(f), ".schema.json")
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	require.NoError(t, err)
	var found []string
	root := filepath.Join("..", "..")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".schema.json") {
			return nil
		}
		found = append(found, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name, ok := copies[string(b)]
		if !assert.True(t, ok, "%s has no identical copy in testdata/agreement", p) {
			return nil
		}
		target, ok := agreementFuzzTargets[name]
		if assert.True(t, ok, "%s has no differential fuzz target", name) {
			fn := runtime.FuncForPC(reflect.ValueOf(target).Pointer()).Name()
			fn = fn[strings.LastIndexByte(fn, '.')+1:]
			assert.Contains(t, string(ci), fn, ".ci/run must fuzz %s", fn)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Len(t, found, len(copies), "every agreement copy is the copy of a schema of the module: %v", found)
}
