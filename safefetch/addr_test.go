package safefetch

import (
	"encoding/csv"
	"errors"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkBlock runs CheckAddr and returns "" when it accepts, else the
// deciding block of the *AddrError.
func checkBlock(t *testing.T, a netip.Addr) string {
	t.Helper()
	err := CheckAddr(a)
	if err == nil {
		return ""
	}
	var ae *AddrError
	require.ErrorAs(t, err, &ae)
	require.ErrorIs(t, err, ErrForbiddenAddress)
	assert.Equal(t, a, ae.Addr, "AddrError.Addr")
	assert.NotEmpty(t, ae.Name)
	assert.NotEmpty(t, ae.Reason)
	return ae.Block.String()
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// TestCheckAddrRowBoundaries checks the first and last address of every
// row of both registries (and of the refused ranges outside them) and the
// address just before and just after each row. The want columns name the
// block that must decide ("" = accepted, "-" = no such address).
func TestCheckAddrRowBoundaries(t *testing.T) {
	tests := []struct {
		row                        string
		first, last, before, after string
	}{
		// IPv4 registry.
		{"0.0.0.0/8", "0.0.0.0/32", "0.0.0.0/8", "-", ""},
		{"0.0.0.0/32", "0.0.0.0/32", "0.0.0.0/32", "-", "0.0.0.0/8"},
		{"10.0.0.0/8", "10.0.0.0/8", "10.0.0.0/8", "", ""},
		{"100.64.0.0/10", "100.64.0.0/10", "100.64.0.0/10", "", ""},
		{"127.0.0.0/8", "127.0.0.0/8", "127.0.0.0/8", "", ""},
		{"169.254.0.0/16", "169.254.0.0/16", "169.254.0.0/16", "", ""},
		{"172.16.0.0/12", "172.16.0.0/12", "172.16.0.0/12", "", ""},
		{"192.0.0.0/24", "192.0.0.0/29", "192.0.0.0/24", "", ""},
		{"192.0.0.0/29", "192.0.0.0/29", "192.0.0.0/29", "", "192.0.0.8/32"},
		{"192.0.0.8/32", "192.0.0.8/32", "192.0.0.8/32", "192.0.0.0/29", ""},
		{"192.0.0.9/32", "", "", "192.0.0.8/32", ""},
		{"192.0.0.10/32", "", "", "", "192.0.0.0/24"},
		{"192.0.0.170/32", "192.0.0.170/32", "192.0.0.170/32", "192.0.0.0/24", "192.0.0.171/32"},
		{"192.0.0.171/32", "192.0.0.171/32", "192.0.0.171/32", "192.0.0.170/32", "192.0.0.0/24"},
		{"192.0.2.0/24", "192.0.2.0/24", "192.0.2.0/24", "", ""},
		{"192.31.196.0/24", "", "", "", ""},
		{"192.52.193.0/24", "", "", "", ""},
		{"192.88.99.0/24", "192.88.99.0/24", "192.88.99.0/24", "", ""},
		{"192.88.99.2/32", "192.88.99.2/32", "192.88.99.2/32", "192.88.99.0/24", "192.88.99.0/24"},
		{"192.168.0.0/16", "192.168.0.0/16", "192.168.0.0/16", "", ""},
		{"192.175.48.0/24", "", "", "", ""},
		{"198.18.0.0/15", "198.18.0.0/15", "198.18.0.0/15", "", ""},
		{"198.51.100.0/24", "198.51.100.0/24", "198.51.100.0/24", "", ""},
		{"203.0.113.0/24", "203.0.113.0/24", "203.0.113.0/24", "", ""},
		{"240.0.0.0/4", "240.0.0.0/4", "255.255.255.255/32", "224.0.0.0/4", "-"},
		{"255.255.255.255/32", "255.255.255.255/32", "255.255.255.255/32", "240.0.0.0/4", "-"},
		// IPv4, outside the registry.
		{"224.0.0.0/4", "224.0.0.0/4", "224.0.0.0/4", "", "240.0.0.0/4"},

		// IPv6 registry.
		{"::1/128", "::1/128", "::1/128", "::/128", "::/96"},
		{"::/128", "::/128", "::/128", "-", "::1/128"},
		// Mapped addresses are judged by the IPv4 address they carry.
		{"::ffff:0:0/96", "0.0.0.0/32", "255.255.255.255/32", "::/3", "::/3"},
		// NAT64 /96 is True, but 0.0.0.0 and 255.255.255.255 are not.
		{"64:ff9b::/96", "0.0.0.0/32", "255.255.255.255/32", "::/3", "::/3"},
		{"64:ff9b:1::/48", "64:ff9b:1::/48", "64:ff9b:1::/48", "::/3", "::/3"},
		{"100::/64", "100::/64", "100::/64", "::/3", "100:0:0:1::/64"},
		{"100:0:0:1::/64", "100:0:0:1::/64", "100:0:0:1::/64", "100::/64", "::/3"},
		{"2001::/23", "2001::/32", "2001::/23", "", ""},
		{"2001::/32", "2001::/32", "2001::/32", "", "2001::/23"},
		{"2001:1::1/128", "", "", "2001::/23", ""},
		{"2001:1::2/128", "", "", "", ""},
		{"2001:1::3/128", "", "", "", "2001::/23"},
		{"2001:2::/48", "2001:2::/48", "2001:2::/48", "2001::/23", "2001::/23"},
		{"2001:3::/32", "", "", "2001::/23", "2001::/23"},
		{"2001:4:112::/48", "", "", "2001::/23", "2001::/23"},
		{"2001:10::/28", "2001:10::/28", "2001:10::/28", "2001::/23", ""},
		{"2001:20::/28", "", "", "2001:10::/28", ""},
		{"2001:30::/28", "", "", "", "2001::/23"},
		{"2001:db8::/32", "2001:db8::/32", "2001:db8::/32", "", ""},
		{"2002::/16", "2002::/16", "2002::/16", "", ""},
		{"2620:4f:8000::/48", "", "", "", ""},
		{"3fff::/20", "3fff::/20", "3fff::/20", "", ""},
		{"5f00::/16", "5f00::/16", "5f00::/16", "4000::/3", "4000::/3"},
		{"fc00::/7", "fc00::/7", "fc00::/7", "e000::/3", "e000::/3"},
		{"fe80::/10", "fe80::/10", "fe80::/10", "e000::/3", "fec0::/10"},
		// IPv6, outside the registry.
		{"::/96", "::/128", "::/96", "-", "::/3"},
		{"::ffff:0:0:0/96", "::ffff:0:0:0/96", "::ffff:0:0:0/96", "::/3", "::/3"},
		{"fec0::/10", "fec0::/10", "fec0::/10", "fe80::/10", "ff00::/8"},
		{"ff00::/8", "ff00::/8", "ff00::/8", "fec0::/10", "-"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.row, func(t *testing.T) {
			seen[tt.row] = true
			p := netip.MustParsePrefix(tt.row)
			first, last := p.Addr(), lastAddr(p)
			assert.Equal(t, tt.first, checkBlock(t, first), "first address %s", first)
			assert.Equal(t, tt.last, checkBlock(t, last), "last address %s", last)
			if before := first.Prev(); before.IsValid() {
				assert.Equal(t, tt.before, checkBlock(t, before), "address before %s", before)
			} else {
				assert.Equal(t, "-", tt.before, "no address before %s", first)
			}
			if after := last.Next(); after.IsValid() {
				assert.Equal(t, tt.after, checkBlock(t, after), "address after %s", after)
			} else {
				assert.Equal(t, "-", tt.after, "no address after %s", last)
			}
		})
	}
	for _, r := range append(append([]addrRow{}, ipv4Rows...), ipv6Rows...) {
		assert.True(t, seen[r.prefix], "row %s has no boundary test", r.prefix)
	}
}

// notesRows reads a transcription of the registries that lists prefixes
// after "False:", "True:", "N/A:", "blank:" (as prose or as the columns of
// a Markdown table) and "In neither registry"/"Not in either registry".
func notesRows(t *testing.T, file string) map[string]reachability {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	text := string(data)
	for _, end := range []string{"- The draft asks", "**Policy that meets"} {
		if i := strings.Index(text, end); i >= 0 {
			text = text[:i]
		}
	}
	token := regexp.MustCompile(`(?:True|False|N/A|[Bb]lank):|In neither registry|Not in either registry|\| IPv[46] \([0-9]+ rows\) \||\||N/A or blank|[0-9a-f.]*:[0-9a-f.:]*/[0-9]+|\b[0-9]{1,3}(?:\.[0-9]{1,3}){0,3}/[0-9]+`)
	// In the Markdown table, the columns after the family are False,
	// True, then N/A or blank; "(blank" and "(N/A" mark the last column's
	// rows.
	columns := []reachability{reachFalse, reachTrue, reachNA}
	class, col := reachability(255), -1
	rows := map[string]reachability{}
	for _, tok := range token.FindAllString(text, -1) {
		switch {
		case strings.HasPrefix(tok, "| IPv"):
			col = 0
			class = columns[0]
		case tok == "|":
			if col >= 0 {
				col++
				if col < len(columns) {
					class = columns[col]
				} else {
					col = -1
				}
			}
		case tok == "N/A or blank":
		case strings.EqualFold(tok, "true:"):
			class = reachTrue
		case strings.EqualFold(tok, "false:"):
			class = reachFalse
		case strings.EqualFold(tok, "n/a:"):
			class = reachNA
		case strings.EqualFold(tok, "blank:"):
			class = reachBlank
		case tok == "In neither registry" || tok == "Not in either registry":
			class, col = reachNotRegistry, -1
		default:
			if tok == globalUnicast6 {
				continue // "anything outside 2000::/3", handled by CheckAddr itself
			}
			require.NotEqual(t, reachability(255), class, "%s: prefix %s before any class", file, tok)
			if !strings.Contains(tok, ":") {
				// Abridged IPv4 ("10/8", "100.64/10"): pad with zero octets.
				addr, bits, _ := strings.Cut(tok, "/")
				for strings.Count(addr, ".") < 3 {
					addr += ".0"
				}
				tok = addr + "/" + bits
			}
			p := netip.MustParsePrefix(tok).String()
			rows[p] = class
			if class == reachNA {
				// The table's last column mixes N/A and blank rows.
				if i := strings.Index(text, tok+" (blank"); i >= 0 {
					rows[p] = reachBlank
				}
			}
		}
	}
	return rows
}

// TestAddrTableMatchesNotes cross-checks the table against two
// transcriptions of the registries kept in testdata: the project's
// NOTES.md section and the research note's Section 3 table. Every prefix either
// lists must be in the table with the same "Globally Reachable" value.
func TestAddrTableMatchesNotes(t *testing.T) {
	fromNotes := notesRows(t, "testdata/iana-special-purpose-notes.md")
	fromResearch := notesRows(t, "testdata/iana-special-purpose-research.md")
	union := map[string]reachability{}
	for _, m := range []map[string]reachability{fromNotes, fromResearch} {
		for p, r := range m {
			if old, ok := union[p]; ok {
				assert.Equal(t, old, r, "the transcriptions disagree on %s", p)
			}
			union[p] = r
		}
	}
	assert.Greater(t, len(fromNotes), 50)
	assert.Greater(t, len(fromResearch), 50)
	table := map[string]reachability{}
	counts := map[bool]int{}
	for _, r := range append(append([]addrRow{}, ipv4Rows...), ipv6Rows...) {
		p := netip.MustParsePrefix(r.prefix).String()
		_, dup := table[p]
		assert.False(t, dup, "row %s twice", r.prefix)
		table[p] = r.reach
		if r.reach != reachNotRegistry {
			counts[strings.Contains(r.prefix, ".")]++
		}
		assert.NotEmpty(t, r.name, r.prefix)
		assert.True(t, strings.HasPrefix(r.rfc, "RFC "), "row %s reference %q", r.prefix, r.rfc)
	}
	assert.Equal(t, union, table)
	assert.Equal(t, ipv4RegistryRows, counts[true], "IPv4 registry rows")
	assert.Equal(t, ipv6RegistryRows, counts[false], "IPv6 registry rows")
}

// TestAddrTableMatchesIANA checks every registry row of addrtable.go against
// the IANA CSV files in testdata/iana: the same prefixes, names, RFC numbers
// and "Globally Reachable" values, no more and no fewer.
func TestAddrTableMatchesIANA(t *testing.T) {
	rfcNumbers := regexp.MustCompile(`RFC ?(?:Errata )?([0-9]+)`)
	numbers := func(s string) []string {
		var out []string
		for _, m := range rfcNumbers.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	footnote := regexp.MustCompile(`\s*\[[0-9]+\]`)
	for _, tc := range []struct {
		file string
		rows []addrRow
		want int
	}{
		{"testdata/iana/iana-ipv4-special-registry-1.csv", ipv4Rows, ipv4RegistryRows},
		{"testdata/iana/iana-ipv6-special-registry-1.csv", ipv6Rows, ipv6RegistryRows},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(tc.file)
			require.NoError(t, err)
			defer f.Close()
			records, err := csv.NewReader(f).ReadAll()
			require.NoError(t, err)
			require.Equal(t, "Globally Reachable", records[0][8])
			byPrefix := map[string]addrRow{}
			for _, r := range tc.rows {
				if r.reach != reachNotRegistry {
					byPrefix[netip.MustParsePrefix(r.prefix).String()] = r
				}
			}
			assert.Len(t, byPrefix, tc.want)
			seen := 0
			for _, rec := range records[1:] {
				for _, block := range strings.Split(footnote.ReplaceAllString(rec[0], ""), ",") {
					p := netip.MustParsePrefix(strings.TrimSpace(block)).String()
					row, ok := byPrefix[p]
					if !assert.True(t, ok, "IANA row %s missing from the table", p) {
						continue
					}
					seen++
					assert.Equal(t, rec[1], row.name, "%s name", p)
					assert.Equal(t, numbers(rec[2]), numbers(row.rfc), "%s RFCs", p)
					want := map[string]reachability{"True": reachTrue, "False": reachFalse, "N/A": reachNA, "": reachBlank}
					reach, ok := want[footnote.ReplaceAllString(rec[8], "")]
					require.True(t, ok, "%s: Globally Reachable %q", p, rec[8])
					assert.Equal(t, reach, row.reach, "%s Globally Reachable", p)
				}
			}
			assert.Equal(t, len(byPrefix), seen, "table rows not in the IANA file")
		})
	}
}

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		name   string
		addr   string
		block  string // "" = accepted
		reason string // substring of AddrError.Reason
	}{
		// Globally reachable unicast.
		{"public IPv4", "93.184.216.34", "", ""},
		{"public IPv4 8.8.8.8", "8.8.8.8", "", ""},
		{"public IPv4 1.1.1.1", "1.1.1.1", "", ""},
		{"public IPv6", "2606:4700:4700::1111", "", ""},
		{"public IPv6 google", "2001:4860:4860::8888", "", ""},
		{"public IPv6 RIPE", "2a00:1450:4001:80b::200e", "", ""},
		// Each True exception inside a False block.
		{"PCP anycast v4", "192.0.0.9", "", ""},
		{"TURN anycast v4", "192.0.0.10", "", ""},
		{"AS112-v4", "192.31.196.1", "", ""},
		{"AMT v4", "192.52.193.1", "", ""},
		{"AS112 delegation v4", "192.175.48.6", "", ""},
		{"PCP anycast v6", "2001:1::1", "", ""},
		{"TURN anycast v6", "2001:1::2", "", ""},
		{"DNS-SD SRP anycast v6", "2001:1::3", "", ""},
		{"AMT v6", "2001:3::1", "", ""},
		{"AS112-v6", "2001:4:112::1", "", ""},
		{"ORCHIDv2", "2001:20::1", "", ""},
		{"DETs", "2001:30::1", "", ""},
		{"AS112 delegation v6", "2620:4f:8000::1", "", ""},
		{"NAT64 public", "64:ff9b::8.8.8.8", "", ""},
		{"NAT64 True exception", "64:ff9b::192.0.0.9", "", ""},

		// Unspecified, broadcast, loopback.
		{"0.0.0.0", "0.0.0.0", "0.0.0.0/32", "not globally reachable"},
		{"0.x.y.z", "0.1.2.3", "0.0.0.0/8", "RFC 791"},
		{"::", "::", "::/128", "Unspecified"[:0]},
		{"255.255.255.255", "255.255.255.255", "255.255.255.255/32", "RFC 919"},
		{"loopback v4", "127.0.0.1", "127.0.0.0/8", "RFC 1122"},
		{"loopback v6", "::1", "::1/128", "RFC 4291"},
		{"metadata", "169.254.169.254", "169.254.0.0/16", "RFC 3927"},
		{"CGNAT", "100.100.100.200", "100.64.0.0/10", "RFC 6598"},
		{"class E", "250.1.2.3", "240.0.0.0/4", "RFC 1112"},
		{"ULA", "fd00::1", "fc00::/7", "RFC 4193"},
		{"link-local v6", "fe80::1", "fe80::/10", "RFC 4291"},
		{"site-local", "fec0::1", "fec0::/10", "not in the special-purpose registry"},
		{"documentation 3fff", "3fff::1", "3fff::/20", "RFC 9637"},
		{"SRv6", "5f00::1", "5f00::/16", "RFC 9602"},
		{"dummy", "100:0:0:1::1", "100:0:0:1::/64", "RFC 9780"},
		{"benchmarking v6", "2001:2::1", "2001:2::/48", "RFC 5180"},
		{"unallocated 4000::/3", "4000::1", "4000::/3", "2000::/3"},
		{"unallocated 8000::/3", "8000::1", "8000::/3", "2000::/3"},
		{"unallocated 0100::/8 tail", "1ff::1", "::/3", "2000::/3"},
		{"blank row", "192.88.99.1", "192.88.99.0/24", "left blank"},
		{"N/A row", "2002::1", "2002::/16", "N/A"},

		// Multicast at every scope.
		{"v4 local network control", "224.0.0.1", "224.0.0.0/4", "RFC 5771"},
		{"v4 internetwork control", "224.0.1.1", "224.0.0.0/4", "RFC 5771"},
		{"v4 SSM", "232.1.1.1", "224.0.0.0/4", "RFC 5771"},
		{"v4 GLOP", "233.1.2.3", "224.0.0.0/4", "RFC 5771"},
		{"v4 admin scoped", "239.255.255.250", "224.0.0.0/4", "RFC 5771"},
		{"v6 interface-local", "ff01::1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 link-local", "ff02::1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 realm-local", "ff03::1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 admin-local", "ff04::1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 site-local", "ff05::1:3", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 organization-local", "ff08::1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 global", "ff0e::101", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 SSM", "ff3e::8000:1", "ff00::/8", "RFC 4291 §2.7"},
		{"v6 multicast mapped-looking", "ff0e::ffff:8.8.8.8", "ff00::/8", "RFC 4291 §2.7"},

		// IPv4 embedded in IPv6, with a private and a public IPv4 address.
		{"mapped private", "::ffff:10.1.2.3", "10.0.0.0/8", "IPv4-mapped address judged by the IPv4 address it embeds, 10.1.2.3"},
		{"mapped private hex", "::ffff:a01:203", "10.0.0.0/8", "10.1.2.3"},
		{"mapped loopback", "::ffff:127.0.0.1", "127.0.0.0/8", "127.0.0.1"},
		{"mapped metadata", "::ffff:169.254.169.254", "169.254.0.0/16", "169.254.169.254"},
		{"mapped public", "::ffff:8.8.8.8", "", ""},
		{"compatible private", "::10.1.2.3", "::/96", "it embeds IPv4 address 10.1.2.3, itself in 10.0.0.0/8 (Private-Use, RFC 1918)"},
		{"compatible loopback", "::127.0.0.1", "::/96", "127.0.0.1, itself in 127.0.0.0/8"},
		{"compatible public", "::8.8.8.8", "::/96", "it embeds IPv4 address 8.8.8.8"},
		{"translated private", "::ffff:0:10.1.2.3", "::ffff:0:0:0/96", "10.1.2.3, itself in 10.0.0.0/8"},
		{"translated public", "::ffff:0:8.8.8.8", "::ffff:0:0:0/96", "8.8.8.8"},
		{"NAT64 /96 private", "64:ff9b::10.1.2.3", "10.0.0.0/8", "NAT64 address in 64:ff9b::/96 (RFC 6052) judged by the IPv4 address it embeds, 10.1.2.3"},
		{"NAT64 /96 loopback", "64:ff9b::7f00:1", "127.0.0.0/8", "127.0.0.1"},
		{"NAT64 /96 metadata", "64:ff9b::a9fe:a9fe", "169.254.0.0/16", "169.254.169.254"},
		{"NAT64 /96 CGNAT", "64:ff9b::100.64.0.1", "100.64.0.0/10", "100.64.0.1"},
		// 64:ff9b:1::/48 in the RFC 6052 /48 layout: 10.1 in bits 48-63,
		// the zero u octet, 2.3 in bits 72-87.
		{"NAT64 /48 private", "64:ff9b:1:a01:2:300::", "64:ff9b:1::/48", "it embeds IPv4 address 10.1.2.3, itself in 10.0.0.0/8"},
		{"NAT64 /48 public", "64:ff9b:1:808:8:800::", "64:ff9b:1::/48", "it embeds IPv4 address 8.8.8.8"},
		{"6to4 private", "2002:a01:203::1", "2002::/16", "it embeds IPv4 address 10.1.2.3, itself in 10.0.0.0/8"},
		{"6to4 loopback", "2002:7f00:1::", "2002::/16", "127.0.0.1, itself in 127.0.0.0/8"},
		{"6to4 public", "2002:808:808::1", "2002::/16", "it embeds IPv4 address 8.8.8.8"},
		// Teredo: server 65.54.227.120, client bit-inverted in the last 32 bits.
		{"Teredo private client", "2001:0:4136:e378:8000:63bf:f5fe:fdfc", "2001::/32", "Teredo client IPv4 address 10.1.2.3, itself in 10.0.0.0/8"},
		{"Teredo public client", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001::/32", "Teredo client IPv4 address 8.8.8.8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := netip.MustParseAddr(tt.addr)
			err := CheckAddr(a)
			if tt.block == "" {
				assert.NoError(t, err)
				return
			}
			var ae *AddrError
			require.ErrorAs(t, err, &ae)
			assert.ErrorIs(t, err, ErrForbiddenAddress)
			assert.Equal(t, tt.block, ae.Block.String())
			assert.Equal(t, a, ae.Addr)
			assert.Contains(t, ae.Reason, tt.reason)
			assert.Contains(t, err.Error(), tt.block)
		})
	}
}

func TestCheckAddrZonesAndInvalid(t *testing.T) {
	tests := []struct {
		name string
		addr netip.Addr
		want string // substring of the error
	}{
		{"zero Addr", netip.Addr{}, "Invalid address"},
		{"zoned link-local", netip.MustParseAddr("fe80::1%eth0"), "zone (%eth0)"},
		{"zoned public", netip.MustParseAddr("2606:4700:4700::1111%eth0"), "Zoned address"},
		{"zoned mapped", netip.MustParseAddr("::ffff:8.8.8.8%1"), "Zoned address"},
		{"zoned NAT64", netip.MustParseAddr("64:ff9b::8.8.8.8%en0"), "Zoned address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckAddr(tt.addr)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrForbiddenAddress)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestNonCanonicalAddrStrings documents why CheckURL has to refuse IP-like
// names: net/netip does not parse these forms, so they would otherwise be
// handed to a resolver as names.
func TestNonCanonicalAddrStrings(t *testing.T) {
	for _, s := range []string{"127.1", "0x7f.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.000.000.001",
		"127.0.0.1.", "017700000001", "127.0.1", "1.2.3.4.5", "::ffff:127.1", "[::1]"} {
		t.Run(s, func(t *testing.T) {
			_, err := netip.ParseAddr(s)
			assert.Error(t, err, "net/netip must not parse %q", s)
			uerr := CheckURL("https://"+s+"/", true)
			var ue *URLError
			if s == "[::1]" {
				assert.NoError(t, uerr, "the bracketed loopback literal is allowed in development mode")
				return
			}
			require.ErrorAs(t, uerr, &ue)
			assert.Contains(t, []string{RuleNonCanonicalIP, RuleSyntax}, ue.Rule)
		})
	}
}

func TestCheckAddrAcceptDoesNotAllocate(t *testing.T) {
	for _, s := range []string{"93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8"} {
		a := netip.MustParseAddr(s)
		allocs := testing.AllocsPerRun(100, func() {
			if CheckAddr(a) != nil {
				panic("refused " + s)
			}
		})
		assert.Zero(t, allocs, "allocations accepting %s", s)
	}
}

func TestCompileTableRejectsBadRows(t *testing.T) {
	assert.Panics(t, func() { compileTable([]addrRow{{prefix: "10.0.0.1/8"}}, nil) }, "non-canonical prefix")
	assert.Panics(t, func() { compileTable(nil, []addrRow{{prefix: "10.0.0.0/8"}}) }, "IPv4 row in IPv6 table")
	assert.Panics(t, func() { compileTable([]addrRow{{prefix: "nonsense"}}, nil) }, "unparsable")
}

func TestEmbeddedIPv4Layouts(t *testing.T) {
	v4 := netip.MustParseAddr("192.0.2.33")
	tests := []struct {
		addr string
		how  embedding
	}{
		// RFC 6052 Section 2.4 examples for 192.0.2.33.
		{"64:ff9b::c000:221", embedNAT64},
		{"64:ff9b:1:c000:2:2100::", embedNAT64Local},
		{"::ffff:c000:221", embedMapped},
		{"::c000:221", embedCompat},
		{"::ffff:0:c000:221", embedTranslated},
		{"2002:c000:221::1", emb6to4},
		{"2001:0:4136:e378:8000:63bf:3fff:fdde", embTeredo},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			assert.Equal(t, v4, embeddedIPv4(netip.MustParseAddr(tt.addr), tt.how))
		})
	}
}

func TestReachabilityString(t *testing.T) {
	assert.Equal(t, "True", reachTrue.String())
	assert.Equal(t, "False", reachFalse.String())
	assert.Equal(t, "N/A", reachNA.String())
	assert.Equal(t, "blank", reachBlank.String())
	assert.Equal(t, "not in registry", reachNotRegistry.String())
}

var sinkErr error

func BenchmarkCheckAddr(b *testing.B) {
	for _, bc := range []struct{ name, addr string }{
		{"public-v4", "93.184.216.34"},
		{"public-v6", "2606:4700:4700::1111"},
		{"mapped-public-v4", "::ffff:93.184.216.34"},
		{"nat64-public", "64:ff9b::5db8:d822"},
		{"private-v4", "10.1.2.3"},
		{"refused-v6-6to4", "2002:a01:203::1"},
	} {
		a := netip.MustParseAddr(bc.addr)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkErr = CheckAddr(a)
			}
		})
	}
}

var _ = errors.Is

// FuzzCheckAddr checks CheckAddr against net/netip's own predicates on
// arbitrary 4- and 16-byte addresses: nothing accepted is loopback,
// private, link-local, multicast or unspecified (after unmapping), an
// accepted IPv6 address is in 2000::/3 or a True row, and a refusal names
// a block that contains the address or the IPv4 address it embeds.
func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"8.8.8.8", "10.0.0.1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::",
		"2001:0:4136:e378:8000:63bf:f5fe:fdfc", "ff02::1", "fe80::1", "2606:4700:4700::1111", "192.0.0.9"} {
		f.Add(netip.MustParseAddr(s).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		err := CheckAddr(a)
		u := a.Unmap()
		if err == nil {
			assert.True(t, u.IsGlobalUnicast(), "%s accepted but not global unicast", a)
			assert.False(t, u.IsPrivate() || u.IsLoopback() || u.IsLinkLocalUnicast() || u.IsMulticast() || u.IsUnspecified(),
				"%s accepted", a)
			if u.Is6() {
				in2000 := netip.MustParsePrefix(globalUnicast6).Contains(u)
				nat64 := netip.MustParsePrefix("64:ff9b::/96").Contains(u)
				assert.True(t, in2000 || nat64, "%s accepted outside 2000::/3", a)
				if nat64 {
					assert.NoError(t, CheckAddr(embeddedIPv4(u, embedNAT64)))
				}
			}
			return
		}
		var ae *AddrError
		require.ErrorAs(t, err, &ae)
		require.True(t, ae.Block.IsValid(), "refusal of %s without a block", a)
		if ae.Block.Addr().Is4() {
			v4 := u
			if u.Is6() {
				v4 = embeddedIPv4(u, embedNAT64)
			}
			assert.True(t, ae.Block.Contains(v4), "%s: block %s does not contain %s", a, ae.Block, v4)
		} else {
			assert.True(t, ae.Block.Contains(a), "%s: block %s does not contain it", a, ae.Block)
		}
	})
}

func TestLead16Set(t *testing.T) {
	count := func(s *lead16Set) int {
		n := 0
		for v := range 1 << 16 {
			if s.has(uint16(v)) {
				n++
			}
		}
		return n
	}
	var s4, s6 lead16Set
	s4.mark(netip.MustParsePrefix("240.0.0.0/4"))
	s4.mark(netip.MustParsePrefix("10.0.0.0/8"))
	s4.mark(netip.MustParsePrefix("192.88.99.2/32"))
	assert.Equal(t, 4096+256+1, count(&s4))
	for _, v := range []uint16{0xf000, 0xffff, 0x0a00, 0x0aff, 0xc058} {
		assert.True(t, s4.has(v), "%#04x", v)
	}
	for _, v := range []uint16{0xefff, 0x09ff, 0x0b00, 0xc057, 0xc059} {
		assert.False(t, s4.has(v), "%#04x", v)
	}
	s6.mark(netip.MustParsePrefix("fc00::/7"))
	s6.mark(netip.MustParsePrefix("2001:db8::/32"))
	s6.mark(netip.MustParsePrefix("64:ff9b:1::/48"))
	assert.Equal(t, 512+1+1, count(&s6))
	for _, v := range []uint16{0xfc00, 0xfdff, 0x2001, 0x0064} {
		assert.True(t, s6.has(v), "%#04x", v)
	}
	for _, v := range []uint16{0xfbff, 0xfe00, 0x2000, 0x2002, 0x0063, 0x0065} {
		assert.False(t, s6.has(v), "%#04x", v)
	}
	s6.mark(netip.MustParsePrefix("::/0"))
	assert.Equal(t, 1<<16, count(&s6))
}
