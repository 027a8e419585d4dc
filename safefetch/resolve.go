package safefetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Resolver is the DNS lookup a [Client] makes, once per attempt. The
// *net.Resolver type (and so net.DefaultResolver) implements it; tests use
// [github.com/agentweb/agentweb/safefetch/fetchtest]. The network argument is
// "ip": both A and AAAA answers are wanted, because every one of them is
// classified. The knowledge-linkset draft Section 7.1 says: "A host that
// resolves to several addresses MUST be refused if any one of them is
// refused".
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// maxDNSAnswers bounds how many answers of one lookup are classified; a
// longer answer fails closed.
const maxDNSAnswers = 64

// resolveHost returns the classified addresses of u's host: the literal
// itself for an IP-literal host (no DNS), otherwise the answers of exactly
// one lookup. It fails closed: a lookup error, an empty or oversized answer,
// or any refused answer refuses the whole host.
func (c *Client) resolveHost(ctx context.Context, u *url.URL) ([]netip.Addr, error) {
	host := u.Hostname()
	if lit, err := netip.ParseAddr(host); err == nil {
		if err := c.classify(host, lit); err != nil {
			return nil, err
		}
		return []netip.Addr{lit.Unmap()}, c.requireLoopbackForHTTP(u, []netip.Addr{lit.Unmap()})
	}
	if err := c.budget.checkDeadline(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(c.opts.DNSTimeout)
	if bd, ok := c.budget.deadline(); ok {
		// The Agentic site profile lets a bounded DNS lookup finish at most
		// DNSGrace after the scan deadline, and no later.
		if g := bd.Add(c.budget.grace()); g.Before(deadline) {
			deadline = g
		}
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	answers, err := lookup(dctx, c.resolver(), host)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if berr := c.budget.checkDeadline(); berr != nil {
			return nil, berr
		}
		if dctx.Err() != nil {
			return nil, fmt.Errorf("%w: lookup %s: no answer within %s", ErrDNS, host, c.opts.DNSTimeout)
		}
		return nil, fmt.Errorf("%w: lookup %s: %w", ErrDNS, host, err)
	}
	if berr := c.budget.checkDeadline(); berr != nil {
		return nil, berr
	}
	if len(answers) == 0 {
		return nil, fmt.Errorf("%w: lookup %s: empty answer", ErrDNS, host)
	}
	if len(answers) > maxDNSAnswers {
		return nil, fmt.Errorf("%w: lookup %s: %d answers (at most %d are classified)", ErrDNS, host, len(answers), maxDNSAnswers)
	}
	addrs := make([]netip.Addr, 0, len(answers))
	for _, a := range answers {
		if err := c.classify(host, a); err != nil {
			return nil, err
		}
		a = a.Unmap()
		dup := false
		for _, b := range addrs {
			dup = dup || a == b
		}
		if !dup {
			addrs = append(addrs, a)
		}
	}
	return addrs, c.requireLoopbackForHTTP(u, addrs)
}

// classify applies [CheckAddr] to the unmapped address, allowing loopback
// only in development mode, then the local network's NAT64 prefixes
// ([Options.NAT64Prefixes]). A refusal is an *AddrError naming the host.
func (c *Client) classify(host string, a netip.Addr) error {
	if err := classifyAddr(host, a, c.opts.AllowLoopback); err != nil {
		return err
	}
	return checkNAT64(host, a.Unmap(), c.opts.NAT64Prefixes)
}

// classifyAddr is [Client.classify] for code that has no Client (the dialer).
func classifyAddr(host string, a netip.Addr, allowLoopback bool) error {
	u := a.Unmap()
	if allowLoopback && u.IsLoopback() && u.Zone() == "" {
		return nil
	}
	err := CheckAddr(u)
	if err == nil {
		return nil
	}
	var ae *AddrError
	if errors.As(err, &ae) {
		cp := *ae
		cp.Host = host
		if u.IsLoopback() && !allowLoopback && !strings.Contains(cp.Reason, "AllowLoopback") {
			cp.Reason += " (loopback is reachable only in development mode, Options.AllowLoopback)"
		}
		return &cp
	}
	return err
}

// requireLoopbackForHTTP enforces that plain http reaches loopback only
// (knowledge-linkset draft Section 7.1), whatever the host name said.
func (c *Client) requireLoopbackForHTTP(u *url.URL, addrs []netip.Addr) error {
	if !strings.EqualFold(u.Scheme, "http") {
		return nil
	}
	for _, a := range addrs {
		if !a.IsLoopback() {
			return &URLError{URL: u.Redacted(), Rule: "scheme", Reason: fmt.Sprintf("http is allowed only to loopback addresses in development mode, and %s resolves to %s", u.Hostname(), a)}
		}
	}
	return nil
}

func (c *Client) resolver() Resolver {
	if c.opts.Resolver != nil {
		return c.opts.Resolver
	}
	return net.DefaultResolver
}

// lookup runs one lookup and returns when it answers or ctx ends, whichever
// comes first. So a Resolver that ignores its context (cgo's getaddrinfo, a
// buggy implementation) cannot hold a call past the DNS deadline. Its late
// answer is discarded.
func lookup(ctx context.Context, r Resolver, host string) ([]netip.Addr, error) {
	type result struct {
		addrs []netip.Addr
		err   error
	}
	ch := make(chan result, 1)
	go func() {
		a, err := r.LookupNetIP(ctx, "ip", host)
		ch <- result{a, err}
	}()
	select {
	case res := <-ch:
		return res.addrs, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
