package strictjson

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toAny turns an ordered tree into the generic tree Decode builds.
func toAny(v Value) any {
	switch v.Kind {
	case KindBool:
		return v.Text == "true"
	case KindNumber:
		return json.Number(v.Text)
	case KindString:
		return v.Text
	case KindArray:
		a := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			a[i] = toAny(e)
		}
		return a
	case KindObject:
		m := make(map[string]any, len(v.Members))
		for _, mb := range v.Members {
			m[mb.Name] = toAny(mb.Value)
		}
		return m
	}
	return nil
}

// spansError checks that every value of the tree spans its own source text:
// data[Start:End] decodes to the same value. It returns the first mismatch.
func spansError(data []byte, v Value, ptr string) error {
	if v.Start < 0 || v.End > len(data) || v.Start >= v.End {
		return fmt.Errorf("%q: span [%d,%d) outside input of %d bytes", ptr, v.Start, v.End, len(data))
	}
	got, err := Decode(data[v.Start:v.End])
	if err != nil {
		return fmt.Errorf("%q: span %q: %v", ptr, data[v.Start:v.End], err)
	}
	if !equalTree(got, toAny(v)) {
		return fmt.Errorf("%q: span %q decodes to %#v, not %#v", ptr, data[v.Start:v.End], got, toAny(v))
	}
	for i, e := range v.Elems {
		if err := spansError(data, e, fmt.Sprintf("%s/%d", ptr, i)); err != nil {
			return err
		}
	}
	for _, m := range v.Members {
		if err := spansError(data, m.Value, ptr+"/"+EscapeToken(m.Name)); err != nil {
			return err
		}
	}
	return nil
}

// checkOrdered checks DecodeOrdered against Decode on an accepted text.
func checkOrdered(t *testing.T, data []byte) {
	t.Helper()
	want, err := Decode(data)
	require.NoError(t, err)
	got, err := DecodeOrdered(data)
	require.NoError(t, err)
	assert.Equal(t, want, toAny(got), "the ordered tree holds what Decode's does")
	assert.NoError(t, spansError(data, got, ""))
}

func TestDecodeOrdered(t *testing.T) {
	data := []byte(` {"z":1, "a":[true,false,null,"s\u00e9",-0.5e1,{}], "m":{"y":[],"b":"\"","a/b~":{"k":2}}} `)
	v, err := DecodeOrdered(data)
	require.NoError(t, err)
	assert.Equal(t, KindObject, v.Kind)
	assert.Equal(t, 1, v.Start)
	assert.Equal(t, len(data)-1, v.End)
	names := func(v Value) (ns []string) {
		for _, m := range v.Members {
			ns = append(ns, m.Name)
		}
		return ns
	}
	assert.Equal(t, []string{"z", "a", "m"}, names(v), "members in document order")
	assert.Equal(t, []string{"y", "b", "a/b~"}, names(v.Members[2].Value))

	arr := v.Members[1].Value
	require.Equal(t, KindArray, arr.Kind)
	var kinds []string
	var texts []string
	for _, e := range arr.Elems {
		kinds = append(kinds, e.Kind.String())
		texts = append(texts, e.Text)
	}
	assert.Equal(t, []string{"boolean", "boolean", "null", "string", "number", "object"}, kinds)
	assert.Equal(t, []string{"true", "false", "", "sé", "-0.5e1", ""}, texts, "strings unescaped, numbers as written")
	assert.Equal(t, `"s\u00e9"`, string(data[arr.Elems[3].Start:arr.Elems[3].End]))
	assert.Empty(t, arr.Elems[5].Members)
	assert.Equal(t, "invalid kind", Kind(99).String())
	checkOrdered(t, data)
}

func TestDecodeOrderedMatchesDecode(t *testing.T) {
	docs := map[string][]byte{"generated-5k": genDoc(5 << 10), "generated-60k": genDoc(60 << 10),
		"large object": []byte(`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":[{"a":1}]}`),
		"depth 64":     []byte(nest(`{"a":[`, "]}", 32, `"x"`)),
		"scalar":       []byte(` 12 `),
	}
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		docs[filepath.Base(f)] = b
	}
	for name, b := range docs {
		t.Run(name, func(t *testing.T) { checkOrdered(t, b) })
	}
}

// TestDecodeOrderedDoesNotAlias checks that the tree does not share memory
// with the caller's buffer.
func TestDecodeOrderedDoesNotAlias(t *testing.T) {
	b := []byte(`{"k":"value"}`)
	v, err := DecodeOrdered(b)
	require.NoError(t, err)
	for i := range b {
		b[i] = 'x'
	}
	assert.Equal(t, "k", v.Members[0].Name)
	assert.Equal(t, "value", v.Members[0].Value.Text)
}
