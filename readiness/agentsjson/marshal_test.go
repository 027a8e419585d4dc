package agentsjson

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestMarshalGolden(t *testing.T) {
	c, err := Parse(readTestdata(t, "method-shop.json"))
	require.NoError(t, err)
	got, err := c.Marshal()
	require.NoError(t, err)
	golden := filepath.Join("testdata", "method-shop.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
	}
	assert.Equal(t, string(readTestdata(t, "method-shop.golden.json")), string(got))
	// What Marshal writes reads back as the same card.
	back, err := Parse(got)
	require.NoError(t, err)
	assert.Equal(t, c, back)
}

func TestMarshalOtherFormats(t *testing.T) {
	for _, f := range []string{"wildcard-linkup.json", "siteinfo-shop.json", "agentstxt-acme.json"} {
		t.Run(f, func(t *testing.T) {
			c, err := Parse(readTestdata(t, f))
			require.NoError(t, err)
			a, err := c.Marshal()
			require.NoError(t, err)
			b, err := c.Marshal()
			require.NoError(t, err)
			assert.Equal(t, a, b, "deterministic")
			back, err := Parse(a)
			require.NoError(t, err)
			assert.Equal(t, FormatMethod, back.Format)
			assert.Equal(t, len(c.Interfaces), len(back.Interfaces))
			assert.Equal(t, c.Extra, back.Extra, "the members no format reads are kept")
		})
	}
}

func TestMarshalRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Card
		rule string
	}{
		{"empty", Card{Name: "n"}, RuleEmpty},
		{"interface without url or type", Card{Interfaces: []Interface{{ID: "x"}}}, RuleInterface},
		{"empty contact", Card{Publishes: map[string]string{"llms_txt": "/llms.txt"}, Contact: &Contact{}}, RuleContact},
		{"empty publication", Card{Publishes: map[string]string{"sitemap": ""}}, RulePublishes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.c.Marshal()
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			ve := (*ValidationError)(nil)
			require.ErrorAs(t, err, &ve)
			assert.True(t, ve.Has(tc.rule), ve.Error())
			_, herr := Handler(&tc.c)
			assert.ErrorIs(t, herr, ErrInvalid)
		})
	}
}
