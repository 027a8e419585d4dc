package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain runs the program itself when the test binary is started as the
// server of TestKilled.
func TestMain(m *testing.M) {
	if os.Getenv("SCANSERVER_CHILD") == "1" {
		ctx, stop := context.WithCancel(context.Background())
		defer stop()
		if err := run(ctx, strings.Fields(os.Getenv("SCANSERVER_ARGS")), os.Stdout, io.Discard); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// slowSite is a site on loopback whose every answer takes delay, counting
// the scans it receives (one robots.txt a scan).
type slowSite struct {
	srv   *httptest.Server
	scans atomic.Int64
}

func newSlowSite(t *testing.T, delay time.Duration) *slowSite {
	s := &slowSite{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.scans.Add(1)
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<!doctype html><html lang="en"><title>slow</title><h1>A slow site</h1></html>`)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// child is the program running in its own process.
type child struct {
	cmd  *exec.Cmd
	base string
}

func startChild(t *testing.T, db string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SCANSERVER_CHILD=1", "SCANSERVER_ARGS=-addr 127.0.0.1:0 -dev -workers 2 -db "+db)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	go io.Copy(io.Discard, out)
	i := strings.LastIndex(line, "http://")
	require.GreaterOrEqual(t, i, 0, line)
	c := &child{cmd: cmd, base: strings.TrimSpace(line[i:])}
	t.Cleanup(func() { c.kill() })
	return c
}

func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Signal(syscall.SIGKILL)
		_ = c.cmd.Wait()
	}
}

type scanState struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Error  *struct {
		Code, Message string
	} `json:"error"`
}

func (c *child) post(t *testing.T, site string) scanState {
	t.Helper()
	resp, err := http.Post(c.base+"/api/scans", "application/json", strings.NewReader(`{"url": "`+site+`"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	var s scanState
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	return s
}

func (c *child) get(t *testing.T, id string) scanState {
	t.Helper()
	resp, err := http.Get(c.base + "/api/scans/" + id)
	require.NoError(t, err)
	defer resp.Body.Close()
	var s scanState
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	return s
}

// waitFor polls until cond holds for the scan.
func (c *child) waitFor(t *testing.T, id string, within time.Duration, cond func(scanState) bool) scanState {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		s := c.get(t, id)
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("scan %s: still %s", id, s.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ended(s scanState) bool { return s.Status == "done" || s.Status == "failed" }

// TestKilled: the program is killed (SIGKILL) with scans queued and
// running, twice, and restarted on the same database each time. Every
// accepted scan ends; a scan running at the first kill runs once more, and
// one running at both kills fails with the reason; a queued scan runs once.
func TestKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	db := filepath.Join(t.TempDir(), "agentweb.db")
	// The endless site keeps a worker busy through both kills; the slow
	// ones are running or queued at the first kill.
	endless := newSlowSite(t, 3*time.Second)
	var slow []*slowSite
	for range 4 {
		slow = append(slow, newSlowSite(t, 250*time.Millisecond))
	}

	a := startChild(t, db)
	long := a.post(t, endless.srv.URL+"/")
	var ids []string
	for _, s := range slow {
		ids = append(ids, a.post(t, s.srv.URL+"/").ID)
	}
	// Two workers: the endless scan and the first slow one run, the other
	// three wait.
	a.waitFor(t, long.ID, 10*time.Second, func(s scanState) bool { return s.Status == "running" })
	a.waitFor(t, ids[0], 10*time.Second, func(s scanState) bool { return s.Status == "running" })
	assert.Equal(t, "queued", a.get(t, ids[3]).Status)
	a.kill()

	b := startChild(t, db)
	for _, id := range ids {
		s := b.waitFor(t, id, 60*time.Second, ended)
		assert.Equal(t, "done", s.Status, "%s: %+v", id, s.Error)
	}
	// The endless scan runs again (its second run) and is killed again.
	b.waitFor(t, long.ID, 10*time.Second, func(s scanState) bool { return s.Status == "running" })
	for endless.scans.Load() < 2 {
		time.Sleep(50 * time.Millisecond)
	}
	b.kill()

	c := startChild(t, db)
	s := c.waitFor(t, long.ID, 10*time.Second, ended)
	assert.Equal(t, "failed", s.Status)
	require.NotNil(t, s.Error)
	assert.Equal(t, "interrupted", s.Error.Code)
	assert.Contains(t, s.Error.Message, "interrupted twice")

	// Runs each site received: the slow site running at the first kill ran
	// twice (the first run cut), the queued ones once, the endless one twice
	// and never a third time.
	assert.EqualValues(t, 2, slow[0].scans.Load(), "running at the kill: run again once")
	for _, s := range slow[1:] {
		assert.EqualValues(t, 1, s.scans.Load(), "queued at the kill: run once")
	}
	time.Sleep(300 * time.Millisecond)
	assert.EqualValues(t, 2, endless.scans.Load())
}
