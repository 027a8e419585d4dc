package readiness

import (
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJUnit(t *testing.T) {
	for name, r := range map[string]*Report{"plain": fixedReport(), "baseline": trendReport(2), "scan": brokenScan(t)} {
		t.Run(name, func(t *testing.T) {
			data, err := r.JUnit()
			require.NoError(t, err)
			var doc junitSuites
			require.NoError(t, xml.Unmarshal(data, &doc), "parses with encoding/xml")
			require.Len(t, doc.Suites, 1)
			s := doc.Suites[0]
			assert.Len(t, s.Cases, len(Catalogue()), "a test case per check")
			var fails, skips int
			for _, c := range r.Checks {
				switch c.Verdict {
				case VerdictFail, VerdictPartial:
					fails++
				case VerdictNotApplicable, VerdictOptional, VerdictUnverified:
					skips++
				}
			}
			assert.Equal(t, fails, s.Failures)
			assert.Equal(t, skips, s.Skipped)
			assert.Equal(t, len(r.Checks), s.Tests)
			assert.Equal(t, doc.Tests, s.Tests)
			gotF, gotS := 0, 0
			for i, tc := range s.Cases {
				c := r.Checks[i]
				assert.Equal(t, c.ID, tc.Name)
				if tc.Failure != nil {
					gotF++
					assert.Contains(t, tc.Failure.Message, verdictLabel(c.Verdict))
					assert.Contains(t, tc.Failure.Text, "check: "+c.ID)
				}
				if tc.Skipped != nil {
					gotS++
					assert.Contains(t, tc.Skipped.Message, clean(c.Receipt.Received), "the reason")
				}
			}
			assert.Equal(t, fails, gotF)
			assert.Equal(t, skips, gotS)
			if r.Baseline != nil {
				out := map[string]string{}
				for _, tc := range s.Cases {
					out[tc.Name] = tc.SystemOut
				}
				for _, ch := range r.Baseline.Changes {
					assert.Contains(t, out[ch.Check], "since the baseline: ", ch.Check)
				}
			}
		})
	}
}
