package readiness

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBadge(t *testing.T) {
	golden(t, "badge.svg", fixedReport().Badge())
	for _, tc := range []struct {
		score float64
		color string
	}{{100, "#0a7d32"}, {90, "#0a7d32"}, {89.9, "#b35c00"}, {50, "#b35c00"}, {49.9, "#c5221f"}, {0, "#c5221f"}} {
		s := &Summary{Site: "https://a.example/?x=1&y=<2>", Score: tc.score}
		svg := s.Badge()
		assert.Contains(t, string(svg), `fill="`+tc.color+`"`, "score %v", tc.score)
		assert.Contains(t, string(svg), ">"+oneDecimal(tc.score)+"/100<")
		assert.Contains(t, string(svg), "x=1&amp;y=&lt;2&gt;")
		dec := xml.NewDecoder(bytes.NewReader(svg))
		for {
			_, err := dec.Token()
			if err != nil {
				require.ErrorContains(t, err, "EOF", "the badge is well-formed XML")
				break
			}
		}
	}
	assert.Equal(t, fixedReport().Summary().Badge(), fixedReport().Badge())
}
