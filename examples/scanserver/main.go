// Command scanserver runs a self-hosted agent-readiness scanning site
// (package github.com/agentweb/agentweb/readiness/service). It has a
// form, live progress, reports, every site's history with a trend chart,
// and badges. It serves a JSON API and its OpenAPI document, and the
// SDK's MCP tools at /mcp (package readiness/mcpserver).
//
// Usage:
//
//	scanserver [-addr 127.0.0.1:8080] [-db agentweb.db | -db postgres://…] [-origin URL] [-dev] [-browser] [-workers 4]
//
// By default it serves http://127.0.0.1:8080 and keeps its scans in the
// SQLite file agentweb.db in the working directory. The flag -db takes
// another path, or a postgres:// DSN for several instances sharing one
// database. The flag -origin is the public origin the site's own documents
// name (llms.txt, the API catalog, links). It defaults to http:// and
// -addr. The flag -dev is development mode: the scans may reach servers on
// this machine (http, loopback), and every page says so. Never use it on a
// public address. The flag -browser renders the scanned pages in the
// system's Chromium (package readiness/browser) for the scans that ask for
// it. The flag -workers bounds the scans that run at once.
//
// SIGINT or SIGTERM stops it gracefully: no new scan is accepted, and the
// running ones get ten seconds to finish. Those that do not are put back
// in the queue, which the next start takes up again. A process killed
// outright loses nothing either: on the next start, the scans it was
// running are queued again (once; a second interruption fails them with
// the reason).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "scanserver:", err)
		}
		os.Exit(2)
	}
}

// config is the command line.
type config struct {
	addr, db, origin string
	dev, browser     bool
	workers          int
}

func parse(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("scanserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "the address to listen on")
	fs.StringVar(&c.db, "db", "agentweb.db", "the SQLite file, or a postgres:// DSN")
	fs.StringVar(&c.origin, "origin", "", "the site's public origin (default http:// and -addr)")
	fs.BoolVar(&c.dev, "dev", false, "development mode: scan servers on this machine (http, loopback); said on every page")
	fs.BoolVar(&c.browser, "browser", false, "render pages in the system's Chromium for the scans that ask for it")
	fs.IntVar(&c.workers, "workers", service.DefaultWorkers, "how many scans run at once")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c, nil
}

// run serves until ctx is done. It prints the address it serves on, so
// that a caller that gave port 0 learns the port.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parse(args, stderr)
	if err != nil {
		return err
	}
	var store service.Store
	if strings.HasPrefix(c.db, "postgres://") || strings.HasPrefix(c.db, "postgresql://") {
		store, err = service.OpenPostgres(ctx, c.db)
	} else {
		store, err = service.OpenSQLite(c.db)
	}
	if err != nil {
		return err
	}
	defer store.Close()

	var client *safefetch.Client
	if c.dev {
		client = safefetch.New(&safefetch.Options{AllowLoopback: true})
	}
	var renderer readiness.Renderer
	if c.browser {
		b, err := browser.New(ctx, nil)
		if err != nil {
			return fmt.Errorf("-browser: %w", err)
		}
		defer b.Close()
		renderer = b
	}

	// The SDK's MCP tools at /mcp, on the same client and browser, behind
	// the service's limits and their own.
	tools, err := mcpserver.New(&mcpserver.Options{Client: client, Renderer: renderer})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	origin := c.origin
	if origin == "" {
		origin = "http://" + ln.Addr().String()
	}
	svc, err := service.New(ctx, &service.Options{
		Client:   client,
		Renderer: renderer,
		Store:    store,
		Origin:   origin,
		MCP:      tools.Handler(),
		Workers:  c.workers,
		Logger:   slog.New(slog.NewTextHandler(stderr, nil)),
	})
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{
		Handler:           svc,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
	}
	fmt.Fprintf(stdout, "scanserver: serving %s on http://%s\n", origin, ln.Addr())
	if c.dev {
		fmt.Fprintln(stdout, "scanserver: development mode: servers on this machine are scanned")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		svc.Close()
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// The service first: it ends its event streams, which Shutdown waits for.
	svc.Close()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	return nil
}
