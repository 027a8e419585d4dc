package browser

import (
	"context"
	"errors"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// When Chromium dies (killed by the system for its memory, say), the next
// page starts another and says so. The dead one's directory is removed.
// After MaxRestarts in a row without a page rendered, Render returns
// ErrDied.
func TestABrowserRecoversFromADeadChromium(t *testing.T) {
	needChromium(t)
	b, err := New(context.Background(), &Options{Tabs: 1})
	require.NoError(t, err)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", hogPage(`<h1>Shop</h1><form toolname="find" tooldescription="Find a product."><input name="q"></form>`))
	render := func() (*instance, []string, error) {
		r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
		if err != nil {
			return b.current(), nil, err
		}
		return b.current(), r.Notes, nil
	}
	first, notes, err := render()
	require.NoError(t, err)
	assert.Empty(t, notes)

	require.NoError(t, syscall.Kill(first.pid, syscall.SIGKILL))
	require.Eventually(t, func() bool { return !first.alive() }, 5*time.Second, 10*time.Millisecond)
	second, notes, err := render()
	require.NoError(t, err)
	require.Len(t, notes, 1)
	assert.Equal(t, "Chromium had stopped and was started again for this page (restart 1 of at most 3 in a row)", notes[0])
	assert.NotEqual(t, first.pid, second.pid)
	_, err = os.Stat(first.dir)
	assert.True(t, errors.Is(err, os.ErrNotExist), "the dead Chromium's directory is removed")

	_, notes, err = render()
	require.NoError(t, err)
	assert.Empty(t, notes, "a page rendered: the count starts again")

	for i := range MaxRestarts + 1 {
		in := b.current()
		require.NoError(t, syscall.Kill(in.pid, syscall.SIGKILL))
		require.Eventually(t, func() bool { return !in.alive() }, 5*time.Second, 10*time.Millisecond)
		b.instMu.Lock()
		b.restarts = i // as if each restarted Chromium died before its page rendered
		b.instMu.Unlock()
		if i < MaxRestarts {
			_, _, err = render()
			require.NoError(t, err)
			continue
		}
		_, _, err = render()
		assert.ErrorIs(t, err, ErrDied)
	}
	require.NoError(t, b.Close())
	_, err = os.Stat(b.current().dir)
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

// A Chromium whose browser process stops answering (stopped here with
// SIGSTOP) holds no Render past its deadline and margin; it is stopped, and
// the next page gets another.
func TestAStuckChromiumIsReplaced(t *testing.T) {
	needChromium(t)
	skipUnderRace(t)
	const timeout = 3 * time.Second
	b, err := New(context.Background(), &Options{Tabs: 1, Timeout: timeout})
	require.NoError(t, err)
	defer b.Close()
	n := fetchtest.New()
	defer n.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", hogPage(`<h1>Shop</h1><form toolname="find" tooldescription="Find a product."><input name="q"></form>`))
	mux.HandleFunc("/slow", hogPage(`<h1>Slow</h1><script>fetch("/wait").catch(() => {});</script>`))
	mux.HandleFunc("/wait", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(20 * time.Second):
		case <-r.Context().Done():
		}
	})
	n.Site("shop.example", mux)
	stuck := b.current()
	time.AfterFunc(time.Second, func() { _ = syscall.Kill(stuck.pid, syscall.SIGSTOP) })
	start := time.Now()
	_, err = b.Render(context.Background(), "https://shop.example/slow", n.Client())
	took := time.Since(start)
	assert.Error(t, err)
	assert.Less(t, took, timeout+DeadlineMargin, "Render returned within its deadline and margin")

	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err, "the next page renders in another Chromium")
	require.Len(t, r.Notes, 1)
	assert.Contains(t, r.Notes[0], "started again")
	assert.False(t, processAlive(stuck.pid), "the stuck Chromium was killed")
	_, err = os.Stat(stuck.dir)
	assert.True(t, errors.Is(err, os.ErrNotExist), "its directory is removed")
}
