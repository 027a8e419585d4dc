package plural

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestN(t *testing.T) {
	for n, want := range map[int]string{0: "0 problems", 1: "1 problem", 2: "2 problems", 11: "11 problems"} {
		assert.Equal(t, want, N(n, "problem", "problems"))
	}
}
