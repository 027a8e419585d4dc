package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The library validator allocates for every value it visits (result maps,
// scope slices, location strings), which makes it several times slower than
// decoding. Most documents are valid, so Validate first runs this
// allocation-free checker over a mirror of the compiled schema. Its answer
// is three-valued: yes and no are certain. For anything it cannot decide
// cheaply and exactly it answers unknown: numbers too close to a bound,
// multipleOf on non-integers, large uniqueItems arrays, deep recursion. Only
// a yes is used: on no or unknown the library, which also produces the
// violations, decides. Schemas that use a keyword the mirror does not
// implement never use it.

const (
	tNull = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var typeBits = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "number": tNumber, "integer": tInteger,
	"string": tString, "array": tArray, "object": tObject,
}

type bound struct {
	f float64
	r *big.Rat
}

type patternNode struct {
	re *regexp.Regexp
	n  *node
}

// node mirrors one compiled *jsonschema.Schema.
type node struct {
	always *bool
	types  uint8

	hasConst bool
	constVal any
	enum     []any
	format   func(any) bool

	ref                 *node
	not                 *node
	allOf, anyOf, oneOf []*node
	ifN, thenN, elseN   *node

	minProps, maxProps int
	required           []string
	props              map[string]*node
	patternProps       []patternNode
	addFalse           bool
	addNode            *node
	propertyNames      *node
	dependentRequired  map[string][]string
	dependentSchemas   map[string]*node

	minItems, maxItems       int
	unique                   bool
	prefixItems              []*node
	items                    *node
	contains                 *node
	minContains, maxContains int

	minLen, maxLen int
	pattern        func(string) bool // nil: no pattern

	min, exMin, max, exMax *bound
	multipleOf             *big.Rat
}

// mirror builds the fast checker for s, or returns nil when s (or any schema
// it reaches) uses something the checker does not implement.
func mirror(s *jsonschema.Schema) *node {
	m := &mirrorer{seen: map[*jsonschema.Schema]*node{}}
	n := m.node(s)
	if m.unsupported {
		return nil
	}
	return n
}

type mirrorer struct {
	seen        map[*jsonschema.Schema]*node
	unsupported bool
}

func (m *mirrorer) nodes(ss []*jsonschema.Schema) []*node {
	if len(ss) == 0 {
		return nil
	}
	out := make([]*node, len(ss))
	for i, s := range ss {
		out[i] = m.node(s)
	}
	return out
}

func toBound(r *big.Rat) *bound {
	if r == nil {
		return nil
	}
	f, _ := r.Float64()
	return &bound{f: f, r: r}
}

func (m *mirrorer) node(s *jsonschema.Schema) *node {
	if s == nil || m.unsupported {
		return nil
	}
	if n, ok := m.seen[s]; ok {
		return n
	}
	n := &node{}
	m.seen[s] = n
	if s.Draft != jsonschema.Draft2020 ||
		s.RecursiveRef != nil || s.DynamicRef != nil ||
		s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil ||
		len(s.Dependencies) > 0 || s.RegexProperties || len(s.Extensions) > 0 ||
		s.ContentEncoding != "" || s.ContentMediaType != "" || s.ContentSchema != nil ||
		s.Items != nil || s.AdditionalItems != nil {
		m.unsupported = true
		return nil
	}
	n.always = s.Always
	for _, t := range s.Types {
		bit, ok := typeBits[t]
		if !ok {
			m.unsupported = true
			return nil
		}
		n.types |= bit
	}
	if len(s.Constant) > 0 {
		n.hasConst, n.constVal = true, s.Constant[0]
	}
	n.enum = s.Enum
	if s.Format != "" {
		// Compile sets AssertFormat, so the library asserts exactly the
		// formats it knows, with these functions.
		n.format = jsonschema.Formats[s.Format]
	}
	n.ref = m.node(s.Ref)
	n.not = m.node(s.Not)
	n.allOf, n.anyOf, n.oneOf = m.nodes(s.AllOf), m.nodes(s.AnyOf), m.nodes(s.OneOf)
	n.ifN, n.thenN, n.elseN = m.node(s.If), m.node(s.Then), m.node(s.Else)

	n.minProps, n.maxProps = s.MinProperties, s.MaxProperties
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*node, len(s.Properties))
		for k, ps := range s.Properties {
			n.props[k] = m.node(ps)
		}
	}
	for re, ps := range s.PatternProperties {
		n.patternProps = append(n.patternProps, patternNode{re, m.node(ps)})
	}
	switch ap := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		n.addFalse = !ap
	case *jsonschema.Schema:
		n.addNode = m.node(ap)
	default:
		m.unsupported = true
	}
	n.propertyNames = m.node(s.PropertyNames)
	n.dependentRequired = s.DependentRequired
	if len(s.DependentSchemas) > 0 {
		n.dependentSchemas = make(map[string]*node, len(s.DependentSchemas))
		for k, ds := range s.DependentSchemas {
			n.dependentSchemas[k] = m.node(ds)
		}
	}

	n.minItems, n.maxItems, n.unique = s.MinItems, s.MaxItems, s.UniqueItems
	n.prefixItems = m.nodes(s.PrefixItems)
	n.items = m.node(s.Items2020)
	n.contains = m.node(s.Contains)
	n.minContains, n.maxContains = s.MinContains, s.MaxContains

	n.minLen, n.maxLen = s.MinLength, s.MaxLength
	if s.Pattern != nil {
		n.pattern = matcher(s.Pattern)
	}

	n.min, n.exMin, n.max, n.exMax = toBound(s.Minimum), toBound(s.ExclusiveMinimum), toBound(s.Maximum), toBound(s.ExclusiveMaximum)
	n.multipleOf = s.MultipleOf
	return n
}

// maxFastDepth bounds the recursion of the checker; deeper means "unknown"
// and the library (which detects $ref loops) decides.
const maxFastDepth = 200

// result is the checker's three-valued answer.
type result int8

// and folds one more conjunct r into *out (yes, then unknown, then no) and
// reports whether checking can stop: r is a certain no.
func (out *result) and(r result) bool {
	if r == no {
		*out = no
		return true
	}
	if r == unknown {
		*out = unknown
	}
	return false
}

const (
	no result = iota
	yes
	unknown
)

func not(r result) result {
	switch r {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

// check answers whether v satisfies n: yes and no are certain, unknown is
// for the library to decide.
func (n *node) check(v any, depth int) result {
	if n == nil {
		return yes
	}
	if depth > maxFastDepth {
		return unknown
	}
	depth++
	if n.always != nil {
		if *n.always {
			return yes
		}
		return no
	}
	var num numberValue
	var isNum bool
	switch x := v.(type) {
	case json.Number:
		num, isNum = numberValue{s: string(x)}, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return unknown
		}
		num, isNum = numberValue{s: strconv.FormatFloat(x, 'g', -1, 64)}, true
	case nil, bool, string, []any, map[string]any:
	default:
		return unknown // not a generic JSON value: let the library report it
	}
	out := yes
	if n.types != 0 && out.and(n.typeOK(v, &num, isNum)) {
		return no
	}
	if n.hasConst && out.and(equal(v, n.constVal)) {
		return no
	}
	if n.enum != nil {
		r := no
		for _, e := range n.enum {
			if c := equal(v, e); c == yes {
				r = yes
				break
			} else if c == unknown {
				r = unknown
			}
		}
		if out.and(r) {
			return no
		}
	}
	if n.format != nil && !n.format(v) {
		return no
	}
	switch x := v.(type) {
	case map[string]any:
		if out.and(n.objectOK(x, depth)) {
			return no
		}
	case []any:
		if out.and(n.arrayOK(x, depth)) {
			return no
		}
	case string:
		if n.minLen != -1 || n.maxLen != -1 {
			l := utf8.RuneCountInString(x)
			if n.minLen != -1 && l < n.minLen || n.maxLen != -1 && l > n.maxLen {
				return no
			}
		}
		if n.pattern != nil && !n.pattern(x) {
			return no
		}
	}
	if isNum && out.and(n.numberOK(&num)) {
		return no
	}
	if n.ref != nil && out.and(n.ref.check(v, depth)) {
		return no
	}
	if n.not != nil && out.and(not(n.not.check(v, depth))) {
		return no
	}
	for _, s := range n.allOf {
		if out.and(s.check(v, depth)) {
			return no
		}
	}
	if n.anyOf != nil {
		r := no
		for _, s := range n.anyOf {
			if c := s.check(v, depth); c == yes {
				r = yes
				break
			} else if c == unknown {
				r = unknown
			}
		}
		if out.and(r) {
			return no
		}
	}
	if n.oneOf != nil {
		matched, unsure := 0, false
		for _, s := range n.oneOf {
			switch s.check(v, depth) {
			case yes:
				matched++
			case unknown:
				unsure = true
			}
		}
		r := no
		switch {
		case matched > 1:
			r = no
		case unsure:
			r = unknown
		case matched == 1:
			r = yes
		}
		if out.and(r) {
			return no
		}
	}
	if n.ifN != nil {
		var r result
		switch n.ifN.check(v, depth) {
		case yes:
			r = n.thenN.check(v, depth)
		case no:
			r = n.elseN.check(v, depth)
		default:
			r = unknown
		}
		if out.and(r) {
			return no
		}
	}
	return out
}

func bit(ok bool) result {
	if ok {
		return yes
	}
	return no
}

func (n *node) typeOK(v any, num *numberValue, isNum bool) result {
	switch v.(type) {
	case nil:
		return bit(n.types&tNull != 0)
	case bool:
		return bit(n.types&tBoolean != 0)
	case string:
		return bit(n.types&tString != 0)
	case []any:
		return bit(n.types&tArray != 0)
	case map[string]any:
		return bit(n.types&tObject != 0)
	}
	if !isNum {
		return unknown
	}
	if n.types&tNumber != 0 {
		return yes
	}
	if n.types&tInteger == 0 {
		return no
	}
	return num.isInt()
}

func (n *node) objectOK(x map[string]any, depth int) result {
	if n.minProps != -1 && len(x) < n.minProps || n.maxProps != -1 && len(x) > n.maxProps {
		return no
	}
	for _, r := range n.required {
		if _, ok := x[r]; !ok {
			return no
		}
	}
	out := yes
	needEach := n.addFalse || n.addNode != nil || n.patternProps != nil || n.propertyNames != nil
	if needEach {
		for k, pv := range x {
			if n.propertyNames != nil && out.and(n.propertyNames.check(k, depth)) {
				return no
			}
			evaluated := false
			if ps, ok := n.props[k]; ok {
				evaluated = true
				if out.and(ps.check(pv, depth)) {
					return no
				}
			}
			for _, pp := range n.patternProps {
				if pp.re.MatchString(k) {
					evaluated = true
					if out.and(pp.n.check(pv, depth)) {
						return no
					}
				}
			}
			if !evaluated {
				if n.addFalse {
					return no
				}
				if n.addNode != nil && out.and(n.addNode.check(pv, depth)) {
					return no
				}
			}
		}
	} else if len(n.props) > 0 {
		if len(n.props) <= len(x) {
			for k, ps := range n.props {
				if pv, ok := x[k]; ok && out.and(ps.check(pv, depth)) {
					return no
				}
			}
		} else {
			for k, pv := range x {
				if ps, ok := n.props[k]; ok && out.and(ps.check(pv, depth)) {
					return no
				}
			}
		}
	}
	for k, need := range n.dependentRequired {
		if _, ok := x[k]; ok {
			for _, r := range need {
				if _, ok := x[r]; !ok {
					return no
				}
			}
		}
	}
	for k, ds := range n.dependentSchemas {
		if _, ok := x[k]; ok && out.and(ds.check(x, depth)) {
			return no
		}
	}
	return out
}

// maxFastUnique is the largest array whose uniqueItems the checker compares
// pairwise; larger ones are left to the library's hashing.
const maxFastUnique = 64

func (n *node) arrayOK(x []any, depth int) result {
	if n.minItems != -1 && len(x) < n.minItems || n.maxItems != -1 && len(x) > n.maxItems {
		return no
	}
	out := yes
	if n.unique {
		if len(x) > maxFastUnique {
			out = unknown
		} else {
			for i := 1; i < len(x); i++ {
				for j := 0; j < i; j++ {
					if c := equal(x[i], x[j]); c == yes {
						return no
					} else if c == unknown {
						out = unknown
					}
				}
			}
		}
	}
	for i, item := range x {
		if i < len(n.prefixItems) {
			if out.and(n.prefixItems[i].check(item, depth)) {
				return no
			}
		} else if n.items != nil && out.and(n.items.check(item, depth)) {
			return no
		}
	}
	if n.contains != nil && (n.minContains != -1 || n.maxContains != -1) {
		matched, unsure := 0, 0
		for _, item := range x {
			switch n.contains.check(item, depth) {
			case yes:
				matched++
			case unknown:
				unsure++
			}
		}
		lo, hi := matched, matched+unsure
		switch {
		case n.minContains != -1 && hi < n.minContains, n.maxContains != -1 && lo > n.maxContains:
			return no
		case n.minContains != -1 && lo < n.minContains, n.maxContains != -1 && hi > n.maxContains:
			out = unknown
		}
	}
	return out
}

func (n *node) numberOK(num *numberValue) result {
	out := yes
	for _, c := range []struct {
		b  *bound
		ok func(int) bool
	}{
		{n.min, func(c int) bool { return c >= 0 }},
		{n.exMin, func(c int) bool { return c > 0 }},
		{n.max, func(c int) bool { return c <= 0 }},
		{n.exMax, func(c int) bool { return c < 0 }},
	} {
		if c.b == nil {
			continue
		}
		r := num.cmp(c.b)
		if r == 2 {
			out = unknown
		} else if !c.ok(r) {
			return no
		}
	}
	if n.multipleOf != nil {
		m := n.multipleOf.Num()
		if !n.multipleOf.IsInt() || !num.plainInt() || !m.IsInt64() || m.Int64() <= 0 {
			return unknown
		}
		i, err := strconv.ParseInt(num.s, 10, 64)
		if err != nil {
			return unknown
		}
		if i%m.Int64() != 0 {
			return no
		}
	}
	return out
}

// numberValue is a JSON number literal.
type numberValue struct {
	s string
}

// plainInt reports whether the literal is written as an integer.
func (v *numberValue) plainInt() bool {
	return !strings.ContainsAny(v.s, ".eE")
}

func (v *numberValue) isInt() result {
	if v.plainInt() {
		return yes
	}
	r, ok := new(big.Rat).SetString(v.s)
	if !ok {
		return unknown
	}
	return bit(r.IsInt())
}

// cmp compares the number with b: -1, 0 or 1 when certain, 2 when the two
// are too close for float64 to decide (the callers treat 2 as failure).
func (v *numberValue) cmp(b *bound) int {
	if b.r.IsInt() && v.plainInt() && b.r.Num().IsInt64() {
		if i, err := strconv.ParseInt(v.s, 10, 64); err == nil {
			bi := b.r.Num().Int64()
			switch {
			case i < bi:
				return -1
			case i > bi:
				return 1
			}
			return 0
		}
	}
	f, err := strconv.ParseFloat(v.s, 64)
	if err != nil {
		return 2
	}
	d := f - b.f
	scale := math.Max(math.Abs(f), math.Abs(b.f))
	if math.Abs(d) > 1e-9*scale && !math.IsInf(d, 0) && !math.IsNaN(d) {
		if d < 0 {
			return -1
		}
		return 1
	}
	r, ok := new(big.Rat).SetString(v.s)
	if !ok {
		return 2
	}
	return r.Cmp(b.r)
}

// equal is JSON equality as the library defines it: numbers compare by
// value, objects by members, arrays by items.
func equal(a, b any) result {
	switch x := a.(type) {
	case nil:
		return bit(b == nil)
	case bool:
		y, ok := b.(bool)
		return bit(ok && x == y)
	case string:
		y, ok := b.(string)
		return bit(ok && x == y)
	case json.Number, float64:
		return numEqual(a, b)
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return no
		}
		out := yes
		for i := range x {
			switch equal(x[i], y[i]) {
			case no:
				return no
			case unknown:
				out = unknown
			}
		}
		return out
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return no
		}
		out := yes
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				return no
			}
			switch equal(xv, yv) {
			case no:
				return no
			case unknown:
				out = unknown
			}
		}
		return out
	}
	return unknown
}

func numString(v any) (string, bool) {
	switch x := v.(type) {
	case json.Number:
		return string(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

func numEqual(a, b any) result {
	as, ok1 := numString(a)
	bs, ok2 := numString(b)
	if !ok1 {
		return unknown
	}
	if !ok2 {
		switch b.(type) {
		case nil, bool, string, []any, map[string]any:
			return no
		}
		return unknown
	}
	if as == bs {
		return yes
	}
	ra, ok1 := new(big.Rat).SetString(as)
	rb, ok2 := new(big.Rat).SetString(bs)
	if !ok1 || !ok2 {
		return unknown
	}
	return bit(ra.Cmp(rb) == 0)
}
