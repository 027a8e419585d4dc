package safefetch

// MaxBufferedForTest is what a failed read may be charged beyond what it
// read: what the transport had buffered for the body.
const MaxBufferedForTest = maxBuffered

// NetHTTPMessages are the net/http error texts the Client decides by, by
// name: a test provokes each.
var NetHTTPMessages = map[string]string{
	"h1 headers exceeded":    msgH1HeadersExceeded,
	"h2 header list larger":  msgH2HeaderListLarger,
	"h2 compression":         msgH2Compression,
	"h2 bare protocol error": msgH2BareProtocol,
}

// SetDefaultForTest makes Default return c until restore is called. A test
// that calls it must not run in parallel with one that uses Default.
func SetDefaultForTest(c *Client) (restore func()) {
	prev := defaultClient
	defaultClient = func() *Client { return c }
	return func() { defaultClient = prev }
}
