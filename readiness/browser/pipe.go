package browser

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"syscall"
)

// MaxMessageBytes bounds every DevTools message this process reads from
// Chromium. A page decides the size of many: a request's body, a tool's
// description and schema, a URL. A message over the bound is never held
// whole. A paused request it carried is refused. A tool it carried is
// counted as skipped. A reply it carried fails its command. Any other event
// is dropped. Console messages, exceptions and log entries are dropped
// whatever their size, unread past their first bytes: the renderer never
// reads them.
const MaxMessageBytes = 4 << 20

// oversized is the URL a paused request over MaxMessageBytes is handed on
// with, so that the renderer refuses it.
const oversized = "agentweb:over-the-message-bound"

// interpose starts Chromium with the end of the pipe it writes its messages
// to replaced by one of ours. [boundMessages] reads it, and hands every
// message within MaxMessageBytes on to chromedp's end unchanged. It keeps
// chromedp's default: Chromium is killed when the thread that started it
// ends.
func (in *instance) interpose(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if len(cmd.ExtraFiles) != 2 || cmd.ExtraFiles[1] == nil {
		return
	}
	fd, err := syscall.Dup(int(cmd.ExtraFiles[1].Fd()))
	if err != nil {
		return
	}
	syscall.CloseOnExec(fd)
	toChromedp := os.NewFile(uintptr(fd), "devtools-to-chromedp")
	r, w, err := os.Pipe()
	if err != nil {
		_ = toChromedp.Close()
		return
	}
	cmd.ExtraFiles[1] = w
	in.childW = w
	go boundMessages(r, toChromedp, MaxMessageBytes)
}

// boundMessages copies the NUL-ended messages of r to w, each within limit
// bytes. A longer one is replaced as [MaxMessageBytes] says. No more of it
// is read than its first and last few bytes. It closes both when r ends.
func boundMessages(r io.ReadCloser, w io.WriteCloser, limit int) {
	defer r.Close()
	defer w.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	var msg, head, tail []byte
	over, drop, checked := false, false, false
	for {
		chunk, err := br.ReadSlice(0)
		if !checked && (len(msg)+len(chunk) >= dropCheck || err != bufio.ErrBufferFull) {
			checked = true
			if !over && dropped(firstBytes(append(msg, chunk...), dropCheck)) {
				drop, msg = true, msg[:0]
			}
		}
		switch {
		case drop:
		case over:
			tail = lastBytes(append(tail, chunk...), 512)
		case len(msg)+len(chunk) > limit+1:
			over = true
			head = append(head[:0], firstBytes(append(msg, chunk...), 8<<10)...)
			tail = lastBytes(append(msg, chunk...), 512)
			msg = nil
		default:
			msg = append(msg, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return
		}
		checked = false
		if drop {
			drop = false
			continue
		}
		out := msg
		if over {
			out = replacement(head, tail)
			over, tail = false, tail[:0]
		}
		if _, err := w.Write(out); err != nil {
			return
		}
		if cap(msg) > 1<<20 {
			msg = nil // a big message's buffer is not kept
		} else {
			msg = msg[:0]
		}
	}
}

// dropCheck is how many bytes of a message are read to know its method.
const dropCheck = 128

// droppedEvents are the events never handed on.
var droppedEvents = [][]byte{
	[]byte(`{"method":"Runtime.consoleAPICalled"`),
	[]byte(`{"method":"Runtime.exceptionThrown"`),
	[]byte(`{"method":"Runtime.exceptionRevoked"`),
	[]byte(`{"method":"Log.entryAdded"`),
}

// dropped reports whether the message that starts with b is one of
// droppedEvents.
func dropped(b []byte) bool {
	for _, p := range droppedEvents {
		if bytes.HasPrefix(b, p) {
			return true
		}
	}
	return false
}

// firstBytes is at most the first n bytes of b.
func firstBytes(b []byte, n int) []byte { return b[:min(n, len(b))] }

// lastBytes is at most the last n bytes of b, copied when cut.
func lastBytes(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	return append([]byte(nil), b[len(b)-n:]...)
}

// The parts of a message that its replacement keeps.
var (
	reID        = regexp.MustCompile(`^\{"id":(\d+),`)
	reMethod    = regexp.MustCompile(`"method":"([A-Za-z]+\.[A-Za-z]+)"`)
	reRequestID = regexp.MustCompile(`"requestId":"([^"\\]{1,128})"`)
	reSession   = regexp.MustCompile(`"sessionId":"([0-9A-Za-z]{1,128})"`)
)

// replacement is the short message that stands for one over the bound.
func replacement(head, tail []byte) []byte {
	session := ""
	if m := reSession.FindAllSubmatch(tail, -1); len(m) > 0 {
		session = fmt.Sprintf(`,"sessionId":%q`, m[len(m)-1][1])
	}
	if m := reID.FindSubmatch(head); m != nil {
		return fmt.Appendf(nil, `{"id":%s,"error":{"code":-32000,"message":"the message was over the bound of %d MiB"}%s}`+"\x00", m[1], MaxMessageBytes>>20, session)
	}
	m := reMethod.FindSubmatch(head)
	if m == nil {
		return nil
	}
	switch string(m[1]) {
	case "Fetch.requestPaused":
		if id := reRequestID.FindSubmatch(head); id != nil {
			return fmt.Appendf(nil, `{"method":"Fetch.requestPaused","params":{"requestId":%q,"request":{"url":%q,"method":"GET","headers":{},"initialPriority":"Low","referrerPolicy":"no-referrer"},"frameId":"","resourceType":"Other"}%s}`+"\x00", id[1], oversized, session)
		}
	case "WebMCP.toolsAdded":
		return fmt.Appendf(nil, `{"method":"WebMCP.toolsAdded","params":{"oversized":true}%s}`+"\x00", session)
	}
	return nil
}
