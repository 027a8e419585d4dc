package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNonSnakeKeys(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"snake case", `{"profile_url": "x", "a": [{"final_url": 1}]}`, nil},
		{"camel and Pascal", `{"profileUrl": "x", "a": [{"FinalURL": 1}]}`, []string{"/a/0/FinalURL", "/profileUrl"}},
		{"data keys", `{"https://w3id.org/rel#peer": [], "Content-Type": "x", "/path/A": 1, "en-US": 2, "headers": {"Accept": "a"}}`, nil},
		{"header names only under headers", `{"x": {"Accept": "a"}}`, []string{"/x/Accept"}},
		{"JSON Lines", "{\"ok\": 1}\n{\"siteURL\": 2}\n", []string{"/siteURL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NonSnakeKeys([]byte(tc.data))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := NonSnakeKeys([]byte("{"))
	assert.Error(t, err)
}
