package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// Bounds of the list mode.
const (
	maxListLine  = 4096       // a site URL longer than this is refused
	maxListSites = 10_000_000 // sites in one list
	maxOutLine   = 64 << 20   // a line of an -out file being resumed
)

// readList reads the site URLs of path ("-": stdin), one a line, skipping
// blank lines and # comments.
func readList(path string, stdin io.Reader) ([]string, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		defer f.Close()
		r = f
	}
	var sites []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), maxListLine)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if len(sites) == maxListSites {
			return nil, fmt.Errorf("list: more than %d sites", maxListSites)
		}
		sites = append(sites, s)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("list: a line is longer than %d bytes", maxListLine)
		}
		return nil, fmt.Errorf("list: %w", err)
	}
	return sites, nil
}

// doneSites returns the sites already written to the JSON Lines file path,
// for -resume. It reads the file line by line: a batch's output can be far
// larger than memory. A line is at most maxOutLine bytes. A missing file has
// none; a last line cut short (a run that was killed mid-write) is dropped
// from the file, so that the site is scanned again.
func doneSites(path string) (map[string]bool, error) {
	done := map[string]bool{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var keep int64 // bytes of whole lines read
	for {
		line, err := readLine(r, maxOutLine)
		if errors.Is(err, io.EOF) {
			// What is left, if anything, is an unterminated last line.
			if len(line) > 0 {
				if err := os.Truncate(path, keep); err != nil {
					return nil, fmt.Errorf("resume: %w", err)
				}
			}
			return done, nil
		}
		if err != nil {
			return nil, fmt.Errorf("resume: %s: line at byte %d: %w", path, keep, err)
		}
		var rec struct {
			Site string `json:"site"`
		}
		if json.Unmarshal(line, &rec) != nil || rec.Site == "" {
			return nil, fmt.Errorf("resume: %s: line at byte %d is not a report", path, keep)
		}
		done[rec.Site] = true
		keep += int64(len(line))
	}
}

// errorLine is the JSON line of a site whose scan could not run.
type errorLine struct {
	Site  string `json:"site"`
	Error string `json:"error"`
	// Development is set in development mode (-dev), as on the reports.
	Development bool `json:"development,omitempty"`
}

func runList(ctx context.Context, c *config, stdout, stderr io.Writer, client *safefetch.Client) int {
	all, err := readList(c.list, os.Stdin)
	if err != nil {
		return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
	}
	sites := all[:0:0]
	for _, s := range all {
		if c.of > 0 && readiness.Shard(s, c.of) != c.shard {
			continue
		}
		sites = append(sites, s)
	}
	out := stdout
	if c.out != "" && c.out != "-" {
		flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		if c.resume {
			done, err := doneSites(c.out)
			if err != nil {
				return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
			}
			sites = slices.DeleteFunc(sites, func(s string) bool { return done[s] || done[pageURL(s)] })
			flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
		}
		f, err := os.OpenFile(c.out, flags, 0o644)
		if err != nil {
			return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
		}
		defer f.Close()
		out = f
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	var sw *bufio.Writer // -summary: one compact line per site
	if path, ok := c.outputs["summary"]; ok {
		sout := stdout
		if path != "-" {
			flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
			if c.resume {
				flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
			}
			f, err := os.OpenFile(path, flags, 0o644)
			if err != nil {
				return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
			}
			defer f.Close()
			sout = f
		}
		sw = bufio.NewWriter(sout)
		defer sw.Flush()
	}
	var baselines map[string]*readiness.Summary // -baseline: each site's earlier line
	if c.baseline != "" {
		if baselines, err = readBaselines(c.baseline); err != nil {
			return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
		}
	}
	worse := 0
	var summary listSummary // for $GITHUB_STEP_SUMMARY

	total, done, failed := len(sites), 0, 0
	start := time.Now()
	if c.dev {
		fmt.Fprintln(stderr, devNotice)
	}
	fmt.Fprintf(stderr, "readiness: %d sites to scan", total)
	if c.of > 0 {
		fmt.Fprintf(stderr, " (shard %d/%d of %d)", c.shard, c.of, len(all))
	}
	fmt.Fprintln(stderr)
	renderer, closeRenderer, err := startRenderer(ctx, c)
	if err != nil {
		return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
	}
	defer closeRenderer()
	// One browser serves every scan of the batch.
	for r := range readiness.ScanAll(ctx, slices.Values(sites), &readiness.BatchOptions{
		Options: c.scanOptions(client, renderer), Concurrency: c.concurrency, PerHost: c.perHost,
	}) {
		if r.Err != nil && ctx.Err() != nil && (errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded)) {
			// Cut short or never started by the interrupt: no line, so
			// that -resume scans the site again.
			continue
		}
		done++
		var line, sline []byte
		if r.Err != nil {
			failed++
			line, err = json.Marshal(errorLine{Site: r.Site, Error: r.Err.Error(), Development: c.dev})
			sline = line
		} else {
			if old := baselineOf(baselines, r); old != nil {
				r.Report.Baseline = readiness.CompareSummaries(old, r.Report.Summary())
				if r.Report.Baseline.Worse {
					worse++
					for _, ch := range r.Report.Baseline.Changes {
						if ch.Direction == "worse" {
							fmt.Fprintf(stderr, "gate: %s: %s got worse: %s -> %s\n", r.Report.Site, ch.Check, ch.From, ch.To)
						}
					}
				}
			}
			line, err = compactReport(r.Report)
			if err == nil && sw != nil {
				sline, err = json.Marshal(r.Report.Summary())
			}
		}
		summary.add(r)
		if err == nil {
			_, err = w.Write(append(line, '\n'))
		}
		if err == nil {
			err = w.Flush() // a line is whole on disk before the next, for -resume
		}
		if err == nil && sw != nil {
			if _, err = sw.Write(append(sline, '\n')); err == nil {
				err = sw.Flush()
			}
		}
		if err != nil {
			return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
		}
		if !c.quiet {
			progress(stderr, done, total, failed, start, r)
		}
	}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendFile(path, summary.markdown(done, failed, worse)); err != nil {
			return cli.Output{Name: "readiness", Stderr: stderr}.Fail(cli.ExitUsage, err)
		}
	}
	if done < total {
		fmt.Fprintf(stderr, "readiness: stopped after %d of %d sites: %v (-resume scans the others)\n", done, total, context.Cause(ctx))
		return cli.ExitUsage
	}
	if worse > 0 {
		fmt.Fprintf(stderr, "gate: %s worse than in the baseline\n", count(worse, "site got", "sites got"))
	}
	if failed > 0 || worse > 0 {
		return cli.ExitInvalid
	}
	return cli.ExitOK
}

// baselineOf returns the baseline line of a scanned site, by the site as
// listed or as its report names it.
func baselineOf(baselines map[string]*readiness.Summary, r readiness.BatchResult) *readiness.Summary {
	if baselines == nil {
		return nil
	}
	for _, k := range []string{r.Report.Site, r.Site, pageURL(r.Site)} {
		if s := baselines[k]; s != nil {
			return s
		}
	}
	return nil
}

// compactReport is the report's JSON on one line.
func compactReport(rep *readiness.Report) ([]byte, error) {
	js, err := rep.JSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, js); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pageURL is the site URL as a report names it. It is normalized (host
// case, default port, trailing dot), without a fragment, and with the
// path "/" when it has none. So -resume recognises
// "https://A.example:443" in the list as the report of
// "https://a.example/".
func pageURL(site string) string {
	if n, err := safefetch.NormalizeURL(site, true); err == nil {
		site = n
	}
	u, err := url.Parse(site)
	if err != nil {
		return site
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// progress prints one line per finished site: done/total, rate, ETA and
// failures so far.
func progress(w io.Writer, done, total, failed int, start time.Time, r readiness.BatchResult) {
	el := time.Since(start)
	rate := float64(done) / el.Seconds()
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(total-done) / rate * float64(time.Second))).Round(time.Second).String()
	}
	status := "ok"
	if r.Err != nil {
		status = "error"
	} else if r.Report != nil {
		status = fmt.Sprintf("%.1f", r.Report.Score)
	}
	fmt.Fprintf(w, "[%d/%d] %.1f sites/s, ETA %s, %d failed: %s %s\n", done, total, rate, eta, failed, r.Site, status)
}
