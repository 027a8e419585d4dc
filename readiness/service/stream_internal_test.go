package service

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStreamBounded: an event stream ends after maxStream even when its
// scan never finishes (here another instance holds it with a long lease).
func TestStreamBounded(t *testing.T) {
	old := maxStream
	maxStream = 300 * time.Millisecond
	defer func() { maxStream = old }()

	st, err := OpenSQLite(":memory:")
	require.NoError(t, err)
	defer st.Close()
	row := queue(t, st.db(), "https://stuck.example/")
	now := time.Now()
	job, err := st.db().claim(context.Background(), "elsewhere", now, now.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, row.ID, job.ID)

	svc, err := New(context.Background(), &Options{Store: st})
	require.NoError(t, err)
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()

	start := time.Now()
	resp, err := http.Get(srv.URL + "/api/scans/" + row.ID + "/events")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	elapsed := time.Since(start)
	assert.GreaterOrEqual(t, elapsed, maxStream)
	assert.Less(t, elapsed, maxStream+3*time.Second, "the stream outlived its bound")
	assert.NotContains(t, string(body), "event: done")
}
