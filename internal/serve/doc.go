// Package serve is the publisher side shared by every agentweb document
// handler: it serves one fixed document over HTTP with the headers that
// caches and agents rely on.
//
// [Handler] answers GET and HEAD (RFC 9110 Section 9.3.1 and 9.3.2) and
// refuses every other method with 405 Method Not Allowed and an Allow header
// (RFC 9110 Section 15.5.6). A successful response carries Content-Type,
// Content-Length and a strong ETag (RFC 9110 Section 8.8.3): the quoted
// lower-case hex SHA-256 of the body. It carries Cache-Control when one is
// configured (RFC 9111 Section 5.2), and any extra headers the caller
// supplies (CORS, Link, Vary).
//
// Conditional GET follows RFC 9110 Section 13.1.2. If-None-Match holds a list
// of entity tags or "*", compared with the weak comparison function (Section
// 8.8.3.2). A match yields 304 Not Modified (Section 15.4.5) with the ETag,
// Cache-Control and extra headers. It has no body, and no Content-Length or
// Content-Type.
//
// The body, its ETag and its headers are fixed when the handler is built. So
// serving is allocation-light, and a caller that later changes its buffers
// or header maps does not change what is served.
package serve
