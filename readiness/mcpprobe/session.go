package mcpprobe

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"syscall"

	"github.com/agentweb/agentweb/safefetch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is one run of the MCP client.
type session struct {
	endpoint     string
	negotiated   string
	serverInfo   *Implementation
	initialized  bool
	listed       bool
	tools        int
	readOnly     int
	pages        int
	pageCapped   bool
	connectErr   error
	listErr      error
	exchanges    []*exchange
	firstAttempt int // exchanges of a first attempt that was retried
}

func runSession(ctx context.Context, c *safefetch.Client, endpoint string, o *Options) *session {
	s := &session{endpoint: endpoint}
	hc := c.HTTPClient()
	rec := &recorder{next: hc.Transport}
	rec.deadline, rec.hasDeadline = ctx.Deadline()
	hc.Transport = rec
	client := mcp.NewClient(&mcp.Implementation{Name: o.ClientName, Version: o.ClientVersion},
		// No capability is declared that the probe does not serve. The set
		// is empty, not the SDK's default roots.
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	tr := &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
		HTTPClient:           hc,
		MaxRetries:           -1,
		DisableStandaloneSSE: true,
		MaxEventSize:         MaxBodyBytes,
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: o.ProtocolVersion})
	if err != nil {
		s.connectErr = err
	} else {
		if ir := cs.InitializeResult(); ir != nil {
			s.initialized = true
			s.negotiated = ir.ProtocolVersion
			if ir.ServerInfo != nil {
				s.serverInfo = &Implementation{Name: clip(ir.ServerInfo.Name, 120), Version: clip(ir.ServerInfo.Version, 40)}
			}
		}
		cursor := ""
		for page := 0; page < o.MaxToolPages; page++ {
			res, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			if err != nil {
				s.listErr = err
				// The session's request bound stopped a listing that
				// announced more: capped, as by MaxToolPages.
				s.pageCapped = s.pages > 0 && errors.Is(err, errExchanges)
				break
			}
			s.listed = true
			s.pages++
			for _, t := range res.Tools {
				if t == nil {
					continue
				}
				s.tools++
				if t.Annotations != nil && t.Annotations.ReadOnlyHint {
					s.readOnly++
				}
			}
			if res.NextCursor == "" {
				break
			}
			if page == o.MaxToolPages-1 {
				s.pageCapped = true
			}
			cursor = res.NextCursor
		}
		_ = cs.Close()
	}
	// The MCP client may still be draining a stream in a goroutine of its
	// own, and those reads still count against the cap. So the session
	// keeps copies taken under the recorder's lock. The receipt reads what
	// the session saw, never an exchange being written.
	rec.mu.Lock()
	for _, e := range rec.ex {
		cp := *e
		cp.body = slices.Clone(e.body)
		s.exchanges = append(s.exchanges, &cp)
	}
	rec.mu.Unlock()
	return s
}

// closedConn reports whether the session failed because a connection
// closed under a request that can be repeated. That is a reset, an EOF
// before the answer, or a pooled connection net/http had already closed.
func (s *session) closedConn() bool {
	if s.connectErr == nil && s.listErr == nil {
		return false
	}
	for _, e := range s.exchanges {
		if e.Status == 0 && e.err != nil && isClosedConn(e.err) {
			return true
		}
	}
	return false
}

func isClosedConn(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) ||
		errors.Is(err, safefetch.ErrTimeout) || errors.Is(err, safefetch.ErrTooLarge) ||
		errors.Is(err, safefetch.ErrForbiddenAddress) || errors.Is(err, safefetch.ErrForbiddenURL) ||
		errors.Is(err, safefetch.ErrBudgetExhausted) || errors.Is(err, errExchanges) {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, http.ErrServerClosed) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"putIdleConn", "server closed idle connection", "use of closed network connection", "connection reset", "broken pipe", "http2: client connection lost", "GOAWAY"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
