// Package weburl normalizes web hosts and origins so that the rest of
// agentweb compares them one way.
//
// [NormalizeHost] turns a host into its canonical ASCII form (lower case,
// IDNA UTS #46 lookup mapping, no trailing dot); [Origin] gives the
// serialized origin of an http or https URL (RFC 6454 Section 6.2) with the default
// port dropped; [NormalizeURL] normalizes a whole URL's origin that way, so
// that every entry point of agentweb compares origins one way;
// [RegistrableDomain] gives a host's registrable domain under the Public
// Suffix List (golang.org/x/net/publicsuffix), and [IsWWWCounterpart] says
// whether two hosts are exactly a registrable domain and its "www."
// subdomain, so that "www.co.uk" or "www.www.example.com" never pass for a
// counterpart.
//
// The package is internal plumbing for safefetch and the spec packages; it
// opens no connection and keeps no state.
package weburl
