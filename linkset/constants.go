package linkset

// WellKnownPath is the path at which a node serves its discovery document
// (Section 3).
const WellKnownPath = "/.well-known/knowledge-linkset"

// MediaType is the media type of the discovery document (Section 3.1; RFC 9264).
const MediaType = "application/linkset+json"

// ProfileURI is the profile of the discovery document (Section 6).
const ProfileURI = "https://w3id.org/agentic-system-core/profile/agentic-knowledge"

// contentType is the Content-Type a node sends: the media type with the
// profile parameter (Section 3.1, Figure 1).
const contentType = MediaType + `; profile="` + ProfileURI + `"`

// maxDocumentBytes bounds the size of a discovery document a client reads:
// one mebibyte (Section 7.1).
const maxDocumentBytes = 1 << 20
