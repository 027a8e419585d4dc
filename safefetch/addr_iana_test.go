package safefetch

import (
	"encoding/csv"
	"fmt"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ianaRow is one block of the vendored IANA CSV files.
type ianaRow struct {
	prefix netip.Prefix
	name   string
	global string // "True", "False", "N/A" or ""
}

func readIANA(t *testing.T) []ianaRow {
	t.Helper()
	footnote := regexp.MustCompile(`\s*\[[0-9]+\]`)
	var rows []ianaRow
	for _, file := range []string{"testdata/iana/iana-ipv4-special-registry-1.csv", "testdata/iana/iana-ipv6-special-registry-1.csv"} {
		f, err := os.Open(file)
		require.NoError(t, err)
		records, err := csv.NewReader(f).ReadAll()
		f.Close()
		require.NoError(t, err)
		require.Equal(t, "Globally Reachable", records[0][8])
		for _, rec := range records[1:] {
			for _, block := range strings.Split(footnote.ReplaceAllString(rec[0], ""), ",") {
				rows = append(rows, ianaRow{
					prefix: netip.MustParsePrefix(strings.TrimSpace(block)),
					name:   rec[1],
					global: footnote.ReplaceAllString(rec[8], ""),
				})
			}
		}
	}
	return rows
}

// ianaOracle says whether an address is a fetch target, from the IANA rows
// alone and the policy CheckAddr documents: the most specific row decides
// (True accepts); IPv4-mapped addresses and NAT64 /96 addresses are judged
// by the IPv4 address they carry; outside the rows, IPv4 multicast is
// refused and the rest of IPv4 accepted, and IPv6 is accepted only in
// 2000::/3 outside the never-target ranges. It shares no code with
// CheckAddr.
func ianaOracle(rows []ianaRow, a netip.Addr) bool {
	if a.Is4In6() {
		return ianaOracle(rows, a.Unmap())
	}
	var best *ianaRow
	for i := range rows {
		r := &rows[i]
		if r.prefix.Addr().Is4() == a.Is4() && r.prefix.Contains(a) && (best == nil || r.prefix.Bits() > best.prefix.Bits()) {
			best = r
		}
	}
	if best != nil {
		if best.global != "True" {
			return false
		}
		if best.prefix == netip.MustParsePrefix("64:ff9b::/96") {
			b := a.As16()
			return ianaOracle(rows, netip.AddrFrom4([4]byte(b[12:16])))
		}
		if a.Is6() {
			return !isatapPrivate(rows, a)
		}
		return true
	}
	if a.Is4() {
		return !netip.MustParsePrefix("224.0.0.0/4").Contains(a)
	}
	for _, never := range []string{"::/96", "::ffff:0:0:0/96", "fec0::/10", "ff00::/8"} {
		if netip.MustParsePrefix(never).Contains(a) {
			return false
		}
	}
	return netip.MustParsePrefix("2000::/3").Contains(a) && !isatapPrivate(rows, a)
}

// isatapPrivate: an ISATAP interface identifier whose IPv4 address the
// oracle refuses.
func isatapPrivate(rows []ianaRow, a netip.Addr) bool {
	b := a.As16()
	if b[8]&^3 != 0 || b[9] != 0 || b[10] != 0x5e || b[11] != 0xfe {
		return false
	}
	return !ianaOracle(rows, netip.AddrFrom4([4]byte(b[12:16])))
}

// TestCheckAddrIANARegistries checks CheckAddr against every block of the
// vendored IANA special-purpose registries, at both edges: the first and
// last address of the block and the addresses just before and just after
// it, each judged by ianaOracle.
func TestCheckAddrIANARegistries(t *testing.T) {
	rows := readIANA(t)
	require.Len(t, rows, ipv4RegistryRows+ipv6RegistryRows)
	checked := 0
	for _, r := range rows {
		first := r.prefix.Masked().Addr()
		last := lastAddrOf(r.prefix)
		edges := []struct {
			name string
			a    netip.Addr
		}{
			{"first", first}, {"last", last}, {"before", first.Prev()}, {"after", last.Next()},
		}
		for _, e := range edges {
			if !e.a.IsValid() {
				continue // before 0.0.0.0 or ::, after the last address
			}
			t.Run(fmt.Sprintf("%s/%s/%s", r.prefix, e.name, e.a), func(t *testing.T) {
				want := ianaOracle(rows, e.a)
				err := CheckAddr(e.a)
				assert.Equal(t, want, err == nil, "%s (%s of %s, %s, Globally Reachable %q): CheckAddr says %v", e.a, e.name, r.prefix, r.name, r.global, err)
				if e.name == "first" || e.name == "last" {
					if r.global != "True" && !strings.HasPrefix(r.prefix.String(), "::ffff:") {
						assert.Error(t, err, "a %s row refuses its own edges", r.global)
					}
				}
			})
			checked++
		}
	}
	// Five edges do not exist: before 0.0.0.0/8, 0.0.0.0/32 and ::/128,
	// after 240.0.0.0/4 and 255.255.255.255/32.
	assert.Equal(t, 4*(ipv4RegistryRows+ipv6RegistryRows)-5, checked)
}

func lastAddrOf(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
