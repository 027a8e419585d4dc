package strictjson

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// FuzzDecode checks that Decode never panics, that it agrees with Valid and
// DecodeOrdered (whose values span their own source text), and
// that whatever it accepts encoding/json also accepts with an equal tree.
func FuzzDecode(f *testing.F) {
	seeds := []string{
		`{}`, `[]`, `null`, `"x"`, `-0.5e-3`, `{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00"}`,
		`{"a":1,"a":2}`, "\uFEFF1", "\"\xff\"", `"\ud800"`, `1e400`, `[1,]`, `{} x`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`,
		nest("[", "]", 64, ""), nest("[", "]", 65, ""),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		verr := Valid(data)
		if (err == nil) != (verr == nil) {
			t.Fatalf("Decode error %v, Valid error %v", err, verr)
		}
		ov, oerr := DecodeOrdered(data)
		if !reflect.DeepEqual(err, oerr) {
			t.Fatalf("Decode error %v, DecodeOrdered error %v", err, oerr)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %T %v is not a *Error wrapping ErrInvalid", err, err)
			}
			if e.Offset < 0 || e.Offset > int64(len(data)) {
				t.Fatalf("offset %d outside input of %d bytes", e.Offset, len(data))
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Decode accepted %q which encoding/json refuses", data)
		}
		std, serr := stdDecode(data)
		if serr != nil {
			t.Fatalf("encoding/json: %v", serr)
		}
		if !numbersInRange(v) {
			t.Fatalf("Decode accepted a number outside the I-JSON range in %q", data)
		}
		if !equalTree(v, std) {
			t.Fatalf("trees differ:\nstrictjson    %#v\nencoding/json %#v", v, std)
		}
		if !equalTree(v, toAny(ov)) {
			t.Fatalf("trees differ:\nDecode        %#v\nDecodeOrdered %#v", v, toAny(ov))
		}
		if len(data) <= 4096 {
			if err := spansError(data, ov, ""); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func equalTree(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equalTree(av, bv) {
				return false
			}
		}
		return true
	case []any:
		ba, ok := b.([]any)
		if !ok || len(a) != len(ba) {
			return false
		}
		for i := range a {
			if !equalTree(a[i], ba[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

// numbersInRange reports whether every number in the tree is a finite
// double that is zero only when written as zero.
func numbersInRange(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if !numbersInRange(x) {
				return false
			}
		}
	case []any:
		for _, x := range v {
			if !numbersInRange(x) {
				return false
			}
		}
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0) {
			return false
		}
		if f == 0 && nonZeroMantissa(string(v)) {
			return false
		}
	}
	return true
}
