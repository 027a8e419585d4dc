package agentic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// edit is one change to the seed document testdata/valid/shop.json. It
// replaces or adds the JSON value at an RFC 6901 pointer, or removes the
// member there. A final "-" appends to an array.
type edit struct {
	ptr, value string
	del        bool
}

func set(ptr, jsonValue string) edit { return edit{ptr: ptr, value: jsonValue} }
func del(ptr string) edit            { return edit{ptr: ptr, del: true} }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// invalidCase is one document of the invalid corpus, named RULE__case: the
// seed with its edits, or raw bytes for what a tree cannot express
// (duplicate members, broken syntax). It must give exactly the rule its
// name starts with.
type invalidCase struct {
	name  string
	edits []edit
	raw   string
}

// invalidCases generate testdata/invalid (go test -run TestInvalidCorpusFiles
// -update). The documents at the count and size limits are built by
// generatedCorpus instead and never written.
var invalidCases = []invalidCase{
	{name: "document-binding__document-linked", edits: []edit{set("/resources/1/availability", `"linked"`)}},
	{name: "document-binding__document-not-openapi", edits: []edit{set("/resources/1/kind", `"documentation"`)}},
	{name: "document-binding__document-unknown", edits: []edit{set("/apis/0/document", `"https://shop.example/other.json"`)}},
	{name: "json-duplicate-member__dup-name", raw: `{"agentic":"1.1.0","type":"site","name":"a","name":"b"}`},
	{name: "json-syntax__truncated", raw: `{"agentic":"1.1.0",`},
	{name: "json-trailing-data__two-docs", raw: `{} {}`},
	{name: "operation-duplicate__same-method-path", edits: []edit{set("/apis/0/operations/-", `{"method":"GET","path":"/orders","operationId":"again"}`)}},
	{name: "origin-form__origin-path", edits: []edit{set("/origin", `"https://shop.example/shop"`)}},
	{name: "origin-form__origin-slash", edits: []edit{set("/origin", `"https://shop.example/"`)}},
	{name: "origin-form__origin-upper", edits: []edit{set("/origin", `"https://Shop.example"`)}},
	{name: "path-form__backslash", edits: []edit{set("/apis/0/operations/0/path", `"/orders\\x"`)}},
	{name: "path-form__double-slash", edits: []edit{set("/apis/0/operations/0/path", `"//orders"`)}},
	{name: "path-form__fragment", edits: []edit{set("/apis/0/operations/0/path", `"/orders#x"`)}},
	{name: "path-form__no-slash", edits: []edit{set("/apis/0/operations/0/path", `"orders"`)}},
	{name: "path-form__query", edits: []edit{set("/apis/0/operations/0/path", `"/orders?x=1"`)}},
	{name: "resource-duplicate__same-kind-url", edits: []edit{set("/resources/-", `{"kind":"mcp","url":"https://mcp.partner.example/mcp","source":"https://shop.example/","availability":"linked"}`)}},
	{name: "retrieved-required__all-linked", edits: []edit{set("/resources/0/availability", `"linked"`), set("/resources/1/availability", `"linked"`), set("/apis", `[]`)}},
	{name: "schema-additionalProperties__operation-extra", edits: []edit{set("/apis/0/operations/0/security", `[]`)}},
	{name: "schema-additionalProperties__resource-extra", edits: []edit{set("/resources/0/note", `"x"`)}},
	{name: "schema-additionalProperties__top-extra", edits: []edit{set("/extra", `true`)}},
	{name: "schema-const__agentic-1.2", edits: []edit{set("/agentic", `"1.2.0"`)}},
	{name: "schema-const__schema-uri-other", edits: []edit{set("/$schema", `"https://evil.example/schema.json"`)}},
	{name: "schema-const__type-action", edits: []edit{set("/type", `"action"`)}},
	{name: "schema-enum__availability-unknown", edits: []edit{set("/resources/2/availability", `"verified"`)}},
	{name: "schema-enum__kind-unknown", edits: []edit{set("/resources/2/kind", `"graphql"`)}},
	{name: "schema-enum__method-lower", edits: []edit{set("/apis/0/operations/1/method", `"post"`)}},
	{name: "schema-maxItems__six-apis", edits: []edit{set("/apis/-", `{"document":"https://shop.example/openapi.json","openapi":"3.1.0","operations":[]}`), set("/apis/-", `{"document":"https://shop.example/openapi.json","openapi":"3.1.0","operations":[]}`), set("/apis/-", `{"document":"https://shop.example/openapi.json","openapi":"3.1.0","operations":[]}`), set("/apis/-", `{"document":"https://shop.example/openapi.json","openapi":"3.1.0","operations":[]}`), set("/apis/-", `{"document":"https://shop.example/openapi.json","openapi":"3.1.0","operations":[]}`)}},
	{name: "schema-maxLength__description-601", edits: []edit{set("/description", jsonString(strings.Repeat("é", 601)))}},
	{name: "schema-maxLength__name-161", edits: []edit{set("/name", `"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"`)}},
	{name: "schema-maxLength__openapi-33", edits: []edit{set("/apis/0/openapi", `"333333333333333333333333333333333"`)}},
	{name: "schema-maxLength__operationId-161", edits: []edit{set("/apis/0/operations/0/operationId", `"ooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo"`)}},
	{name: "schema-maxLength__path-513", edits: []edit{set("/apis/0/operations/0/path", `"/pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"`)}},
	{name: "schema-maxLength__summary-241", edits: []edit{set("/apis/0/operations/0/summary", `"sssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss"`)}},
	{name: "schema-maxLength__title-161", edits: []edit{set("/resources/1/title", `"ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt"`)}},
	{name: "schema-maxLength__url-2049", edits: []edit{set("/resources/2/url", jsonString("https://mcp.partner.example/"+strings.Repeat("a", 2049-len("https://mcp.partner.example/"))))}},
	{name: "schema-minItems__no-resources", edits: []edit{set("/resources", `[]`)}},
	{name: "schema-minLength__description-empty", edits: []edit{set("/description", `""`)}},
	{name: "schema-minLength__title-empty", edits: []edit{set("/resources/1/title", `""`)}},
	{name: "schema-required__no-apis", edits: []edit{del("/apis")}},
	{name: "schema-required__no-name", edits: []edit{del("/name")}},
	{name: "schema-required__operation-no-path", edits: []edit{set("/apis/0/operations/-", `{"method":"GET"}`)}},
	{name: "schema-required__resource-no-source", edits: []edit{del("/resources/0/source")}},
	{name: "schema-type__name-number", edits: []edit{set("/name", `5`)}},
	{name: "schema-type__resources-object", edits: []edit{set("/resources", `{}`)}},
	{name: "url-fragment__url-empty-fragment", edits: []edit{set("/resources/2/url", `"https://mcp.partner.example/mcp#"`)}},
	{name: "url-fragment__url-fragment", edits: []edit{set("/resources/2/url", `"https://mcp.partner.example/mcp#x"`)}},
	{name: "url-https__resource-http", edits: []edit{set("/resources/2/url", `"http://mcp.partner.example/mcp"`)}},
	{name: "url-port__url-8443", edits: []edit{set("/resources/2/url", `"https://mcp.partner.example:8443/mcp"`)}},
	{name: "url-private-address__dot-local", edits: []edit{set("/resources/2/url", `"https://printer.local/mcp"`)}},
	{name: "url-private-address__ipv4-decimal", edits: []edit{set("/resources/2/url", `"https://2130706433/mcp"`)}},
	{name: "url-private-address__ipv4-loopback", edits: []edit{set("/resources/2/url", `"https://127.0.0.1/mcp"`)}},
	{name: "url-private-address__ipv4-private", edits: []edit{set("/resources/2/url", `"https://10.0.0.1/mcp"`)}},
	{name: "url-private-address__ipv6-loopback", edits: []edit{set("/resources/2/url", `"https://[::1]/mcp"`)}},
	{name: "url-private-address__ipv6-mapped", edits: []edit{set("/resources/2/url", `"https://[::ffff:192.168.0.1]/mcp"`)}},
	{name: "url-private-address__localhost", edits: []edit{set("/resources/2/url", `"https://localhost/mcp"`)}},
	{name: "url-private-address__sub-localhost", edits: []edit{set("/resources/2/url", `"https://api.localhost/mcp"`)}},
	{name: "url-query__url-empty-query", edits: []edit{set("/resources/2/url", `"https://mcp.partner.example/mcp?"`)}},
	{name: "url-query__url-query", edits: []edit{set("/resources/2/url", `"https://mcp.partner.example/mcp?key=1"`)}},
	{name: "url-syntax__no-host", edits: []edit{set("/resources/2/source", `"https:///x"`)}},
	{name: "url-syntax__relative", edits: []edit{set("/resources/2/url", `"/mcp"`)}},
	{name: "url-userinfo__source-userinfo", edits: []edit{set("/resources/2/source", `"https://user:pw@shop.example/"`)}},
}

// invalidCaseBytes builds the document of one case.
func invalidCaseBytes(t testing.TB, c invalidCase) []byte {
	t.Helper()
	if c.edits == nil {
		return []byte(c.raw)
	}
	var tree any
	d := json.NewDecoder(bytes.NewReader(readFile(t, "testdata/valid/shop.json")))
	d.UseNumber()
	require.NoError(t, d.Decode(&tree))
	for _, e := range c.edits {
		tree = applyEdit(t, tree, strings.Split(e.ptr, "/")[1:], e)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(tree))
	return b.Bytes()
}

// applyEdit applies e at the reference tokens toks below v and returns the
// new value of v.
func applyEdit(t testing.TB, v any, toks []string, e edit) any {
	t.Helper()
	if len(toks) == 0 {
		var nv any
		d := json.NewDecoder(strings.NewReader(e.value))
		d.UseNumber()
		require.NoError(t, d.Decode(&nv), "edit %s", e.ptr)
		return nv
	}
	tok := strings.NewReplacer("~1", "/", "~0", "~").Replace(toks[0])
	switch x := v.(type) {
	case map[string]any:
		if len(toks) == 1 && e.del {
			delete(x, tok)
			return x
		}
		x[tok] = applyEdit(t, x[tok], toks[1:], e)
		return x
	case []any:
		if tok == "-" && len(toks) == 1 {
			return append(x, applyEdit(t, nil, nil, e))
		}
		i, err := strconv.Atoi(tok)
		require.NoError(t, err, "edit %s", e.ptr)
		require.Less(t, i, len(x), "edit %s", e.ptr)
		x[i] = applyEdit(t, x[i], toks[1:], e)
		return x
	}
	t.Fatalf("edit %s: no container at %q", e.ptr, tok)
	return nil
}

// TestInvalidCorpusFiles checks that testdata/invalid holds exactly the
// documents of invalidCases, and testdata/invalid.golden every problem they
// give; -update rewrites both.
func TestInvalidCorpusFiles(t *testing.T) {
	dir := filepath.Join("testdata", "invalid")
	names := map[string]bool{}
	var golden strings.Builder
	for _, c := range invalidCases {
		require.False(t, names[c.name+".json"], "duplicate case %s", c.name)
		names[c.name+".json"] = true
		want := invalidCaseBytes(t, c)
		path := filepath.Join(dir, c.name+".json")
		if *update {
			require.NoError(t, os.WriteFile(path, want, 0o644))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -run TestInvalidCorpusFiles -update")
		assert.Equal(t, string(want), string(got), "%s is stale; run with -update", path)
		_, perr := ParseSite(got)
		ve := asValidation(t, perr)
		for _, p := range ve.Problems {
			fmt.Fprintf(&golden, "%s\t%s\n", c.name, p)
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, names[e.Name()], "%s has no entry in invalidCases", e.Name())
	}
	gp := filepath.Join("testdata", "invalid.golden")
	if *update {
		require.NoError(t, os.WriteFile(gp, []byte(golden.String()), 0o644))
	}
	want, err := os.ReadFile(gp)
	require.NoError(t, err)
	assert.Equal(t, string(want), golden.String(), "messages changed; run with -update and review the diff")
}
