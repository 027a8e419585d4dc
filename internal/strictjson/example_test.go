package strictjson_test

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/internal/strictjson"
)

func ExampleDecode() {
	v, err := strictjson.Decode([]byte(`{"name":"shop","tags":["a","b"],"rating":4.5}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	doc := v.(map[string]any)
	fmt.Println(doc["name"], doc["tags"], doc["rating"])

	_, err = strictjson.Decode([]byte(`{"links":[{"href":"/a","href":"/b"}]}`))
	var e *strictjson.Error
	if errors.As(err, &e) {
		fmt.Println(e.Rule, e.Pointer, e.Offset)
	}
	fmt.Println(err)
	// Output:
	// shop [a b] 4.5
	// json-duplicate-member /links/0/href 23
	// strictjson: duplicate member name "href" at line 1, column 24 ("/links/0/href", byte offset 23, json-duplicate-member)
}

func ExampleValid() {
	fmt.Println(strictjson.Valid([]byte(`{"ok":true}`)))
	fmt.Println(strictjson.Valid([]byte(`{"n":1e999}`)))
	// Output:
	// <nil>
	// strictjson: number 1e999 is outside the range of an IEEE 754 double at line 1, column 6 ("/n", byte offset 5, json-number-range)
}

func ExampleDecodeOrdered() {
	data := []byte(`{"zeta":[1,"two"],"alpha":{"x":null}}`)
	v, err := strictjson.DecodeOrdered(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range v.Members {
		fmt.Println(m.Name, m.Value.Kind, string(data[m.Value.Start:m.Value.End]))
	}
	fmt.Println(v.Members[0].Value.Elems[1].Text)
	// Output:
	// zeta array [1,"two"]
	// alpha object {"x":null}
	// two
}

func ExampleAppendString() {
	fmt.Println(string(strictjson.AppendString(nil, "say \"hi\"\t</a>\x01\xff")))
	isBOM := func(r rune) bool { return r == 0xfeff }
	fmt.Println(string(strictjson.AppendStringFunc(nil, "\ufeffbom", isBOM)))
	// Output:
	// "say \"hi\"\t</a>\u0001�"
	// "\ufeffbom"
}
