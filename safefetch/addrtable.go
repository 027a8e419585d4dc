package safefetch

// The special-purpose address table, as data.
//
// Source: IANA "IPv4 Special-Purpose Address Registry" and "IPv6
// Special-Purpose Address Registry" (RFC 6890 Section 2.2.2, column "Globally
// Reachable"). They are at
// https://www.iana.org/assignments/iana-ipv4-special-registry/ and
// https://www.iana.org/assignments/iana-ipv6-special-registry/. The rows are
// as of the 2026 registries: the CSV downloads fetched 2026-07-18, kept in
// testdata/iana/ with their SHA-256. They agree row for row with the
// transcriptions of 2026-09 in this project's notes (IPv6 CSV retrieved
// 2026-09-08; CPython Lib/ipaddress.py after gh-113171;
// beaugunderson/ip-address). IPv4 has 26 rows, IPv6 25. The rows after them
// are not in either registry but are never fetch targets (multicast,
// deprecated IPv6 forms).
//
// When a registry changes, replace the CSV files in testdata/iana/ and edit
// the rows here until addr_test.go passes. It checks every row against the
// CSV files (prefix, name, RFC numbers, Globally Reachable). It tests the
// first and last address of every row and one address just outside it. And
// it checks that every prefix is canonical.

// reachability is the "Globally Reachable" column of a registry row.
type reachability uint8

const (
	reachFalse       reachability = iota // "False"
	reachTrue                            // "True"
	reachNA                              // "N/A": depends on the embedded or relayed address
	reachBlank                           // empty cell (deprecated rows)
	reachNotRegistry                     // not in the registry; refused by agentweb's policy
)

// String gives the column's value as the registry writes it.
func (r reachability) String() string {
	switch r {
	case reachTrue:
		return "True"
	case reachFalse:
		return "False"
	case reachNA:
		return "N/A"
	case reachBlank:
		return "blank"
	default:
		return "not in registry"
	}
}

// embedding says how an IPv6 block carries an IPv4 address.
type embedding uint8

const (
	embedNone       embedding = iota
	embedMapped               // ::ffff:a.b.c.d (RFC 4291 Section 2.5.5.2): the low 32 bits
	embedCompat               // ::a.b.c.d (RFC 4291 Section 2.5.5.1, deprecated): the low 32 bits
	embedTranslated           // ::ffff:0:a.b.c.d (RFC 2765 Section 2.1, obsolete): the low 32 bits
	embedNAT64                // 64:ff9b::/96 (RFC 6052 Section 2.2, /96 layout): the low 32 bits
	embedNAT64Local           // 64:ff9b:1::/48 (RFC 8215, RFC 6052 Section 2.2 /48 layout): bits 48–63 and 72–87
	emb6to4                   // 2002:a.b.c.d::/48 (RFC 3056 Section 2): bits 16–47
	embTeredo                 // 2001:0:server:flags:port:client (RFC 4380 Section 4): client = ^(bits 96–127)
)

// addrRow is one row of a special-purpose registry.
type addrRow struct {
	prefix string // canonical CIDR
	name   string // "Name" column
	rfc    string // "Reference" column, abridged
	reach  reachability
	embed  embedding
}

// ipv4Rows is the IPv4 Special-Purpose Address Registry (26 rows), then
// the refused ranges outside it.
var ipv4Rows = []addrRow{
	{"0.0.0.0/8", "\"This network\"", "RFC 791 §3.2", reachFalse, embedNone},
	{"0.0.0.0/32", "\"This host on this network\"", "RFC 1122 §3.2.1.3", reachFalse, embedNone},
	{"10.0.0.0/8", "Private-Use", "RFC 1918", reachFalse, embedNone},
	{"100.64.0.0/10", "Shared Address Space", "RFC 6598", reachFalse, embedNone},
	{"127.0.0.0/8", "Loopback", "RFC 1122 §3.2.1.3", reachFalse, embedNone},
	{"169.254.0.0/16", "Link Local", "RFC 3927", reachFalse, embedNone},
	{"172.16.0.0/12", "Private-Use", "RFC 1918", reachFalse, embedNone},
	{"192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890 §2.1", reachFalse, embedNone},
	{"192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", reachFalse, embedNone},
	{"192.0.0.8/32", "IPv4 dummy address", "RFC 7600", reachFalse, embedNone},
	{"192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", reachTrue, embedNone},
	{"192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", reachTrue, embedNone},
	{"192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", reachFalse, embedNone},
	{"192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880, RFC 7050 §2.2", reachFalse, embedNone},
	{"192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", reachFalse, embedNone},
	{"192.31.196.0/24", "AS112-v4", "RFC 7535", reachTrue, embedNone},
	{"192.52.193.0/24", "AMT", "RFC 7450", reachTrue, embedNone},
	{"192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", reachBlank, embedNone},
	{"192.88.99.2/32", "6a44-relay anycast address", "RFC 6751", reachFalse, embedNone},
	{"192.168.0.0/16", "Private-Use", "RFC 1918", reachFalse, embedNone},
	{"192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", reachTrue, embedNone},
	{"198.18.0.0/15", "Benchmarking", "RFC 2544", reachFalse, embedNone},
	{"198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", reachFalse, embedNone},
	{"203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", reachFalse, embedNone},
	{"240.0.0.0/4", "Reserved", "RFC 1112 §4", reachFalse, embedNone},
	{"255.255.255.255/32", "Limited Broadcast", "RFC 8190, RFC 919 §7", reachFalse, embedNone},

	// Not in the registry.
	{"224.0.0.0/4", "Multicast", "RFC 5771", reachNotRegistry, embedNone},
}

// ipv6Rows is the IPv6 Special-Purpose Address Registry (25 rows), then
// the refused ranges outside it. Everything outside 2000::/3 that no True
// row covers is refused as well (see CheckAddr).
var ipv6Rows = []addrRow{
	{"::1/128", "Loopback Address", "RFC 4291", reachFalse, embedNone},
	{"::/128", "Unspecified Address", "RFC 4291", reachFalse, embedNone},
	{"::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", reachFalse, embedMapped},
	{"64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", reachTrue, embedNAT64},
	{"64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", reachFalse, embedNAT64Local},
	{"100::/64", "Discard-Only Address Block", "RFC 6666", reachFalse, embedNone},
	{"100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", reachFalse, embedNone},
	{"2001::/23", "IETF Protocol Assignments", "RFC 2928", reachFalse, embedNone},
	{"2001::/32", "TEREDO", "RFC 4380, RFC 8190", reachNA, embTeredo},
	{"2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", reachTrue, embedNone},
	{"2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", reachTrue, embedNone},
	{"2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", reachTrue, embedNone},
	{"2001:2::/48", "Benchmarking", "RFC 5180, RFC Errata 1752", reachFalse, embedNone},
	{"2001:3::/32", "AMT", "RFC 7450", reachTrue, embedNone},
	{"2001:4:112::/48", "AS112-v6", "RFC 7535", reachTrue, embedNone},
	{"2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", reachBlank, embedNone},
	{"2001:20::/28", "ORCHIDv2", "RFC 7343", reachTrue, embedNone},
	{"2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", reachTrue, embedNone},
	{"2001:db8::/32", "Documentation", "RFC 3849", reachFalse, embedNone},
	{"2002::/16", "6to4", "RFC 3056", reachNA, emb6to4},
	{"2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", reachTrue, embedNone},
	{"3fff::/20", "Documentation", "RFC 9637", reachFalse, embedNone},
	{"5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", reachFalse, embedNone},
	{"fc00::/7", "Unique-Local", "RFC 4193, RFC 8190", reachFalse, embedNone},
	{"fe80::/10", "Link-Local Unicast", "RFC 4291", reachFalse, embedNone},

	// Not in the registry.
	{"::/96", "IPv4-compatible Address (deprecated)", "RFC 4291 §2.5.5.1", reachNotRegistry, embedCompat},
	{"::ffff:0:0:0/96", "IPv4-translated Address (obsolete)", "RFC 2765 §2.1", reachNotRegistry, embedTranslated},
	{"fec0::/10", "Site-Local Unicast (deprecated)", "RFC 3879", reachNotRegistry, embedNone},
	{"ff00::/8", "Multicast", "RFC 4291 §2.7", reachNotRegistry, embedNone},
}

// globalUnicast6 is the IPv6 global unicast space (RFC 4291 Section 2.4, IANA
// "Internet Protocol Version 6 Address Space"); outside it only a True row
// admits an address.
const globalUnicast6 = "2000::/3"

// Registry row counts, checked by the tests against the tables above.
const (
	ipv4RegistryRows = 26
	ipv6RegistryRows = 25
)
