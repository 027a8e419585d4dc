package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// listNet serves the same small site under each host.
func listNet(t *testing.T, hosts ...string) *fetchtest.Network {
	t.Helper()
	n := fetchtest.New()
	t.Cleanup(n.Close)
	for _, h := range hosts {
		n.Site(h, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>%s</title></head><body><h1>%s</h1><p>Tea and more tea.</p></body></html>`, h, h)
		}))
	}
	return n
}

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "every line is one JSON value")
		out = append(out, m)
	}
	return out
}

func sitesOf(lines []map[string]any) []string {
	var s []string
	for _, l := range lines {
		s = append(s, l["site"].(string))
	}
	slices.Sort(s)
	return s
}

func TestListResumeShard(t *testing.T) {
	hosts := []string{"a.example", "b.example", "c.example", "www.c.example", "d.example"}
	n := listNet(t, hosts...)
	dir := t.TempDir()
	list := filepath.Join(dir, "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("# my sites\nhttps://a.example/\n\nhttps://b.example\nhttps://c.example/\nhttps://www.c.example/\nftp://bad.example/\n"), 0o644))
	out := filepath.Join(dir, "out.jsonl")

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"scan", "-list", list, "-out", out, "-concurrency", "3"}, &stdout, &stderr, n.Client())
	assert.Equal(t, 1, code, "one site could not be scanned")
	lines := readLines(t, out)
	assert.Equal(t, []string{"ftp://bad.example/", "https://a.example/", "https://b.example/", "https://c.example/", "https://www.c.example/"}, sitesOf(lines))
	for _, l := range lines {
		if l["site"] == "ftp://bad.example/" {
			assert.Contains(t, l["error"], "invalid site URL")
		} else {
			assert.Equal(t, "1.2", l["method"], "a line is a whole report")
		}
	}
	assert.Contains(t, stderr.String(), "[5/5]")
	assert.Contains(t, stderr.String(), "1 failed")
	assert.Contains(t, stderr.String(), "sites/s, ETA")

	// -resume: a run killed mid-write left half a line; the sites already
	// written are skipped, the cut one is scanned again.
	// Keep two reports (not the failed site's line, whose place in the
	// completion order varies), so that the rerun scans three sites, the
	// failing one among them.
	var kept []string
	for _, l := range rawLines(t, out) {
		if len(kept) < 2 && !strings.Contains(l, "ftp://") {
			kept = append(kept, l)
		}
	}
	require.NoError(t, os.WriteFile(out, []byte(strings.Join(kept, "\n")+"\n{\"site\":\"https://c.ex"), 0o644))
	before := sitesOf(readLinesPrefix(t, out, 2))
	n.ResetRequests()
	stderr.Reset()
	code = run(context.Background(), []string{"scan", "-list", list, "-out", out, "-resume"}, &stdout, &stderr, n.Client())
	assert.Equal(t, 1, code, "the failing site is scanned again and fails again")
	lines = readLines(t, out)
	assert.Equal(t, []string{"ftp://bad.example/", "https://a.example/", "https://b.example/", "https://c.example/", "https://www.c.example/"}, sitesOf(lines), "no site twice, none lost")
	assert.Contains(t, stderr.String(), "3 sites to scan")
	for _, s := range before {
		if h := strings.TrimSuffix(strings.TrimPrefix(s, "https://"), "/"); !strings.Contains(s, "ftp") {
			assert.Zero(t, n.Requests(h), "%s was done already", s)
		}
	}

	// -shard: the shards partition the list, and a domain's sites stay together.
	var union []string
	for i := range 3 {
		o := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		run(context.Background(), []string{"scan", "-list", list, "-out", o, "-shard", fmt.Sprintf("%d/3", i)}, &stdout, &stderr, n.Client())
		got := sitesOf(readLines(t, o))
		for _, s := range got {
			assert.Equal(t, i, readiness.Shard(s, 3))
		}
		union = append(union, got...)
	}
	slices.Sort(union)
	assert.Equal(t, []string{"ftp://bad.example/", "https://a.example/", "https://b.example/", "https://c.example/", "https://www.c.example/"}, union)

	// Usage errors.
	for _, args := range [][]string{
		{"scan", "-list", list, "-resume"},
		{"scan", "-list", list, "-shard", "3/3"},
		{"scan", "-list", list, "-fail-under", "50"},
		{"scan", "https://a.example/", "-out", out},
		{"scan", "-list", filepath.Join(dir, "missing.txt")},
	} {
		stderr.Reset()
		assert.Equal(t, 2, run(context.Background(), args, &stdout, &stderr, n.Client()), "%q", args)
	}
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func rawLines(t *testing.T, path string) []string {
	return strings.Split(strings.TrimSuffix(string(mustRead(t, path)), "\n"), "\n")
}

func readLinesPrefix(t *testing.T, path string, k int) []map[string]any {
	var out []map[string]any
	for _, l := range rawLines(t, path)[:k] {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m))
		out = append(out, m)
	}
	return out
}

func TestGate(t *testing.T) {
	n := listNet(t, "shop.example")
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"scan", "https://shop.example/", "--json", base}, &stdout, &stderr, n.Client())
	var rep readiness.Report
	require.NoError(t, json.Unmarshal(mustRead(t, base), &rep))

	stdout.Reset()
	assert.Equal(t, 0, run(context.Background(), []string{"scan", "https://shop.example/", "-fail-under", "1", "-baseline", base}, &stdout, &stderr, n.Client()),
		"the same site against its own report passes, ready or not")
	assert.Contains(t, stdout.String(), "gate: passed")

	stdout.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"scan", "https://shop.example/", "-fail-under", "99.5"}, &stdout, &stderr, n.Client()))
	assert.Contains(t, stdout.String(), "is under 99.5")

	// A baseline in which two checks did better: both are listed.
	var raw map[string]any
	require.NoError(t, json.Unmarshal(mustRead(t, base), &raw))
	var worse []string
	for _, c := range raw["checks"].([]any) {
		c := c.(map[string]any)
		if v := c["verdict"]; (v == "fail" || v == "partial") && len(worse) < 2 {
			c["verdict"] = "pass"
			worse = append(worse, c["id"].(string))
		}
	}
	require.Len(t, worse, 2, "the small site fails some checks")
	better, err := json.Marshal(raw)
	require.NoError(t, err)
	old := filepath.Join(dir, "better.json")
	require.NoError(t, os.WriteFile(old, better, 0o644))
	stdout.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"scan", "https://shop.example/", "-baseline", old}, &stdout, &stderr, n.Client()))
	for _, id := range worse {
		assert.Contains(t, stdout.String(), "gate: "+id+" got worse: pass -> ")
	}

	require.NoError(t, os.WriteFile(old, []byte(`{"method":"1.2"}`), 0o644))
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "https://shop.example/", "-baseline", old}, &stdout, &stderr, n.Client()))
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "https://shop.example/", "-fail-under", "abc"}, &stdout, &stderr, n.Client()))
}

// cancelOnWrite cancels a context the first time a progress line is
// written, as an interrupt after the first finished site would.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("[1/")) {
		c.cancel()
	}
	return c.Buffer.Write(p)
}

// TestListInterruptedThenResumedScansEverySite: an interrupted list run
// writes no line for the sites its interrupt cut short or never started
// (those held back by -per-host included), so that -resume scans every
// one of them and no site is lost or written twice.
func TestListInterruptedThenResumedScansEverySite(t *testing.T) {
	hosts := []string{"a.one.example", "b.one.example", "c.one.example", "d.one.example", "two.example", "three.example"}
	n := listNet(t, hosts...)
	for _, h := range hosts {
		n.SetLatency(h, 20*time.Millisecond)
	}
	dir := t.TempDir()
	list := filepath.Join(dir, "sites.txt")
	var want []string
	for _, h := range hosts {
		want = append(want, "https://"+h+"/")
	}
	require.NoError(t, os.WriteFile(list, []byte(strings.Join(want, "\n")+"\n"), 0o644))
	slices.Sort(want)
	out := filepath.Join(dir, "out.jsonl")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	stderr := &cancelOnWrite{cancel: cancel}
	code := run(ctx, []string{"scan", "-list", list, "-out", out, "-concurrency", "2", "-per-host", "1"}, &stdout, stderr, n.Client())
	assert.Equal(t, 2, code, "an interrupted run exits 2")
	assert.Contains(t, stderr.String(), "-resume scans the others")
	first := readLines(t, out)
	require.Less(t, len(first), len(hosts), "the interrupt stopped the run")
	for _, l := range first {
		assert.NotContains(t, l, "error", "a cancelled site is not written as a failure: %v", l["site"])
	}

	var stderr2 bytes.Buffer
	code = run(context.Background(), []string{"scan", "-list", list, "-out", out, "-resume"}, &stdout, &stderr2, n.Client())
	assert.Equal(t, 0, code, "every site scanned")
	lines := readLines(t, out)
	assert.Equal(t, want, sitesOf(lines), "no site lost, none twice")
	for _, l := range lines {
		assert.Equal(t, "1.2", l["method"], "a whole report for %v", l["site"])
	}
}

func TestResumeRecognisesSitesWrittenOtherwise(t *testing.T) {
	n := listNet(t, "a.example", "b.example")
	dir := t.TempDir()
	list := filepath.Join(dir, "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://A.example:443\nhttps://b.example./\n"), 0o644))
	out := filepath.Join(dir, "out.jsonl")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"scan", "-list", list, "-out", out}, &stdout, &stderr, n.Client()), stderr.String())
	assert.Equal(t, []string{"https://a.example/", "https://b.example/"}, sitesOf(readLines(t, out)), "reports name the normalized URL")

	n.ResetRequests()
	stderr.Reset()
	require.Equal(t, 0, run(context.Background(), []string{"scan", "-list", list, "-out", out, "-resume"}, &stdout, &stderr, n.Client()), stderr.String())
	assert.Contains(t, stderr.String(), "0 sites to scan")
	assert.Zero(t, n.Requests("a.example")+n.Requests("b.example"), "both sites were done already")
	assert.Len(t, readLines(t, out), 2, "no site twice")
}

// A password in a listed URL reaches neither the -out file nor the
// progress lines, and a scan of a loopback URL with credentials is not
// told to add -dev, which would refuse it too.
func TestListNeverWritesCredentials(t *testing.T) {
	n := listNet(t, "a.example")
	dir := t.TempDir()
	list := filepath.Join(dir, "sites.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://user:s3cret-pw@a.example/\nhttps://a.example/\n"), 0o644))
	out := filepath.Join(dir, "out.jsonl")
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run(context.Background(), []string{"scan", "-list", list, "-out", out}, &stdout, &stderr, n.Client()))
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.NotContains(t, string(written), "s3cret-pw")
	assert.Contains(t, string(written), `"site":"https://redacted@a.example/"`)
	assert.NotContains(t, stderr.String(), "s3cret-pw")
	assert.NotContains(t, stdout.String(), "s3cret-pw")

	stderr.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"scan", "http://user:s3cret-pw@127.0.0.1:8080/"}, &stdout, &stderr, nil))
	assert.NotContains(t, stderr.String(), "s3cret-pw")
	assert.NotContains(t, stderr.String(), "add -dev", "-dev does not allow credentials either")
}

// -max-body raises the per-response cap, and a page over it is named
// right after the score; -q leaves out the progress lines.
func TestMaxBodyAndQuiet(t *testing.T) {
	n := fetchtest.New()
	t.Cleanup(n.Close)
	n.Site("big.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Big</title></head><body><h1>Big</h1><p>`+strings.Repeat("tea ", 10<<10)+`</p></body></html>`)
	}))
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"scan", "-q", "-max-body", "16KiB", "https://big.example/"}, &stdout, &stderr, n.Client())
	assert.Contains(t, stdout.String(), "  over the cap: https://big.example/ answered more than 16384 bytes, the cap of one response")
	assert.NotContains(t, stderr.String(), "check ", "-q prints no progress line")
	assert.NotContains(t, stderr.String(), "fetch ")

	stdout.Reset()
	stderr.Reset()
	run(context.Background(), []string{"scan", "-max-body", "1MiB", "https://big.example/"}, &stdout, &stderr, n.Client())
	assert.NotContains(t, stdout.String(), "over the cap")
	assert.Contains(t, stderr.String(), "check initial_html_content", "progress lines without -q")

	assert.Equal(t, 2, run(context.Background(), []string{"scan", "-max-body", "2GiB", "https://big.example/"}, &stdout, &stderr, n.Client()))
}
