package linkset

import (
	"encoding/base32"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The canonical bytes (RFC 8785) against the scheme's reference test data
// (testdata/jcs, from cyberphone/json-canonicalization; SOURCES.md there).
func TestCanonicalJCSVectors(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "jcs", "input", "*.json"))
	require.NoError(t, err)
	require.Len(t, inputs, 6)
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			data, err := os.ReadFile(in)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join("testdata", "jcs", "output", filepath.Base(in)))
			require.NoError(t, err)
			got, err := canonicalJSON(data)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// A link set whose strings are the vectors' hardest (control characters,
// non-BMP characters, "</script>") has the canonical bytes RFC 8785 gives
// them, member order included.
func TestCanonicalDocumentJCS(t *testing.T) {
	title := "\u0000\n\r\u001f</script>ö€😂דּ"
	d := &Document{Contexts: []Context{{Anchor: "https://example.org/", Relations: []Relation{
		{Name: "license", Links: []Link{{Href: "https://example.org/legal/", Title: title}}},
		{Name: "describedby", Links: []Link{{Href: "https://example.org/g", Type: "application/ld+json"}}},
	}}}}
	got, err := d.Canonical()
	require.NoError(t, err)
	want := `{"linkset":[{"anchor":"https://example.org/","describedby":[{"href":"https://example.org/g","type":"application/ld+json"}],"license":[{"href":"https://example.org/legal/","title":"\u0000\n\r\u001f</script>ö€😂דּ"}]}]}` + "\n"
	assert.Equal(t, want, string(got))
}

type sfCase struct {
	Name     string   `json:"name"`
	Raw      []string `json:"raw"`
	MustFail bool     `json:"must_fail"`
	CanFail  bool     `json:"can_fail"`
	Expected json.RawMessage
}

func readSFCases(t *testing.T, name string) []sfCase {
	data, err := os.ReadFile(filepath.Join("testdata", "sf", name))
	require.NoError(t, err)
	var cases []sfCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	return cases
}

// The digest field's Byte Sequence against the httpwg structured-field
// tests (testdata/sf/binary.json; SOURCES.md there), each case as the
// value of the sha-256 member: what must fail is a digest-syntax error,
// what parses gives the test's bytes (RFC 9651, Sections 3.3.5 and 4.2.7).
func TestDigestByteSequenceSFTests(t *testing.T) {
	for _, tc := range readSFCases(t, "binary.json") {
		t.Run(tc.Name, func(t *testing.T) {
			b, err := parseDigestBytes("sha-256=" + strings.Join(tc.Raw, ","))
			if tc.MustFail {
				require.Error(t, err)
				assert.Equal(t, RuleDigestSyntax, problemOf(err).Rule)
				return
			}
			// The cases a parser may refuse (no padding, non-zero pad
			// bits) are read: parsers SHOULD NOT fail on them.
			require.NoError(t, err)
			var exp []json.RawMessage
			require.NoError(t, json.Unmarshal(tc.Expected, &exp))
			var item struct{ Value string }
			require.NoError(t, json.Unmarshal(exp[0], &item))
			want, err := base32.StdEncoding.DecodeString(item.Value)
			require.NoError(t, err)
			assert.Equal(t, want, b)
		})
	}
}

// The digest field's Dictionary syntax against the httpwg tests
// (testdata/sf/dictionary.json): a Dictionary that must fail is a
// digest-syntax error; one that parses is refused only for its members
// (none of them is the single sha-256 Byte Sequence).
func TestDigestDictionarySFTests(t *testing.T) {
	for _, tc := range readSFCases(t, "dictionary.json") {
		t.Run(tc.Name, func(t *testing.T) {
			_, err := ParseDigest(strings.Join(tc.Raw, ","))
			require.Error(t, err)
			rule := problemOf(err).Rule
			if tc.MustFail {
				assert.Equal(t, RuleDigestSyntax, rule)
			} else if !tc.CanFail {
				assert.NotEqual(t, RuleDigestSyntax, rule)
			}
		})
	}
}
