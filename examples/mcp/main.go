// Command mcp serves the agentweb SDK as MCP tools (package
// github.com/agentweb/agentweb/readiness/mcpserver). With it an agent
// validates the agentic.json, agent-signup.json, OpenAgent profile,
// knowledge linkset or agents.json it writes. It discovers what a site
// publishes, scans it for agent readiness and reads the fix-first list. It
// probes an MCP endpoint, and asks what a check means, without a line of Go.
//
// Usage:
//
//	mcp [-http ADDR] [-dev] [-browser]
//
// By default it speaks MCP over stdio (newline-delimited JSON-RPC on stdin
// and stdout; logs go to stderr), as an MCP client starts a local server.
// Install it with
//
//	go install github.com/agentweb/agentweb/examples/mcp@latest
//
// and give the client this entry (Claude Desktop's claude_desktop_config.json,
// Cursor's .cursor/mcp.json, VS Code's .vscode/mcp.json under "servers"):
//
//	{
//	  "mcpServers": {
//	    "agentweb": {
//	      "command": "mcp",
//	      "args": ["-dev"]
//	    }
//	  }
//	}
//
// "command" is the installed binary (its full path, $(go env GOPATH)/bin/mcp,
// when the client does not search PATH). Without installing, use "command":
// "go" with "args": ["run", "github.com/agentweb/agentweb/examples/mcp@latest",
// "-dev"].
//
// -http ADDR serves MCP Streamable HTTP at http://ADDR/mcp instead, for a
// client that connects by URL ({"url": "http://127.0.0.1:8765/mcp"}), with
// the server's limits per caller and per target site.
//
// -dev is development mode, for a coding agent working on a site that runs
// on the developer's own machine. The tools then reach loopback addresses
// and plain http (http://127.0.0.1:8080/), as no public scanner does. Every
// result says so. Leave it out to reach only public https sites.
//
// -browser renders pages in the system's Chromium (apt-get install
// chromium) when scan_site is called with "browser": true.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/readiness/mcpserver"
	"github.com/agentweb/agentweb/safefetch"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, nil))
}

// run serves until ctx ends or stdin closes. ready, when not nil, is told
// the HTTP address once it listens.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, ready func(addr string)) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve MCP Streamable HTTP at http://ADDR/mcp instead of stdio")
	dev := fs.Bool("dev", false, "development mode: reach loopback addresses and plain http (every result says so)")
	useBrowser := fs.Bool("browser", false, "render pages in the system's Chromium for scan_site calls with \"browser\": true")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mcp: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	logger := log.New(stderr, "mcp: ", 0)
	opts := &mcpserver.Options{}
	if *dev {
		opts.Client = safefetch.New(&safefetch.Options{AllowLoopback: true})
		logger.Print("development mode: loopback addresses and plain http are allowed")
	}
	if *useBrowser {
		b, err := browser.New(ctx, nil)
		if err != nil {
			logger.Printf("-browser: %v", err)
			return 2
		}
		defer b.Close()
		opts.Renderer = readiness.Renderer(b)
	}
	srv, err := mcpserver.New(opts)
	if err != nil {
		logger.Print(err)
		return 2
	}
	if *addr == "" {
		if err := srv.ServeStdio(ctx, stdin, stdout); err != nil {
			logger.Print(err)
			return 1
		}
		return 0
	}
	return serveHTTP(ctx, *addr, srv, logger, ready)
}

func serveHTTP(ctx context.Context, addr string, srv *mcpserver.Server, logger *log.Logger, ready func(string)) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Print(err)
		return 2
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	logger.Printf("serving MCP at http://%s/mcp", ln.Addr())
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		logger.Print(err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return 0
}
