package readiness_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
)

// One vocabulary: the four spec packages' problems are one type, so one
// function handles the findings of any of them, and each package's
// sentinel still identifies its own errors.
func TestOneProblemVocabulary(t *testing.T) {
	rules := func(ps []agentic.Problem) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Rule)
		}
		return out
	}
	d, err := linkset.Parse([]byte(`{"linkset":[{"anchor":"https://a.example/","item":[{"href":"http://a.example/x"}]}]}`))
	require.NoError(t, err)
	assert.NotEmpty(t, rules(d.Check()), "linkset problems go to a func([]agentic.Problem)")

	_, errO := openagent.Parse([]byte(`{"did":"x"}`))
	_, errS := agentsignup.Parse([]byte(`{"protocol":"agent-identity-v1"}`))
	_, errA := agentic.ParseSite([]byte(`{"agentic":"1.1.0"}`))
	for _, tc := range []struct {
		err      error
		sentinel error
	}{{errO, openagent.ErrInvalid}, {errS, agentsignup.ErrInvalid}, {errA, agentic.ErrInvalid}} {
		var ve *agentic.ValidationError // the same type as every package's
		require.True(t, errors.As(tc.err, &ve), "%v", tc.err)
		assert.NotEmpty(t, rules(ve.Problems))
		assert.ErrorIs(t, tc.err, tc.sentinel)
		for _, p := range ve.Problems {
			assert.NotEmpty(t, p.Rule)
		}
	}
	assert.NotErrorIs(t, errO, linkset.ErrInvalid, "each sentinel names its own package")
}
