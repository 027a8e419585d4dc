package browser

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every message within the bound passes unchanged. One over it is replaced
// by a short message that fails its command, refuses its request or counts
// its tools as skipped, or it is dropped. Console messages, exceptions and
// log entries are dropped whatever their size.
func TestBoundMessagesReplacesWhatIsOverTheBound(t *testing.T) {
	const limit = 256
	big := strings.Repeat("x", 4*limit)
	in := []string{
		`{"method":"Page.loadEventFired","params":{"timestamp":1},"sessionId":"S1"}`,
		`{"id":7,"result":{"result":{"type":"string","value":"` + big + `"}},"sessionId":"S1"}`,
		`{"method":"Fetch.requestPaused","params":{"requestId":"interception-job-3.0","request":{"url":"https://shop.example/api","method":"POST","postData":"` + big + `"}},"sessionId":"S2"}`,
		`{"method":"WebMCP.toolsAdded","params":{"tools":[{"name":"t","description":"` + big + `"}]},"sessionId":"S3"}`,
		`{"method":"Runtime.consoleAPICalled","params":{"args":[{"value":"` + big + `"}]},"sessionId":"S1"}`,
		`{"id":8,"result":{},"sessionId":"S1"}`,
		`{"method":"Runtime.consoleAPICalled","params":{"type":"log","args":[{"value":"small"}]},"sessionId":"S1"}`,
		`{"method":"Runtime.exceptionThrown","params":{"exceptionDetails":{"text":"` + big + `"}},"sessionId":"S1"}`,
		`{"method":"Log.entryAdded","params":{"entry":{"text":"x"}},"sessionId":"S1"}`,
		`{"id":9,"result":{},"sessionId":"S1"}`,
	}
	var src bytes.Buffer
	for _, m := range in {
		src.WriteString(m + "\x00")
	}
	got := strings.Split(strings.TrimSuffix(string(bounded(&src, limit)), "\x00"), "\x00")
	want := []string{
		in[0],
		`{"id":7,"error":{"code":-32000,"message":"the message was over the bound of 4 MiB"},"sessionId":"S1"}`,
		`{"method":"Fetch.requestPaused","params":{"requestId":"interception-job-3.0","request":{"url":"` + oversized + `","method":"GET","headers":{},"initialPriority":"Low","referrerPolicy":"no-referrer"},"frameId":"","resourceType":"Other"},"sessionId":"S2"}`,
		`{"method":"WebMCP.toolsAdded","params":{"oversized":true},"sessionId":"S3"}`,
		in[5],
		in[9],
	}
	assert.Equal(t, want, got)
}

// A message split across many reads, just under and just over the bound.
func TestBoundMessagesAtTheBound(t *testing.T) {
	for _, n := range []int{100, 64 << 10, 200 << 10} {
		msg := `{"id":1,"result":{"v":"` + strings.Repeat("y", n) + `"}}`
		assert.Equal(t, msg+"\x00", string(bounded(strings.NewReader(msg+"\x00"), len(msg))), "a message of exactly the bound passes")
		assert.Contains(t, string(bounded(strings.NewReader(msg+"\x00"), len(msg)-1)), `"error"`, "one byte over is replaced")
	}
}

// Whatever Chromium writes, every message handed on is within the bound,
// and every message within it that is not dropped is handed on unchanged
// and in order.
func FuzzBoundMessages(f *testing.F) {
	f.Add([]byte(`{"id":1,"result":{}}`+"\x00"+`{"method":"Fetch.requestPaused","params":{"requestId":"r1","request":{"url":"`+strings.Repeat("u", 300)+`"}},"sessionId":"S"}`+"\x00"), 64)
	f.Add([]byte(`{"method":"Runtime.consoleAPICalled","params":{}}`+"\x00\x00x"), 16)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 || limit > 1<<16 {
			return
		}
		out := bounded(bytes.NewReader(data), limit)
		var want [][]byte
		parts := bytes.Split(data, []byte{0})
		for _, m := range parts[:len(parts)-1] { // the last has no NUL: never handed on
			if len(m)+1 <= limit+1 && !dropped(firstBytes(m, dropCheck)) {
				want = append(want, m)
			}
		}
		got := bytes.Split(out, []byte{0})
		got = got[:len(got)-1]
		i := 0
		for _, g := range got {
			if len(g)+1 > max(limit+1, 512) {
				t.Fatalf("a message of %d bytes was handed on (limit %d)", len(g), limit)
			}
			if i < len(want) && bytes.Equal(g, want[i]) {
				i++
			}
		}
		if i != len(want) {
			t.Fatalf("%d of %d messages within the bound were handed on unchanged", i, len(want))
		}
	})
}

// bounded is what boundMessages hands on of src's messages, through a
// pipe as Chromium's are.
func bounded(src io.Reader, limit int) []byte {
	pr, pw := io.Pipe()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(&out, pr)
	}()
	boundMessages(io.NopCloser(src), pw, limit)
	<-done
	return out.Bytes()
}
