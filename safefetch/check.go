package safefetch

import "context"

// CheckURL tells, without sending a request, whether c would refuse rawURL
// before connecting. It applies the package's [CheckURL] in c's mode
// ([Options.AllowLoopback]). Then it looks the host up once through c's
// [Resolver]; a literal address is not looked up. It judges every answer
// as a request would: [CheckAddr], loopback only in development mode, the
// local network's NAT64 prefixes ([Options.NAT64Prefixes]), and plain http
// to loopback only. The lookup is bounded by [Options.DNSTimeout] and ctx,
// and charges no Budget.
//
// The error is the one a request would fail with, before its [Error]
// wrapper. It is a *[URLError] (errors.Is [ErrForbiddenURL]; a refused IP
// literal is one too), an *[AddrError] naming the host and the refused
// block (errors.Is [ErrForbiddenAddress]), or an error wrapping [ErrDNS].
// A nil error is no promise that a later request succeeds: DNS may answer
// differently then, and the request judges its own answers again.
//
// A service that acts on URLs given by strangers (an MCP tool, a scan
// queue) uses it to refuse a URL with the client's own reason before it
// starts work.
func (c *Client) CheckURL(ctx context.Context, rawURL string) error {
	u, err := c.parseURL(rawURL)
	if err != nil {
		return err
	}
	nb := *c
	nb.budget = budgets{}
	_, err = nb.resolveHost(ctx, u)
	return err
}
