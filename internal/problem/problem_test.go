package problem

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errPkg = errors.New("pkg: invalid document")
var errOther = errors.New("pkg: other")

func TestValidationErrorFormat(t *testing.T) {
	tests := []struct {
		name   string
		source string
		n      int
		want   string
	}{
		{"one", "", 1, "pkg: invalid document: 1 problem: /p0: bad 0 [r0]"},
		{"two with source", "https://a.example/x", 2, "pkg: invalid document: https://a.example/x: 2 problems: /p0: bad 0 [r0]; /p1: bad 1 [r1]"},
		{"seven", "", 7, "pkg: invalid document: 7 problems: /p0: bad 0 [r0]; /p1: bad 1 [r1]; /p2: bad 2 [r2]; /p3: bad 3 [r3]; /p4: bad 4 [r4]; and 2 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ps []Problem
			for i := range tt.n {
				ps = append(ps, Problem{Pointer: fmt.Sprintf("/p%d", i), Rule: fmt.Sprintf("r%d", i), Message: fmt.Sprintf("bad %d", i)})
			}
			e := New(ps, errPkg).WithSource(tt.source)
			assert.Equal(t, tt.want, e.Error())
		})
	}
}

func TestValidationErrorUnwrapHasRules(t *testing.T) {
	e := New([]Problem{{Rule: "b"}, {Rule: "a"}, {Rule: "b"}}, errPkg, errOther)
	var err error = fmt.Errorf("wrapped: %w", e)
	assert.ErrorIs(t, err, errPkg)
	assert.ErrorIs(t, err, errOther)
	assert.NotErrorIs(t, New(nil, errPkg), errOther)
	assert.True(t, e.Has("a"))
	assert.False(t, e.Has("c"))
	assert.Equal(t, []string{"a", "b"}, e.Rules())
	require.NotNil(t, As(err))
	assert.Nil(t, As(errPkg))
	assert.Equal(t, "invalid document: 0 problems", (&ValidationError{}).Error())
}

func TestProblemString(t *testing.T) {
	assert.Equal(t, "(document): m [r]", Problem{Rule: "r", Message: "m"}.String())
	assert.Equal(t, "/a: m [r, section 4.3.1]", Problem{Pointer: "/a", Rule: "r", Message: "m", Section: "4.3.1"}.String())
}

func TestProblemJSON(t *testing.T) {
	b, err := json.Marshal(Problem{Pointer: "/a", Rule: "r", Message: "m", Severity: SeverityNotice})
	require.NoError(t, err)
	assert.JSONEq(t, `{"pointer":"/a","rule":"r","message":"m","severity":"notice"}`, string(b))
	var p Problem
	require.NoError(t, json.Unmarshal(b, &p))
	assert.Equal(t, SeverityNotice, p.Severity)
	assert.Error(t, json.Unmarshal([]byte(`{"severity":"fatal"}`), &p))
	_, err = Severity(9).MarshalText()
	assert.Error(t, err)
	assert.Equal(t, "severity(9)", Severity(9).String())
	for _, s := range []Severity{SeverityError, SeverityWarning, SeverityNotice} {
		var got Severity
		text, err := s.MarshalText()
		require.NoError(t, err)
		require.NoError(t, got.UnmarshalText(text))
		assert.Equal(t, s, got)
	}
}

func TestSort(t *testing.T) {
	ps := Sort([]Problem{{Pointer: "/b", Rule: "x"}, {Pointer: "/a", Rule: "y"}, {Pointer: "/a", Rule: "x"}, {Pointer: "/a", Rule: "x"}})
	assert.Equal(t, []Problem{{Pointer: "/a", Rule: "x"}, {Pointer: "/a", Rule: "y"}, {Pointer: "/b", Rule: "x"}}, ps)
}
