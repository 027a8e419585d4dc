package agentsjson

import "testing"

func BenchmarkParse(b *testing.B) {
	data := readTestdata(b, "wildcard-linkup.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	c, err := Parse(readTestdata(b, "method-shop.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}
