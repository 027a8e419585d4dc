package benchratio

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRunReportsRatio(t *testing.T) {
	res := testing.Benchmark(func(b *testing.B) {
		Run(b,
			func() error { time.Sleep(2 * time.Millisecond); return nil },
			func() error { time.Sleep(time.Millisecond); return nil })
	})
	assert.Greater(t, res.N, 0)
	ratio := res.Extra["ratio"]
	assert.Greater(t, ratio, 1.2, "ours sleeps twice as long as the baseline")
	assert.Greater(t, res.Extra["ours-ns/op"], res.Extra["baseline-ns/op"])
}

func TestRunStopsOnError(t *testing.T) {
	res := testing.Benchmark(func(b *testing.B) {
		Run(b, func() error { return errors.New("broken") }, func() error { return nil })
	})
	assert.Zero(t, res.Extra["ratio"], "a failed benchmark reports no ratio")
}
