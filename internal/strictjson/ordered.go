package strictjson

// Kind is the kind of a JSON value in the ordered tree of [DecodeOrdered].
type Kind uint8

// The kinds of JSON values (RFC 8259 Section 3).
const (
	KindNull Kind = iota
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// String returns the kind's name as a message would say it: "null",
// "boolean", "number", "string", "array" or "object".
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindArray:
		return "array"
	case KindObject:
		return "object"
	}
	return "invalid kind"
}

// Value is one value of the ordered tree that [DecodeOrdered] returns.
// Unlike the maps of [Decode], an object keeps its members in the order the
// text has them. Every value knows where it was read. So a caller can keep
// member order on a round trip, or copy a value's source text.
type Value struct {
	// Kind says which of the fields below is meaningful.
	Kind Kind
	// Text is a string's value (unescaped), a number's exact source text,
	// or "true" or "false"; it is "" for null, arrays and objects.
	Text string
	// Elems holds an array's elements in order.
	Elems []Value
	// Members holds an object's members in the order they were read. Their
	// names are unique: a duplicate is refused while decoding.
	Members []Member
	// Start and End are the byte offsets of the value in the input:
	// data[Start:End] is its source text, without surrounding whitespace.
	Start, End int
}

// Member is one member of an object in the ordered tree.
type Member struct {
	Name  string
	Value Value
}

// DecodeOrdered parses data as one strict JSON text, under exactly the rules
// of [Decode], and returns its ordered tree. Any violation returns the zero
// Value and an [*Error] with the same rule, pointer and offset as Decode's.
//
// Like Decode, DecodeOrdered is a single pass that allocates only for what it
// returns, and its strings share the memory of one copy of the input.
func DecodeOrdered(data []byte) (Value, error) {
	d := decoder{s: string(data), ordered: true}
	if _, err := d.run(); err != nil {
		return Value{}, err
	}
	return d.node, nil
}
