// Command readiness scans websites for agent readiness and writes the
// reports (package github.com/agentweb/agentweb/readiness).
//
// Usage:
//
//	readiness [scan] URL [-json FILE] [-md FILE] [-html FILE] [-fail-under SCORE] [-baseline OLD.json] [-browser] [-dev]
//	readiness [scan] -list FILE [-out FILE] [-resume] [-shard I/N] [-concurrency N] [-per-host N] [-browser] [-dev]
//	readiness mcp [-dev] URL
//	readiness help
//
// Flags follow the standard flag package: -name or --name, a value after a
// space or "=", anywhere after the subcommand. The flags -h, -help, --help
// and the help command print the usage and every flag with its meaning,
// and exit 0.
//
// One site: progress goes to stderr and a summary to stdout. Each form flag
// writes that form of the report to FILE ("-" for stdout). The flags are
// -json, -md, -html, -sarif (SARIF 2.1.0 for code scanning) and -junit
// (JUnit XML). Then -prompt (one Markdown prompt for a coding agent with
// every fix), -badge (a shields-style SVG) and -summary (one compact JSON
// line). The flag -history FILE reads the site's earlier runs from a JSON
// Lines file, draws the trend from them in every form, and appends this
// run's summary to it. When the environment variable GITHUB_STEP_SUMMARY
// names a file (as in GitHub Actions), a short Markdown summary of the run
// is appended to it. With -list, it is a table with one row per site
// scanned. A row has the score, the readiness, and against a baseline the
// delta and every check that got worse.
//
// The exit code is 0 when the site is ready, 1 when it is not, and 2 on a usage
// error or when the scan could not run. With -fail-under or -baseline the
// command is a CI gate instead. It exits 1 when the score is below SCORE, or
// when any check got worse than in the baseline (every such check is listed).
// It exits 0 otherwise. The baseline is a report written earlier with -json, or
// a JSON Lines file written by -list -out, -summary or -history. Of such a
// file, the last line of the scanned site is used. When the file holds one
// other site, its line is used: production's report for a preview deployment.
// Every form then shows the delta: the score, each section and each check that
// changed, both ways. A check got worse when its verdict fell, or an optional
// document vanished. A verdict falls from pass or not applicable to partial,
// partial to unverified, unverified to fail. A pass that became not applicable
// is a change, not a regression.
//
// A list is -list FILE, "-" for stdin: one site URL a line, blank lines and
// lines starting with # skipped. The reports are written as JSON Lines to
// -out (default stdout), one compact report a line in completion order. A
// site whose scan could not run is written as {"site": URL, "error":
// "..."}. -summary FILE writes a compact line per site as well, for trends
// over thousands of sites. A line has the score, ready, and the state of
// every check: about 1.5 KB where a report line is tens. The flag -baseline
// compares each site with its own line of an earlier -out or -summary file,
// and puts the delta in its report line. It lists on stderr every check
// that got worse, and makes the exit code 1 when any site got worse.
// Progress (done/total, rate, ETA, failures) goes to stderr. -resume keeps
// the lines already in -out and skips their sites. A run that was
// interrupted wrote no line for the sites it had not finished, so -resume
// scans them. The flag -shard I/N keeps only the sites whose registrable
// domain falls in shard I of N (readiness.Shard). So N machines split one
// list without talking to each other. The exit code is 0 when every site
// was scanned, 1 when some could not be, 2 on a usage error or an
// interrupted run.
//
// mcp: probes one MCP endpoint (package
// github.com/agentweb/agentweb/readiness/mcpprobe) and prints its receipt as
// JSON to stdout, for an MCP server author's CI. The exit code is 0 when the
// endpoint answers as MCP: tools listed, or sign-in required with a Bearer
// challenge. It is 1 when nothing answers as MCP, and 2 on a usage error.
//
// -browser renders the pages in the system's Chromium (package
// github.com/agentweb/agentweb/readiness/browser; apt-get install chromium).
// One browser serves the whole run, -list included. The Act checks are then
// judged on the tools Chromium registered and the rendered forms. Without
// it, scripts are read, never run.
//
// -dev is development mode, for a server on the developer's own machine
// (readiness mcp -dev http://127.0.0.1:8080/mcp): http and loopback
// addresses are allowed (safefetch.Options.AllowLoopback). It is never the
// default, and every report made in it says so. The report's
// scope.development and the receipt's development field say it. So do a
// notice at the top of the Markdown and HTML forms, and a line on stdout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/safefetch"
)

// usageHead is the synopsis and what the modes do; the flags follow it.
const usageHead = `usage: readiness [scan] URL [flags]          scan one site; a summary on stdout, progress on stderr
       readiness [scan] -list FILE [flags]  scan many sites; one JSON report a line
       readiness mcp [-dev] URL             probe one MCP endpoint; its receipt as JSON on stdout
       readiness help                       this help

One site exits 0 when it is ready, 1 when it is not, 2 when the scan could
not run. As a CI gate (-fail-under, -baseline) it exits 1 when the score is
under SCORE or any check got worse than in the baseline report (each one is
listed), 0 otherwise. A list exits 0 when every site was scanned, 1 when some
could not be, 2 when it was interrupted (-resume then scans what is left).
mcp exits 0 when the endpoint answers as MCP, 1 when it does not.
One site appends a short Markdown summary (score, delta, fixes, a prompt)
to the file $GITHUB_STEP_SUMMARY names, when it is set; a list appends a
table with a row per site (score, ready, delta, checks that got worse).

Flags (-name or --name, anywhere after the subcommand):
`

// devNotice is the line every report made in development mode adds to the
// output.
const devNotice = "development mode: http and loopback addresses were allowed (-dev); this is not a scan of a public site"

// devHint follows a refusal by the fetch policy outside development mode.
const devHint = "readiness: a server on this machine (http, loopback) is reached only in development mode: add -dev"

// scanOptions are the scan's options from the command line: with
// -max-body, the per-response cap and a total byte budget that holds
// several such responses.
func (c *config) scanOptions(client *safefetch.Client, renderer readiness.Renderer) readiness.Options {
	o := readiness.Options{Client: client, Renderer: renderer, MaxBodyBytes: c.maxBody}
	if c.maxBody > 0 {
		o.Budget.Bytes = max(readiness.DefaultTotalBytes, 8*c.maxBody)
	}
	return o
}

// parseSize reads a size: bytes, or a number with KiB or MiB, at most 1 GiB.
func parseSize(v string) (int64, error) {
	num, unit := v, int64(1)
	for suffix, u := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			num, unit = n, u
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 1 || n > (1<<30)/unit {
		return 0, fmt.Errorf("%q is not a size from 1 byte to 1024MiB", v)
	}
	return n * unit, nil
}

// hintDev prints devHint after a refusal that development mode would
// lift: a server on this machine, refused outside -dev. A URL with
// userinfo gets no hint: -dev refuses credentials in a URL too.
func hintDev(stderr io.Writer, c *config, err error) {
	if c.dev || !loopbackURL(c.site) || !(errors.Is(err, safefetch.ErrForbiddenURL) || errors.Is(err, safefetch.ErrForbiddenAddress)) {
		return
	}
	if u, perr := url.Parse(c.site); perr == nil && u.User != nil {
		return
	}
	fmt.Fprintln(stderr, devHint)
}

// loopbackURL reports whether rawURL names a host on this machine: a
// loopback address, localhost or a name under .localhost.
func loopbackURL(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.IsLoopback()
	}
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

func main() {
	ctx, stop := signals()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// signals returns a context that ends at the first Ctrl-C or SIGTERM (a
// service manager, a CI runner's cancel). The run then ends as it does at
// the end of its work, the browser closed and its directory removed. A
// second signal, once the first has been seen, ends the process.
func signals() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

// config is the parsed command line of scan.
type config struct {
	site      string
	outputs   map[string]string // form -> file
	order     []string          // forms in the order given
	failUnder float64
	gate      bool // -fail-under given
	baseline  string
	history   string // -history FILE
	dev       bool
	browser   bool  // -browser: render the pages in Chromium
	quiet     bool  // -q: no progress lines
	maxBody   int64 // -max-body: the per-response cap, 0: the default

	list, out   string
	resume      bool
	shard, of   int
	concurrency int
	perHost     int
}

// flags returns the flag set of scan and mcp (mcp reads only -dev), bound
// to c. Errors and help are left to the caller (its output is discarded).
func flags(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("readiness", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	for _, f := range []struct{ name, what string }{
		{"json", "write the report as JSON to `FILE` (\"-\": stdout); the form -baseline reads"},
		{"md", "write the report as Markdown to `FILE` (\"-\": stdout)"},
		{"html", "write the report as one self-contained HTML page to `FILE` (\"-\": stdout)"},
		{"sarif", "write the report as SARIF 2.1.0 to `FILE` (\"-\": stdout), for code scanning: a rule per check,\na result per check that leaves points"},
		{"junit", "write the report as JUnit XML to `FILE` (\"-\": stdout): a test case per check"},
		{"prompt", "write one Markdown prompt for a coding agent with every fix, in fix-first order, to `FILE`"},
		{"badge", "write the score as a shields-style SVG badge to `FILE`"},
		{"summary", "write the report's compact summary (score, ready, the state of every check) as one JSON line\nto `FILE`; with -list, one line per site"},
	} {
		form := f.name
		fs.Func(form, f.what, func(v string) error {
			if _, dup := c.outputs[form]; !dup {
				c.order = append(c.order, form)
			}
			c.outputs[form] = v
			return nil
		})
	}
	fs.Func("fail-under", "CI gate: exit 1 when the score (0 to 100) is below `SCORE`", func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 100 {
			return fmt.Errorf("%q is not a score from 0 to 100", v)
		}
		c.failUnder, c.gate = f, true
		return nil
	})
	fs.StringVar(&c.baseline, "baseline", "", "CI gate: compare with the report `OLD.json` (written by -json, or JSON Lines written by -list -out,\n-summary or -history: the last line of this site, or of the one site it holds), show the delta in every form, and exit 1 listing\nevery check that got worse; with -list, each site against its own line")
	fs.StringVar(&c.history, "history", "", "append this run's summary to the JSON Lines `FILE` and draw the site's trend from it in every form")
	fs.StringVar(&c.list, "list", "", "scan the site URLs of `FILE`, one a line (\"-\": stdin; blank lines and # comments skipped)")
	fs.StringVar(&c.out, "out", "", "with -list: write the JSON Lines to `FILE` (default stdout)")
	fs.BoolVar(&c.resume, "resume", false, "with -list -out: keep the lines already in the -out file and skip their sites")
	fs.Func("shard", "with -list: keep the sites whose registrable domain falls in shard `I/N` (0 <= I < N)", func(v string) error {
		i, n, ok := strings.Cut(v, "/")
		si, err1 := strconv.Atoi(i)
		sn, err2 := strconv.Atoi(n)
		if !ok || err1 != nil || err2 != nil || sn < 1 || si < 0 || si >= sn {
			return fmt.Errorf("%q is not I/N with 0 <= I < N", v)
		}
		c.shard, c.of = si, sn
		return nil
	})
	positive := func(dst *int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not a positive number", v)
			}
			*dst = n
			return nil
		}
	}
	fs.Func("concurrency", "with -list: scan at most `N` sites at once (default 8)", positive(&c.concurrency))
	fs.Func("per-host", "with -list: scan at most `N` sites of one registrable domain at once (default 1)", positive(&c.perHost))
	fs.BoolVar(&c.browser, "browser", false, "render the pages in the system's Chromium (apt-get install chromium): the Act checks are judged\non the tools it registered and the rendered forms; one browser for the whole run")
	fs.BoolVar(&c.quiet, "q", false, "quiet: print no progress line, only the summary and errors")
	fs.Func("max-body", "read at most `SIZE` of each response (bytes, or with KiB or MiB; default 1MiB); a page over the cap\nleaves the checks that need it unverified, and the report says so at its top", func(v string) error {
		n, err := parseSize(v)
		if err != nil {
			return err
		}
		c.maxBody = n
		return nil
	})
	fs.BoolVar(&c.dev, "dev", false, "development mode: allow http and loopback addresses, for a server on this machine\n(never the default; every report made with it says so)")
	return fs
}

// printUsage writes the whole help: the synopsis, then every flag.
func printUsage(w io.Writer) {
	fs := flags(&config{outputs: map[string]string{}})
	fs.SetOutput(w)
	fmt.Fprint(w, usageHead)
	fs.PrintDefaults()
}

// usageError reports a usage error on stderr, without doubling the
// program's name in front of an error that already carries it, and points
// at the help.
func usageError(stderr io.Writer, err error) int {
	msg := strings.TrimPrefix(err.Error(), "readiness: ")
	fmt.Fprintf(stderr, "readiness: %s\nRun 'readiness -h' for the usage and every flag.\n", msg)
	return cli.ExitUsage
}

// run is the whole program; client nil means safefetch.Default(), or in
// development mode (-dev) a client that allows http and loopback.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) > 0 && cli.IsHelp(args[0]) {
		printUsage(stdout)
		return cli.ExitOK
	}
	mcpMode := len(args) > 0 && args[0] == "mcp"
	if len(args) > 0 && (mcpMode || args[0] == "scan") {
		args = args[1:]
	}
	c, err := parse(args, mcpMode)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return cli.ExitOK
	}
	if err != nil {
		return usageError(stderr, err)
	}
	if (c.dev || c.maxBody > 0) && client == nil {
		client = safefetch.New(&safefetch.Options{AllowLoopback: c.dev, MaxBodyBytes: c.maxBody})
	}
	if mcpMode {
		return runMCP(ctx, c, stdout, stderr, client)
	}
	if c.list != "" {
		return runList(ctx, c, stdout, stderr, client)
	}
	return runOne(ctx, c, stdout, stderr, client)
}

// parse reads the command line of scan, or of mcp (one URL and -dev only).
func parse(args []string, mcpMode bool) (*config, error) {
	c := &config{outputs: map[string]string{}}
	fs := flags(c)
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return nil, err
	}
	if slicesHasHelp(pos) {
		return nil, flag.ErrHelp
	}
	if mcpMode {
		extra := false
		fs.Visit(func(f *flag.Flag) { extra = extra || f.Name != "dev" })
		switch {
		case extra:
			return nil, fmt.Errorf("mcp takes -dev and one endpoint URL, no other flag")
		case len(pos) != 1:
			return nil, fmt.Errorf("mcp takes one endpoint URL")
		}
		c.site = pos[0]
		return c, nil
	}
	if len(pos) > 1 {
		return nil, fmt.Errorf("unexpected argument %q", pos[1])
	}
	if len(pos) == 1 {
		c.site = pos[0]
	}
	listMode := c.list != ""
	switch {
	case listMode && c.site != "":
		return nil, fmt.Errorf("give a URL or -list, not both")
	case !listMode && c.site == "":
		return nil, fmt.Errorf("no site URL")
	case listMode && (len(c.order) > countForm(c, "summary") || c.gate || c.history != ""):
		return nil, fmt.Errorf("-json, -md, -html, -sarif, -junit, -prompt, -badge, -fail-under and -history are for one site")
	case listMode && c.outputs["summary"] == "-" && (c.out == "" || c.out == "-"):
		return nil, fmt.Errorf("with -list, -summary - needs -out FILE: both would go to stdout")
	case !listMode && (c.out != "" || c.resume || c.of > 0 || c.concurrency > 0 || c.perHost > 0):
		return nil, fmt.Errorf("-out, -resume, -shard, -concurrency and -per-host are for -list")
	case c.resume && (c.out == "" || c.out == "-"):
		return nil, fmt.Errorf("-resume needs -out FILE")
	}
	return c, nil
}

// countForm is 1 when the form was asked for, else 0.
func countForm(c *config, form string) int {
	if _, ok := c.outputs[form]; ok {
		return 1
	}
	return 0
}

// slicesHasHelp reports whether a positional argument is the help command
// ("readiness scan help").
func slicesHasHelp(pos []string) bool {
	for _, p := range pos {
		if p == "help" {
			return true
		}
	}
	return false
}
