package service

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzSiteURL: whatever a stranger types, parseSite never panics, and what
// it accepts is an https URL (http only in development mode) with a host,
// no userinfo, within the length bound, whose history key and target are
// set; withoutUserinfo never leaves a password in what it shows again.
func FuzzSiteURL(f *testing.F) {
	for _, s := range []string{
		"https://shop.example/", "shop.example", "https://admin:hunter2@shop.example/", "https://127.0.0.1:8443/",
		"https://[::1]/", "http://localhost/", "//x", "https://a@b@c/", "https://shop.example:443/a?b#c",
		"https://xn--nxasmq6b.example/", "https://ÉCOLE.example/", "javascript:alert(1)", "\x00", "https://%41.example/",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, dev bool) {
		s := &Service{dev: dev}
		st, ref := s.parseSite(raw)
		if ref != nil {
			if ref.status < 400 || ref.code == "" || ref.msg == "" {
				t.Fatalf("refusal without status or reason: %+v", ref)
			}
			if u, err := url.Parse(raw); err == nil && u.User != nil {
				if pw, ok := u.User.Password(); ok && len(pw) >= 4 && strings.Contains(ref.msg, pw) {
					t.Fatalf("the refusal echoes the password %q: %s", pw, ref.msg)
				}
			}
		} else {
			u, err := url.Parse(st.URL)
			if err != nil || u.Host == "" || u.User != nil || st.Host == "" || st.Target == "" {
				t.Fatalf("accepted %q as %+v", raw, st)
			}
			if u.Scheme != "https" && !(dev && u.Scheme == "http") {
				t.Fatalf("accepted scheme %q", u.Scheme)
			}
			if len(st.URL) > 3*maxURLBytes {
				t.Fatalf("accepted %d bytes", len(st.URL))
			}
		}
		shown := withoutUserinfo(raw)
		if i := strings.Index(raw, "//"); i >= 0 && strings.Contains(raw[i:], "@") {
			rest := shown[strings.Index(shown, "//")+2:]
			if j := strings.IndexAny(rest, "/?#"); j >= 0 {
				rest = rest[:j]
			}
			if strings.Contains(rest, "@") {
				t.Fatalf("userinfo left in %q", shown)
			}
		}
	})
}

// FuzzMCPTargets: the JSON-RPC peek never panics and names at most eight
// targets.
func FuzzMCPTargets(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"scan_site","arguments":{"url":"https://a.example/"}}}`))
	f.Add([]byte(`[{"method":"tools/call","params":{"arguments":{"url":"x","site":"y","endpoint":"z"}}}]`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, _ := mcpTargets(data); len(got) > maxMCPTargets {
			t.Fatalf("%d targets", len(got))
		}
	})
}
