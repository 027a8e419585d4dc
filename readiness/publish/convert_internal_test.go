package publish

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A conversion that timed out keeps its slot until its goroutine ends: with
// one slot, the next conversion is refused (the page is then served as
// HTML) instead of starting a second goroutine beside the abandoned one,
// and is served again once the abandoned one is done.
func TestConversionsBoundedAbandonedOnesIncluded(t *testing.T) {
	c := newConverter(time.Millisecond, 4, 1<<20, 1)
	huge := []byte("<html><body>" + strings.Repeat("<p>A <em>loose-leaf</em> tea, <a href=\"/t\">picked by hand</a>.</p>\n", 8000) + "</body></html>")
	small := []byte("<html><body><h1>Our teas</h1><p>Black and green.</p></body></html>")

	_, err := c.convert(t.Context(), "huge", huge, "https://tea.example/")
	require.ErrorIs(t, err, errConvert)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Len(t, c.slots, 1, "the abandoned conversion still holds its slot")

	_, err = c.convert(t.Context(), "small", small, "https://tea.example/")
	assert.ErrorIs(t, err, errBusy, "no second conversion runs beside the abandoned one")

	require.Eventually(t, func() bool { return len(c.slots) == 0 }, time.Minute, 5*time.Millisecond, "the abandoned conversion gives its slot back when it ends")
	c.timeout = 10 * time.Second
	md, err := c.convert(t.Context(), "small", small, "https://tea.example/")
	require.NoError(t, err)
	assert.Contains(t, string(md), "# Our teas")
}
