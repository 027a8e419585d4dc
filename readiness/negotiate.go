package readiness

// formOffers are the two forms of a page (the agent-readiness scoring
// method, Section 04), in the order a server that ignores Accept serves them. The
// scanner asks for a form with an Accept header and judges the answer
// against the form that header prefers (the RFC 9110
// negotiation, the same code the publish kit answers with), never by
// substring.
var formOffers = []string{"text/html", "text/markdown"}
