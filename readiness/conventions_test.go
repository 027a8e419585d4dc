package readiness

import (
	"errors"
	"fmt"
	"testing"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/internal/problem"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errTestSentinel = errors.New("test: invalid")

func TestProblemNotes(t *testing.T) {
	ve := problem.New([]problem.Problem{
		{Pointer: "/resources/0/url", Rule: problem.RuleURLHTTPS, Message: "must be an https URL"},
		{Pointer: "", Rule: "json-syntax", Message: "unexpected end\nof input"},
	}, errTestSentinel)
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"no error", nil, nil},
		{"not a validation error", errors.New("agentic: body too large"), []string{"agentic: body too large"}},
		{"pointer, rule and message; the root is /; one line", ve,
			[]string{"/resources/0/url [url-https] must be an https URL", "/ [json-syntax] unexpected endof input"}},
		{"wrapped", fmt.Errorf("fetch: %w", ve),
			[]string{"/resources/0/url [url-https] must be an https URL", "/ [json-syntax] unexpected endof input"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, problemNotes(tc.err))
		})
	}
}

// TestProblemNotesOfEverySpecPackage feeds each spec package's validator an
// invalid document and checks that every problem it reports becomes one note
// with its pointer, rule and message.
func TestProblemNotesOfEverySpecPackage(t *testing.T) {
	type pm struct{ pointer, rule, message string }
	tests := []struct {
		name     string
		err      error
		problems func(t *testing.T, err error) []pm
	}{
		{"agentic", func() error { _, err := agentic.ParseSite([]byte(`{"version":"1.1"}`)); return err }(), func(t *testing.T, err error) []pm {
			var ve *agentic.ValidationError
			require.ErrorAs(t, err, &ve)
			var out []pm
			for _, p := range ve.Problems {
				out = append(out, pm{p.Pointer, p.Rule, p.Message})
			}
			return out
		}},
		{"linkset", func() error { _, err := linkset.Parse([]byte(`{"linkset":[{"anchor":1}]}`)); return err }(), func(t *testing.T, err error) []pm {
			var ve *linkset.ValidationError
			require.ErrorAs(t, err, &ve)
			var out []pm
			for _, p := range ve.Problems {
				out = append(out, pm{p.Pointer, p.Rule, p.Message})
			}
			return out
		}},
		{"openagent", func() error { _, err := openagent.Parse([]byte(`{"name":7}`)); return err }(), func(t *testing.T, err error) []pm {
			var ve *openagent.ValidationError
			require.ErrorAs(t, err, &ve)
			var out []pm
			for _, p := range ve.Problems {
				out = append(out, pm{p.Pointer, p.Rule, p.Message})
			}
			return out
		}},
		{"agentsignup", func() error { _, err := agentsignup.Parse([]byte(`{"agent_identity":{}}`)); return err }(), func(t *testing.T, err error) []pm {
			var ve *agentsignup.ValidationError
			require.ErrorAs(t, err, &ve)
			var out []pm
			for _, p := range ve.Problems {
				out = append(out, pm{p.Pointer, p.Rule, p.Message})
			}
			return out
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := tc.problems(t, tc.err)
			require.NotEmpty(t, ps)
			var want []string
			for _, p := range ps {
				want = append(want, problemNote(problem.Problem{Pointer: p.pointer, Rule: p.rule, Message: p.message}))
				assert.NotEmpty(t, p.rule)
			}
			got := problemNotes(tc.err)
			assert.Equal(t, want, got)
			for i, p := range ps {
				assert.Contains(t, got[i], "["+p.rule+"]")
			}
		})
	}
}
