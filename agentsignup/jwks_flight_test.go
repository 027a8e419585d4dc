package agentsignup

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowKeys is a key server that holds every request until released (or 3 s
// have passed), then serves the set.
type slowKeys struct {
	body    []byte
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

func (s *slowKeys) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.once.Do(func() { close(s.arrived) })
	select {
	case <-s.release:
	case <-time.After(3 * time.Second):
	case <-r.Context().Done():
	}
	w.Header().Set("Content-Type", "application/jwk-set+json")
	w.Write(s.body)
}

func TestJWKSWaitersHonourTheirOwnDeadline(t *testing.T) {
	n := newNet(t)
	srv := &slowKeys{body: jwksJSON(okpJWK(testKey(1), "k1")), arrived: make(chan struct{}), release: make(chan struct{})}
	n.Site("agentregistrar.dev", srv)
	keys, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: n.Client()})
	require.NoError(t, err)

	type answer struct {
		keys []PublicKey
		err  error
	}
	first := make(chan answer, 1)
	go func() {
		ks, err := keys.IssuerKeys(context.Background(), testIssuer, "k1")
		first <- answer{ks, err}
	}()
	<-srv.arrived // the first fetch now hangs on the key server

	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	ks, err := keys.IssuerKeys(ctx, testIssuer, "k1")
	took := time.Since(start)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "the waiter says its own deadline ended")
	assert.Empty(t, ks)
	assert.Less(t, took, time.Second, "the waiter returns at its own deadline, not when the fetch ends")

	// Refresh, too, joins the fetch in progress and honours its context.
	ctx2, cancel2 := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel2()
	assert.ErrorIs(t, keys.Refresh(ctx2), context.DeadlineExceeded)

	close(srv.release)
	a := <-first
	require.NoError(t, a.err)
	assert.Len(t, a.keys, 1)
	assert.Equal(t, 1, keys.fetchCount(), "one fetch, shared by every caller")
	ks, err = keys.IssuerKeys(t.Context(), testIssuer, "k1")
	require.NoError(t, err)
	assert.Len(t, ks, 1, "the fetch the waiters gave up on filled the cache")
}

// A caller that starts a fetch and gives up does not fail the callers that
// wait for the same fetch with more patience.
func TestJWKSFetchOutlivesTheCallerThatStartedIt(t *testing.T) {
	n := newNet(t)
	srv := &slowKeys{body: jwksJSON(okpJWK(testKey(1), "k1")), arrived: make(chan struct{}), release: make(chan struct{})}
	n.Site("agentregistrar.dev", srv)
	keys, err := NewJWKSKeySet(testIssuer, "https://agentregistrar.dev/jwks.json", &JWKSOptions{Client: n.Client()})
	require.NoError(t, err)

	impatient, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := keys.IssuerKeys(impatient, testIssuer, "k1")
		done <- err
	}()
	<-srv.arrived
	patient := make(chan []PublicKey, 1)
	go func() {
		ks, err := keys.IssuerKeys(t.Context(), testIssuer, "k1")
		assert.NoError(t, err)
		patient <- ks
	}()
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
	close(srv.release)
	assert.Len(t, <-patient, 1)
	assert.Equal(t, 1, keys.fetchCount())
}
