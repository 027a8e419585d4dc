package linkset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// The suggested bounds of Section 7.2, used when a WalkOptions field is zero.
const (
	defaultWalkDepth      = 3
	defaultPeersPerDoc    = 50
	defaultWalkRequests   = 500
	defaultRequestTimeout = 10 * time.Second
	defaultWalkRedirects  = 3
)

// WalkOptions bounds a peer walk (Section 7.2). The zero value is the
// draft's suggested defaults; a deployment may lower them.
type WalkOptions struct {
	// Client makes the requests; nil means safefetch.Default(), the
	// module's shared client. The walk charges its own request budget,
	// nested in the client's own budget if it has one. Both are charged,
	// and the walk stops when either runs out. The walk imposes its own
	// redirect bound on top of the client's redirect bound and policy,
	// which still apply.
	Client *safefetch.Client
	// MaxDepth is the deepest level fetched, the start being depth 0
	// (0: 3; negative: the start node only).
	MaxDepth int
	// MaxPeers is the number of peer links considered per document, in
	// document order (0: 50).
	MaxPeers int
	// MaxRequests bounds the requests of the walk, redirects included (0: 500).
	MaxRequests int
	// RequestTimeout bounds each fetch (0: 10 s).
	RequestTimeout time.Duration
	// MaxRedirects bounds the redirects of each fetch (0: 3; negative: none).
	MaxRedirects int
}

// client is the Client of Walk: o.Client, or safefetch.Default() when it is
// nil.
func (o *WalkOptions) client() *safefetch.Client { return safefetch.OrDefault(o.Client) }

func (o *WalkOptions) bounds() (depth, peers, requests, redirects int, timeout time.Duration) {
	depth, peers, requests, redirects, timeout = defaultWalkDepth, defaultPeersPerDoc, defaultWalkRequests, defaultWalkRedirects, defaultRequestTimeout
	if o.MaxDepth > 0 {
		depth = o.MaxDepth
	} else if o.MaxDepth < 0 {
		depth = 0
	}
	if o.MaxPeers > 0 {
		peers = o.MaxPeers
	}
	if o.MaxRequests > 0 {
		requests = o.MaxRequests
	}
	if o.MaxRedirects > 0 {
		redirects = o.MaxRedirects
	} else if o.MaxRedirects < 0 {
		redirects = 0
	}
	if o.RequestTimeout > 0 {
		timeout = o.RequestTimeout
	}
	return
}

// requestBound is the most requests a walk with these bounds can make: the
// smaller of the request bound and the sum over depths 0..depth of
// peers^depth (Section 7.2).
func requestBound(depth, peers, requests int) int {
	sum, pow := 0.0, 1.0
	for d := 0; d <= depth; d++ {
		sum += pow
		pow *= float64(peers)
	}
	return int(math.Min(float64(requests), sum))
}

// Bound names a bound of Section 7.2 that a walk touched.
type Bound string

const (
	BoundDepth    Bound = "depth"    // a peer beyond the deepest level was not fetched
	BoundPeers    Bound = "peers"    // a document named more peers than are considered
	BoundRequests Bound = "requests" // the request budget ran out
)

// NodeState is what became of a node the walk reached.
type NodeState string

const (
	NodeVisited     NodeState = "visited"     // fetched, conformant, its peers followed
	NodeTombstoned  NodeState = "tombstoned"  // fetched, conformant, stopped publishing: not descended (Section 9.7)
	NodeUnreachable NodeState = "unreachable" // timed out, non-2xx, over the size bound, refused or not conformant: never retried
	NodeNotFetched  NodeState = "not-fetched" // a bound stopped the walk before its fetch completed
)

// Node is one node of a walk. Everything but the start node's data is
// untrusted and labelled with its origin (Section 7.3).
type Node struct {
	// URL is the canonical well-known URL, the key of the visited set.
	URL    string `json:"url"`
	Origin string `json:"origin"`
	// Untrusted is false only for the start node, the one the client acts for.
	Untrusted bool      `json:"untrusted"`
	Depth     int       `json:"depth"`
	Via       string    `json:"via,omitempty"` // the node that first named it
	State     NodeState `json:"state"`
	Reason    string    `json:"reason,omitempty"`
	// Fetched is the retrieval, nil when no response was received.
	Fetched *Fetched `json:"fetched,omitempty"`
	// Peers are the canonical URLs of the peer links considered, in
	// document order; IgnoredPeers counts those beyond MaxPeers.
	Peers        []string `json:"peers,omitempty"`
	IgnoredPeers int      `json:"ignored_peers,omitempty"`
	// Successors of a tombstoned node: never the same node, never followed
	// by the walk; a client establishes the peer relation with them afresh.
	Successors []string `json:"successors,omitempty"`
}

// WalkResult is the outcome of [Walk].
type WalkResult struct {
	Start string `json:"start"`
	// Complete is true when no bound was touched and the context did not
	// end; otherwise the result is partial and Bounds says which bound was
	// touched (Section 7.2).
	Complete bool    `json:"complete"`
	Bounds   []Bound `json:"bounds,omitempty"`
	// Nodes lists every node reached, in the order the walk met them.
	Nodes []*Node `json:"nodes"`
	// Requests is the number of requests made, redirects included, and
	// RequestBound the most the walk could make.
	Requests     int `json:"requests"`
	RequestBound int `json:"request_bound"`
}

func (r *WalkResult) touch(b Bound) {
	for _, x := range r.Bounds {
		if x == b {
			return
		}
	}
	r.Bounds = append(r.Bounds, b)
	r.Complete = false
}

// ErrNotWellKnown is returned for a start or peer URL that is not an
// origin's discovery document URL.
var ErrNotWellKnown = errors.New("linkset: not a knowledge-linkset well-known URL")

// CanonicalURL returns the canonical well-known URL of a start URL or peer
// href. Its scheme is https, or http only to a loopback host, localhost or a
// loopback IP literal when allowHTTP is set. That is the development mode of
// [knowledge-linkset draft] Section 7.1. The host is normalized and the default
// port dropped. The path is /.well-known/knowledge-linkset, with no userinfo,
// query or fragment. A bare origin ("https://b.example" or with path "/") is
// completed with the well-known path.
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func CanonicalURL(raw string, allowHTTP bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrNotWellKnown, shorten.Bytes(raw, 120), err)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowHTTP && isLoopbackHost(u.Hostname()):
	case u.Scheme == "http" && allowHTTP:
		return "", fmt.Errorf("%w: %q is http to a host that is not loopback (development mode reaches loopback only, Section 7.1)", ErrNotWellKnown, shorten.Bytes(raw, 120))
	default:
		return "", fmt.Errorf("%w: %q is not https", ErrNotWellKnown, shorten.Bytes(raw, 120))
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%w: %q has a query, fragment or userinfo", ErrNotWellKnown, shorten.Bytes(raw, 120))
	}
	if u.Path != "" && u.Path != "/" && u.Path != WellKnownPath {
		return "", fmt.Errorf("%w: %q does not have the path %s", ErrNotWellKnown, shorten.Bytes(raw, 120), WellKnownPath)
	}
	o, err := weburl.Origin(u)
	if err != nil {
		return "", fmt.Errorf("%w: %q: %v", ErrNotWellKnown, shorten.Bytes(raw, 120), err)
	}
	return o + WellKnownPath, nil
}

// Walk follows peer links from the node at start ([knowledge-linkset draft],
// Section 7.2), breadth-first, within the bounds of opts, and reports every
// node it reached. It never fetches a canonical URL twice, records unreachable
// peers without retrying them, and does not descend into tombstoned nodes
// (Section 9.7). It never makes more requests than the smaller of MaxRequests
// and the sum over depths 0..MaxDepth of MaxPeers^depth (reported as
// WalkResult.RequestBound). Walk is a client-side operation: a node never walks
// while building its artefacts (Section 7.4).
//
// The error is non-nil only when start is not a well-known URL or ctx ended
// (the result then says what was visited).
//
// [knowledge-linkset draft]: https://datatracker.ietf.org/doc/draft-besleaga-agentic-knowledge-wellknown/
func Walk(ctx context.Context, start string, opts *WalkOptions) (*WalkResult, error) {
	if opts == nil {
		opts = &WalkOptions{}
	}
	base := opts.client()
	startURL, err := CanonicalURL(start, base.AllowsLoopback())
	if err != nil {
		return nil, err
	}
	depth, peers, requests, redirects, timeout := opts.bounds()
	bound := requestBound(depth, peers, requests)
	budget := safefetch.NewBudget(safefetch.BudgetLimits{Attempts: bound})
	c := base.WithBudget(budget)
	res := &WalkResult{Start: startURL, Complete: true, RequestBound: bound}

	type item struct {
		url, via string
		depth    int
	}
	queue := []item{{url: startURL}}
	visited := map[string]bool{startURL: true}
	var werr error
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		n := &Node{URL: it.url, Depth: it.depth, Via: it.via, Untrusted: it.depth > 0}
		if u, err := url.Parse(it.url); err == nil {
			n.Origin, _ = weburl.Origin(u)
		}
		if err := ctx.Err(); err != nil {
			res.Complete = false
			werr = err
			break
		}
		if budget.Usage().Attempts >= bound {
			res.touch(BoundRequests)
			break
		}
		res.Nodes = append(res.Nodes, n)
		f, err := fetchBounded(ctx, c, it.url, redirects, timeout)
		n.Fetched = f
		if f != nil {
			f.client = opts.Client // the walker's own client, without the walk's budget
		}
		switch {
		case errors.Is(err, safefetch.ErrBudgetExhausted):
			n.State, n.Reason = NodeNotFetched, "the request bound of the walk was reached"
			if budget.Usage().Exhausted == "" {
				n.Reason = "the client's own budget ran out: " + err.Error()
			}
			res.touch(BoundRequests)
			continue
		case ctx.Err() != nil:
			n.State, n.Reason = NodeNotFetched, ctx.Err().Error()
			res.Complete = false
			werr = ctx.Err()
			continue
		case err != nil:
			n.State, n.Reason = NodeUnreachable, err.Error()
			continue
		case f.Report == nil || !f.Report.Conformant():
			n.State, n.Reason = NodeUnreachable, "not a conformant discovery document"
			if f.Report != nil && len(f.Report.Problems) > 0 {
				n.Reason += ": " + f.Report.Problems[0].String()
			}
			continue
		}
		if _, tomb := f.Document.tombstone(); tomb {
			n.State = NodeTombstoned
			n.Successors = f.Document.successors()
			continue
		}
		n.State = NodeVisited
		hrefs := f.Document.peers()
		if len(hrefs) > peers {
			n.IgnoredPeers = len(hrefs) - peers
			hrefs = hrefs[:peers]
			res.touch(BoundPeers)
		}
		for _, h := range hrefs {
			pu, err := CanonicalURL(h, c.AllowsLoopback())
			if err != nil {
				// A peer link that names no discovery document is unreachable.
				key := "invalid:" + h
				if !visited[key] {
					visited[key] = true
					res.Nodes = append(res.Nodes, &Node{URL: h, Depth: it.depth + 1, Via: it.url, Untrusted: true, State: NodeUnreachable, Reason: err.Error()})
				}
				continue
			}
			n.Peers = append(n.Peers, pu)
			if visited[pu] {
				continue
			}
			if it.depth+1 > depth {
				res.touch(BoundDepth)
				continue
			}
			visited[pu] = true
			queue = append(queue, item{url: pu, via: it.url, depth: it.depth + 1})
		}
	}
	if len(queue) > 0 && res.Complete {
		res.touch(BoundRequests)
	}
	res.Requests = budget.Usage().Attempts
	return res, werr
}

// fetchBounded fetches one document of a walk with the per-request time
// and redirect bounds of Section 7.2, evaluated as a client reads (ModeReader).
func fetchBounded(ctx context.Context, c *safefetch.Client, u string, redirects int, timeout time.Duration) (*Fetched, error) {
	hops := 0
	c = c.WithRedirectPolicy(func(from, to *url.URL) error {
		hops++
		if hops > redirects {
			return fmt.Errorf("linkset: more than %d redirects", redirects)
		}
		return nil
	})
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return fetchWith(rctx, c, u, &FetchOptions{Mode: ModeReader})
}

// isLoopbackHost reports whether host is localhost (or a name under
// .localhost, RFC 6761 Section 6.3) or a loopback IP literal.
func isLoopbackHost(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Unmap().IsLoopback()
}
