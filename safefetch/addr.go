package safefetch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"slices"
)

// CheckAddr returns nil only for a globally reachable unicast address under the
// IANA special-purpose address registries (RFC 6890 Section 2.2.2, the
// knowledge-linkset draft Section 7.1 and Section 9.2). Otherwise it returns an
// *[AddrError] wrapping [ErrForbiddenAddress] that names the deciding block and
// why.
//
// The rules, in order:
//   - The zero Addr and zoned addresses (fe80::1%eth0) are refused.
//   - The most specific registry row containing the address decides: the
//     address is accepted only if that row says "Globally Reachable: True".
//     False, N/A and blank rows are refused, and so are ranges outside the
//     registries that are never targets: multicast (224.0.0.0/4, ff00::/8),
//     IPv4-compatible (::/96), IPv4-translated (::ffff:0:0:0/96) and
//     site-local (fec0::/10) IPv6. An IPv6 address outside 2000::/3 that no
//     True row covers is refused. IPv4 addresses in no row are accepted.
//   - IPv6 addresses that embed IPv4 are judged by the IPv4 address:
//     an IPv4-mapped address (::ffff:a.b.c.d) is judged exactly as a.b.c.d,
//     because the socket API connects to that IPv4 address and Go's
//     resolver and net.TCPAddr produce this form for plain IPv4; a NAT64
//     address in 64:ff9b::/96 (the True row of RFC 6052) is accepted only
//     if its embedded IPv4 address is. The other embedding forms are in
//     refused rows anyway (64:ff9b:1::/48 local-use NAT64 is refused as a
//     whole rather than decoded and trusted, because its translator is
//     operated inside the local network; 6to4, Teredo, compatible and
//     translated forms are refused), and their errors name the embedded
//     IPv4 address (for Teredo, the client address, bit-inverted on the
//     wire as RFC 4380 Section 4 specifies).
//   - An otherwise accepted IPv6 address whose interface identifier is an
//     ISATAP one (RFC 5214 Section 6.1: 0000:5efe:a.b.c.d, or 0200:5efe:a.b.c.d
//     for a globally unique IPv4 address, in any /64; the u and g bits are
//     not looked at) is judged by the IPv4 address it embeds: ISATAP
//     reaches that IPv4 node through the site's IPv4 network, so an ISATAP
//     address that embeds 10.0.0.1 reaches a private host.
//
// CheckAddr takes no options: the NAT64 prefixes of the local network
// ([Options.NAT64Prefixes]) are applied by the [Client] on top of it.
//
// CheckAddr does not allocate when it accepts an address.
func CheckAddr(addr netip.Addr) error {
	switch {
	case !addr.IsValid():
		return &AddrError{Addr: addr, Name: "Invalid address",
			Reason: "the zero netip.Addr is not an IP address"}
	case addr.Zone() != "":
		return &AddrError{Addr: addr, Block: netip.PrefixFrom(addr.WithZone(""), addr.BitLen()), Name: "Zoned address",
			Reason: fmt.Sprintf("an address with a zone (%%%s) is scoped to one link, never globally reachable (RFC 4007 §11)", addr.Zone())}
	case addr.Is4():
		e := addrTable.lookup4(addr)
		if e == nil || e.row.reach == reachTrue {
			return nil
		}
		return e.refuse(addr, "")
	case addr.Is4In6():
		v4 := addr.Unmap()
		e := addrTable.lookup4(v4)
		if e == nil || e.row.reach == reachTrue {
			return nil
		}
		return e.refuse(addr, fmt.Sprintf("IPv4-mapped address judged by the IPv4 address it embeds, %s: ", v4))
	}
	b := addr.As16()
	hi, lo := binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])
	e := addrTable.lookup6(hi, lo)
	if e == nil {
		if addrTable.global6.contains6(hi, lo) {
			return checkISATAP(addr, lo)
		}
		return &AddrError{Addr: addr, Block: netip.PrefixFrom(addr, 3).Masked(), Name: "Not global unicast",
			Reason: "outside the global unicast space 2000::/3 and in no globally reachable registry row (RFC 4291 §2.4)"}
	}
	if e.row.reach == reachTrue {
		if e.row.embed != embedNAT64 {
			return checkISATAP(addr, lo)
		}
		v4 := embeddedIPv4(addr, e.row.embed)
		e4 := addrTable.lookup4(v4)
		if e4 == nil || e4.row.reach == reachTrue {
			return nil
		}
		return e4.refuse(addr, fmt.Sprintf("NAT64 address in %s (%s) judged by the IPv4 address it embeds, %s: ", e.prefix, e.row.rfc, v4))
	}
	err := e.refuse(addr, "")
	if e.row.embed != embedNone {
		v4 := embeddedIPv4(addr, e.row.embed)
		what := "it embeds IPv4 address "
		if e.row.embed == embTeredo {
			what = "it embeds the Teredo client IPv4 address "
		}
		err.Reason += "; " + what + v4.String()
		if e4 := addrTable.lookup4(v4); e4 != nil && e4.row.reach != reachTrue {
			err.Reason += fmt.Sprintf(", itself in %s (%s, %s)", e4.prefix, e4.row.name, e4.row.rfc)
		}
	}
	return err
}

// isatapMask and isatapIID select and match the ISATAP interface identifier of
// RFC 5214 Section 6.1 in the low 64 bits of an address. The identifier is 0x00
// (or 0x02, 0x01, 0x03: the u and g bits) 0x00 0x5e 0xfe, then the IPv4
// address.
const (
	isatapMask = 0xfcffffff_00000000
	isatapIID  = 0x00005efe_00000000
)

// checkISATAP judges an address that is otherwise accepted, whose low 64
// bits are lo: an ISATAP interface identifier is judged by its IPv4 address.
func checkISATAP(addr netip.Addr, lo uint64) error {
	if lo&isatapMask != isatapIID {
		return nil
	}
	v4 := netip.AddrFrom4([4]byte{byte(lo >> 24), byte(lo >> 16), byte(lo >> 8), byte(lo)})
	e4 := addrTable.lookup4(v4)
	if e4 == nil || e4.row.reach == reachTrue {
		return nil
	}
	return e4.refuse(addr, fmt.Sprintf("ISATAP interface identifier (RFC 5214 §6.1) judged by the IPv4 address it embeds, %s: ", v4))
}

// nat64Lengths are the prefix lengths of RFC 6052 Section 2.2.
var nat64Lengths = [...]int{32, 40, 48, 56, 64, 96}

// checkNAT64 applies the local network's NAT64 prefixes to an address that
// [CheckAddr] accepted: an address in one of them is judged by the IPv4
// address it embeds (RFC 6052 Section 2.2). An address whose "u" octet (bits 64–71)
// is not zero, or that is in a prefix of a length RFC 6052 does not define,
// is refused.
func checkNAT64(host string, addr netip.Addr, prefixes []netip.Prefix) error {
	if !addr.Is6() || addr.Is4In6() {
		return nil
	}
	for _, p := range prefixes {
		if !p.Contains(addr) {
			continue
		}
		refuse := func(reason string) error {
			return &AddrError{Host: host, Addr: addr, Block: p, Name: "NAT64 network-specific prefix", Reason: reason}
		}
		if !slices.Contains(nat64Lengths[:], p.Bits()) {
			return refuse(fmt.Sprintf("in the local network's NAT64 prefix %s, whose length is none of RFC 6052 §2.2's (32, 40, 48, 56, 64, 96): refused rather than decoded", p))
		}
		b := addr.As16()
		if p.Bits() != 96 && b[8] != 0 {
			return refuse(fmt.Sprintf("in the local network's NAT64 prefix %s with a non-zero u octet (bits 64–71), which RFC 6052 §2.2 requires to be zero", p))
		}
		v4 := nat64Embedded(b, p.Bits())
		if err := CheckAddr(v4); err != nil {
			var ae *AddrError
			why := err.Error()
			if errors.As(err, &ae) {
				why = fmt.Sprintf("%s (%s)", ae.Reason, ae.Block)
			}
			return refuse(fmt.Sprintf("in the local network's NAT64 prefix %s, judged by the IPv4 address it embeds, %s (RFC 6052 §2.2): %s", p, v4, why))
		}
		return nil
	}
	return nil
}

// nat64Embedded extracts the IPv4 address of an IPv6 address b translated with
// a prefix of the given length. It follows the layout of RFC 6052 Section 2.2:
// the 32 bits follow the prefix, skipping the u octet (bits 64–71).
func nat64Embedded(b [16]byte, bits int) netip.Addr {
	var v [4]byte
	switch bits {
	case 32:
		copy(v[:], b[4:8])
	case 40:
		v = [4]byte{b[5], b[6], b[7], b[9]}
	case 48:
		v = [4]byte{b[6], b[7], b[9], b[10]}
	case 56:
		v = [4]byte{b[7], b[9], b[10], b[11]}
	case 64:
		copy(v[:], b[9:13])
	default: // 96
		copy(v[:], b[12:16])
	}
	return netip.AddrFrom4(v)
}

// embeddedIPv4 extracts the IPv4 address an IPv6 address carries in the
// layout of its block.
func embeddedIPv4(a netip.Addr, how embedding) netip.Addr {
	b := a.As16()
	switch how {
	case embedNAT64Local:
		// RFC 6052 Section 2.2, /48 prefix: v4 bits 0–15 in address bits 48–63,
		// bits 64–71 are the zero "u" octet, v4 bits 16–31 in bits 72–87.
		return netip.AddrFrom4([4]byte{b[6], b[7], b[9], b[10]})
	case emb6to4:
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	case embTeredo:
		return netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
	default: // mapped, compatible, translated, NAT64 /96: the low 32 bits
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
}

// addrEntry is a compiled row: the prefix as masks over the address bits.
type addrEntry struct {
	prefix netip.Prefix
	hi, lo uint64 // network bits (IPv4: in lo's low 32 bits)
	mh, ml uint64 // masks
	row    *addrRow
}

func (e *addrEntry) contains4(v uint64) bool { return v&e.ml == e.lo }

func (e *addrEntry) contains6(hi, lo uint64) bool {
	return hi&e.mh == e.hi && lo&e.ml == e.lo
}

// refuse builds the error for an address that this (non-True) entry decides.
func (e *addrEntry) refuse(addr netip.Addr, lead string) *AddrError {
	var why string
	switch e.row.reach {
	case reachFalse:
		why = "not globally reachable"
	case reachTrue:
		why = "globally reachable" // not reached: True rows are never refused
	case reachNA:
		why = "global reachability N/A in the registry (it depends on the relayed address), refused"
	case reachBlank:
		why = "deprecated, global reachability left blank in the registry, refused"
	default:
		why = "not in the special-purpose registry and never a unicast fetch target"
	}
	return &AddrError{Addr: addr, Block: e.prefix, Name: e.row.name,
		Reason: lead + why + " (" + e.row.rfc + ")"}
}

// compiledTable holds both registries compiled, most specific rows first,
// so that the first match of a linear scan is the most specific one.
type compiledTable struct {
	v4, v6  []addrEntry
	global6 addrEntry
	// lead4 and lead6 mark the values of the leading 16 bits that some
	// row covers. An address whose leading 16 bits are unmarked is in no
	// row, which saves the scan for most public addresses.
	lead4, lead6 lead16Set
}

// addrTable is built once at package initialization from ipv4Rows and
// ipv6Rows and never modified.
var addrTable = compileTable(ipv4Rows, ipv6Rows)

func compileTable(v4rows, v6rows []addrRow) *compiledTable {
	t := &compiledTable{}
	for i := range v4rows {
		t.v4 = append(t.v4, compileRow(&v4rows[i], true))
	}
	for i := range v6rows {
		t.v6 = append(t.v6, compileRow(&v6rows[i], false))
	}
	for _, e := range t.v4 {
		t.lead4.mark(e.prefix)
	}
	for _, e := range t.v6 {
		t.lead6.mark(e.prefix)
	}
	bySpecificity := func(a, b addrEntry) int { return b.prefix.Bits() - a.prefix.Bits() }
	slices.SortStableFunc(t.v4, bySpecificity)
	slices.SortStableFunc(t.v6, bySpecificity)
	t.global6 = compileRow(&addrRow{prefix: globalUnicast6, name: "Global Unicast", rfc: "RFC 4291 §2.4", reach: reachTrue}, false)
	return t
}

func compileRow(r *addrRow, v4 bool) addrEntry {
	p := netip.MustParsePrefix(r.prefix)
	if p.Masked() != p || p.Addr().Is4() != v4 {
		panic("safefetch: address table row " + r.prefix + " is not a canonical prefix of its family")
	}
	e := addrEntry{prefix: p, row: r}
	if v4 {
		a := p.Addr().As4()
		e.lo = uint64(binary.BigEndian.Uint32(a[:]))
		e.ml = uint64(^uint32(0) << (32 - p.Bits()))
		if p.Bits() == 0 {
			e.ml = 0
		}
		return e
	}
	a := p.Addr().As16()
	e.hi, e.lo = binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(a[8:])
	bits := p.Bits()
	switch {
	case bits == 0:
	case bits <= 64:
		e.mh = ^uint64(0) << (64 - bits)
	default:
		e.mh = ^uint64(0)
		e.ml = ^uint64(0) << (128 - bits)
	}
	return e
}

// lead16Set is a set of 16-bit values (the leading 16 bits of addresses).
type lead16Set [1 << 16 / 64]uint64

// lead16 returns the leading 16 bits of a.
func lead16(a netip.Addr) uint16 {
	if a.Is4() {
		b := a.As4()
		return uint16(b[0])<<8 | uint16(b[1])
	}
	b := a.As16()
	return uint16(b[0])<<8 | uint16(b[1])
}

// mark adds the leading 16 bits of every address in p.
func (s *lead16Set) mark(p netip.Prefix) {
	first := int(lead16(p.Masked().Addr()))
	n := 1
	if p.Bits() < 16 {
		n = 1 << (16 - p.Bits())
	}
	for v := first; v < first+n; v++ {
		s[v/64] |= 1 << (v % 64)
	}
}

// has reports whether v was marked.
func (s *lead16Set) has(v uint16) bool { return s[v/64]&(1<<(v%64)) != 0 }

// lookup4 returns the most specific IPv4 entry containing a, or nil.
func (t *compiledTable) lookup4(a netip.Addr) *addrEntry {
	b := a.As4()
	if !t.lead4.has(uint16(b[0])<<8 | uint16(b[1])) {
		return nil
	}
	v := uint64(binary.BigEndian.Uint32(b[:]))
	for i := range t.v4 {
		if t.v4[i].contains4(v) {
			return &t.v4[i]
		}
	}
	return nil
}

// lookup6 returns the most specific IPv6 entry containing the address
// whose high and low 64 bits are hi and lo, or nil.
func (t *compiledTable) lookup6(hi, lo uint64) *addrEntry {
	if !t.lead6.has(uint16(hi >> 48)) {
		return nil
	}
	for i := range t.v6 {
		if e := &t.v6[i]; e.contains6(hi, lo) {
			return e
		}
	}
	return nil
}
