package refusal

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatusSet(t *testing.T) {
	for _, tc := range []struct {
		status            int
		refused, answered bool
	}{
		{200, false, true},
		{204, false, true},
		{301, false, true},
		{400, false, true},
		{401, false, false},
		{402, false, true},
		{403, true, false},
		{404, false, true},
		{406, false, true},
		{407, true, false},
		{408, true, false},
		{410, false, true},
		{425, true, false},
		{429, true, false},
		{500, true, false},
		{503, true, false},
		{599, true, false},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			assert.Equal(t, tc.refused, Refused(tc.status), "Refused")
			assert.Equal(t, tc.answered, Answered(tc.status), "Answered")
		})
	}
}
