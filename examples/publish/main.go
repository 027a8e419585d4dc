// Command publish serves a folder of plain HTML files agent-ready, for
// static sites: a thin program over package
// github.com/agentweb/agentweb/readiness/publish.
//
// Usage:
//
//	publish -dir DIR -config site.json [-addr 127.0.0.1:8080]
//	publish -dir DIR -config site.json -check
//
// The folder is served as it is (http.FileServerFS), wrapped by the kit.
// The kit adds /llms.txt, /robots.txt, /sitemap.xml, the capability card
// at /.well-known/agents.json and /agents.json, and the Agentic Site
// Profile. It adds Markdown negotiation with Vary: Accept on every HTML
// page, the Link headers and the missing head elements (canonical, lang,
// JSON-LD). Files and folders whose name starts with "." are not served
// (but .well-known), nor is a folder without an index.html listed. Keep
// the config outside the folder: every other file of the folder is served
// as it is.
//
// The config is a small JSON file with the site's facts; unknown members
// are refused:
//
//	{"origin": "https://tea.example", "name": "Tea Shop",
//	 "description": "Loose-leaf tea, shipped within the EU.",
//	 "summary": "...", "language": "en",
//	 "contact": {"email": "people@tea.example", "url": "/contact.html"},
//	 "crawlers": {"training": "disallow", "search": "allow", "user": "allow"},
//	 "disallow": ["/cart/"], "logo": "/logo.svg", "same_as": ["https://..."],
//	 "content_signal": "search=yes, ai-train=no",
//	 "pages": [{"path": "/", "title": "Tea Shop", "description": "...",
//	            "updated": "2026-11-20", "section": "Pages"}]}
//
// Without "pages" the program lists the folder's *.html files itself: at
// most 10,000 files, 16 folders deep, each read up to 4 MiB. Each page's
// title and description come from its <title> and <meta name=description>,
// its update time from the file's modification time. An index.html stands
// for its folder's path. A foo.md next to foo.html is served as that page's
// own Markdown, and an openapi.json at the top of the folder as the site's
// OpenAPI document.
//
// Flags:
//
//	-dir DIR         the folder to serve (required)
//	-config FILE     the site's facts (required)
//	-addr HOST:PORT  where to listen; 127.0.0.1:8080, loopback only, unless given
//	-check           build and validate everything, print the routes that
//	                 would be served, and exit without serving
//
// The exit code is 0 when the site was served until interrupted, or with
// -check when everything is valid. It is 1 when -check finds a route
// that does not answer. It is 2 on a usage error, a bad config or
// folder, or when the address cannot be listened on.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
)

const usage = "usage: publish -dir DIR -config FILE [-addr 127.0.0.1:8080] [-check]"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// serveFunc serves h at addr until ctx ends. The program's own listens on
// addr; its tests mount h on a fake network instead.
type serveFunc func(ctx context.Context, addr string, h http.Handler, stderr io.Writer) error

// run is the whole program; serve nil means listening on -addr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, serve serveFunc) int {
	fs := flag.NewFlagSet("publish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the folder of HTML files to serve")
	config := fs.String("config", "", "the JSON file with the site's facts")
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on")
	check := fs.Bool("check", false, "validate and print the routes, without serving")
	pos, err := cli.Parse(fs, args)
	if err != nil {
		return cli.ExitUsage
	}
	switch {
	case len(pos) > 0:
		fmt.Fprintf(stderr, "publish: unexpected argument %q\n%s\n", pos[0], usage)
		return cli.ExitUsage
	case *dir == "" || *config == "":
		fmt.Fprintf(stderr, "publish: -dir and -config are required\n%s\n", usage)
		return cli.ExitUsage
	}
	site, err := load(*dir, *config)
	if err != nil {
		fmt.Fprintf(stderr, "publish: %v\n", err)
		return cli.ExitUsage
	}
	h, err := site.Handler(files(*dir))
	if err != nil {
		fmt.Fprintf(stderr, "publish: %s: %v\n", *config, err)
		return cli.ExitUsage
	}
	if *check {
		if !printRoutes(stdout, site, h) {
			return cli.ExitInvalid
		}
		return cli.ExitOK
	}
	if serve == nil {
		serve = listen
	}
	if err := serve(ctx, *addr, h, stderr); err != nil {
		fmt.Fprintf(stderr, "publish: %v\n", err)
		return cli.ExitUsage
	}
	return cli.ExitOK
}

// listen serves h on addr until ctx ends, then shuts down gracefully.
func listen(ctx context.Context, addr string, h http.Handler, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(stderr, "publish: serving on http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
