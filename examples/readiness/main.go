// Command readiness scans websites for agent readiness and writes the
// reports (package github.com/agentweb/agentweb/readiness).
//
// Usage:
//
//	readiness scan URL [-browser] [--json FILE] [--md FILE] [--html FILE] [-fail-under SCORE] [-baseline OLD.json]
//	readiness scan -list FILE [-browser] [-out FILE] [-resume] [-shard I/N] [-concurrency N] [-per-host N]
//	readiness mcp URL
//
// One site: progress goes to stderr and a summary to stdout; each --json,
// --md or --html flag writes that form of the report to FILE ("-" for
// stdout). The exit code is 0 when the site is ready, 1 when it is not, and
// 2 on a usage error or when the scan could not run. With -fail-under or
// -baseline the command is a CI gate instead: it exits 1 when the score is
// below SCORE, or when any check's verdict is worse than in the report
// OLD.json (every such check is listed), and 0 otherwise.
//
// A list (-list FILE, "-" for stdin; one site URL a line, blank lines and
// lines starting with # skipped): the reports are written as JSON Lines to
// -out (default stdout), one compact report a line in completion order, and
// a site whose scan could not run as {"site": URL, "error": "..."}. Progress
// (done/total, rate, ETA, failures) goes to stderr. -resume keeps the lines
// already in -out and skips their sites. -shard I/N keeps only the sites
// whose registrable domain falls in shard I of N (readiness.Shard), so that
// N machines split one list without talking to each other. The exit code is
// 0 when every site was scanned, 1 when some could not be, 2 on a usage
// error.
//
// -browser renders the pages in the system's Chromium (package
// github.com/agentweb/agentweb/readiness/browser; apt-get install chromium),
// one browser for the whole run, -list included: the Act checks are then
// judged on the tools Chromium registered and the rendered forms. Without
// it, scripts are read, never run.
//
// mcp: probes one MCP endpoint (package
// github.com/agentweb/agentweb/readiness/mcpprobe) and prints its receipt as
// JSON to stdout, for an MCP server author's CI. The exit code is 0 when
// the endpoint answers as MCP (tools listed, or sign-in required with a
// Bearer challenge), 1 when nothing answers as MCP, and 2 on a usage error.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

const usage = `usage: readiness scan URL [-browser] [--json FILE] [--md FILE] [--html FILE] [-fail-under SCORE] [-baseline OLD.json]
       readiness scan -list FILE [-browser] [-out FILE] [-resume] [-shard I/N] [-concurrency N] [-per-host N]
       readiness mcp URL`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// config is the parsed command line of scan.
type config struct {
	site      string
	outputs   map[string]string // form -> file
	order     []string          // forms in the order given
	failUnder float64
	gate      bool // -fail-under given
	baseline  string

	list, out   string
	resume      bool
	shard, of   int
	concurrency int
	perHost     int

	browser bool // -browser: render the pages in Chromium
}

// run is the whole program; client nil means safefetch.Default().
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(ctx, args[1:], stdout, stderr, client)
	}
	if len(args) > 0 && args[0] == "scan" {
		args = args[1:]
	}
	c, err := parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "readiness: %v\n%s\n", err, usage)
		return cli.ExitUsage
	}
	if c.list != "" {
		return runList(ctx, c, stdout, stderr, client)
	}
	return runOne(ctx, c, stdout, stderr, client)
}

func parse(args []string) (*config, error) {
	c := &config{outputs: map[string]string{}}
	value := func(i int) (string, error) {
		if i+1 >= len(args) {
			return "", fmt.Errorf("%s needs a value", args[i])
		}
		return args[i+1], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := "-" + strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || a == "-" {
			if c.site != "" {
				return nil, fmt.Errorf("unexpected argument %q", a)
			}
			c.site = a
			continue
		}
		if name == "-resume" {
			c.resume = true
			continue
		}
		if name == "-browser" {
			c.browser = true
			continue
		}
		v, err := value(i)
		if err != nil {
			return nil, err
		}
		i++
		switch name {
		case "-json", "-md", "-html":
			form := name[1:]
			if _, dup := c.outputs[form]; !dup {
				c.order = append(c.order, form)
			}
			c.outputs[form] = v
		case "-fail-under":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 100 {
				return nil, fmt.Errorf("-fail-under %q is not a score from 0 to 100", v)
			}
			c.failUnder, c.gate = f, true
		case "-baseline":
			c.baseline = v
		case "-list":
			c.list = v
		case "-out":
			c.out = v
		case "-shard":
			i, n, ok := strings.Cut(v, "/")
			si, err1 := strconv.Atoi(i)
			sn, err2 := strconv.Atoi(n)
			if !ok || err1 != nil || err2 != nil || sn < 1 || si < 0 || si >= sn {
				return nil, fmt.Errorf("-shard %q is not I/N with 0 <= I < N", v)
			}
			c.shard, c.of = si, sn
		case "-concurrency", "-per-host":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%s %q is not a positive number", a, v)
			}
			if name == "-concurrency" {
				c.concurrency = n
			} else {
				c.perHost = n
			}
		default:
			return nil, fmt.Errorf("unexpected argument %q", a)
		}
	}
	listMode := c.list != ""
	switch {
	case listMode && c.site != "":
		return nil, fmt.Errorf("give a URL or -list, not both")
	case !listMode && c.site == "":
		return nil, fmt.Errorf("no site URL")
	case listMode && (len(c.order) > 0 || c.gate || c.baseline != ""):
		return nil, fmt.Errorf("--json, --md, --html, -fail-under and -baseline are for one site")
	case !listMode && (c.out != "" || c.resume || c.of > 0 || c.concurrency > 0 || c.perHost > 0):
		return nil, fmt.Errorf("-out, -resume, -shard, -concurrency and -per-host are for -list")
	case c.resume && (c.out == "" || c.out == "-"):
		return nil, fmt.Errorf("-resume needs -out FILE")
	}
	return c, nil
}
