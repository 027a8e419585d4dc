// Command linkset validates and serves knowledge-linkset discovery
// documents (draft-besleaga-agentic-knowledge-wellknown-00), like the
// draft's validate-wellknown tool.
//
//	linkset [-strict] [-verify] [-dev] URL|FILE  validate one document
//	linkset -peer FILE FILE                      the mutual peer test (no network)
//	linkset serve [-addr 127.0.0.1:8080] DIR     serve DIR/.well-known/knowledge-linkset and DIR's files
//
// The validator prints a JSON report and exits 0 when the document
// conforms, 1 when it does not, and 2 on a usage or fetch error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/safefetch"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Exit(serve(os.Args[2:]))
	}
	os.Exit(validate(os.Args[1:]))
}

func validate(args []string) int {
	fs := flag.NewFlagSet("linkset", flag.ContinueOnError)
	strict := fs.Bool("strict", false, "also require canonical bytes and the reference validator's checks")
	verify := fs.Bool("verify", false, "retrieve the artefacts and verify their digests (URL only)")
	dev := fs.Bool("dev", false, "development mode: allow http to loopback addresses")
	peer := fs.Bool("peer", false, "the mutual peer test of Section 7.2 on two local files")
	if err := fs.Parse(args); err != nil || (*peer && fs.NArg() != 2) || (!*peer && fs.NArg() != 1) {
		fmt.Fprintln(os.Stderr, "usage: linkset [-strict] [-verify] [-dev] URL|FILE | linkset -peer FILE FILE | linkset serve DIR")
		return cli.ExitUsage
	}
	mode := linkset.ModePublisher
	if *strict {
		mode = linkset.ModeStrict
	}
	// The one shape every validator program prints; details holds the
	// form, and for a URL the retrieval and the artefacts' digests.
	vs, code, docs := []*cli.Validation{}, cli.ExitOK, []*linkset.Document{}
	for _, src := range fs.Args() {
		var v *cli.Validation
		var doc *linkset.Document
		if strings.HasPrefix(src, "https://") || strings.HasPrefix(src, "http://") {
			u, err := linkset.CanonicalURL(src, *dev)
			if err != nil {
				u = src // a document served at a path of the node's own choosing
			}
			client := safefetch.New(&safefetch.Options{AllowLoopback: *dev})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			f, err := linkset.Fetch(ctx, u, &linkset.FetchOptions{Client: client, Mode: mode})
			defer cancel()
			// A non-conformant document comes with a *ValidationError and
			// its report, which this program prints.
			if err != nil && !errors.Is(err, linkset.ErrInvalid) || f == nil || f.Report == nil {
				fmt.Fprintln(os.Stderr, err)
				return cli.ExitUsage
			}
			v, doc = cli.FromReport(src, f), f.Document
			if *verify {
				v.Details.(*cli.LinksetDetails).Artefacts = f.Verify(ctx, &linkset.VerifyOptions{Client: client})
			}
		} else {
			data, err := readFile(src)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return cli.ExitUsage
			}
			v = cli.ValidateLinkset(src, data, mode)
			doc, _ = linkset.Parse(data)
		}
		if vs, docs = append(vs, v), append(docs, doc); !v.Valid {
			code = cli.ExitInvalid
		}
	}
	out := any(vs[0])
	if *peer {
		m, err := linkset.MutualResult{}, fmt.Errorf("not both documents are link sets")
		if docs[0] != nil && docs[1] != nil {
			m, err = linkset.Mutual(docs[0], docs[1])
		}
		if vs[0].Details.(*cli.LinksetDetails).Peer, out = &m, vs; err != nil || !m.Mutual {
			code = cli.ExitInvalid
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if enc.Encode(out) != nil {
		return cli.ExitUsage
	}
	return code
}

// maxDocumentBytes is the size a client reads: one mebibyte (Section 7.1).
const maxDocumentBytes = 1 << 20

// evaluate parses data and evaluates it in mode; the document is nil when
// data is not a link set, and the report then lists why.
func evaluate(data []byte, mode linkset.Mode) (*linkset.Document, *linkset.Report) {
	doc, err := linkset.Parse(data)
	if err != nil {
		r := &linkset.Report{Form: linkset.FormNotConformant, Problems: []linkset.Problem{}, Notices: []linkset.Problem{}}
		if ve, ok := errors.AsType[*linkset.ValidationError](err); ok {
			r.Problems = ve.Problems
		}
		return nil, r
	}
	return doc, doc.Evaluate(mode)
}

// readFile reads a local discovery document, capped at the draft's size
// limit (Section 7.1).
func readFile(name string) ([]byte, error) {
	data, err := cli.ReadFile(name, maxDocumentBytes)
	if errors.Is(err, cli.ErrTooLarge) {
		err = fmt.Errorf("%s: larger than %d bytes (Section 7.1)", name, maxDocumentBytes)
	}
	return data, err
}

func serve(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: linkset serve [-addr host:port] DIR")
		return cli.ExitUsage
	}
	dir := fs.Arg(0)
	body, err := readFile(filepath.Join(dir, filepath.FromSlash(linkset.WellKnownPath)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitUsage
	}
	doc, r := evaluate(body, linkset.ModePublisher)
	if !r.Conformant() {
		for _, p := range r.Problems {
			fmt.Fprintln(os.Stderr, p)
		}
		return cli.ExitInvalid
	}
	h, err := linkset.Handler(doc, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitInvalid
	}
	mux := http.NewServeMux()
	mux.Handle(linkset.WellKnownPath, h)
	mux.Handle("/", linkset.CORS(http.FileServerFS(os.DirFS(dir))))
	srv := &http.Server{Addr: *addr, Handler: linkset.Advertise(mux), ReadHeaderTimeout: 10 * time.Second}
	log.Printf("serving %s on http://%s%s", dir, *addr, linkset.WellKnownPath)
	fmt.Fprintln(os.Stderr, srv.ListenAndServe())
	return cli.ExitUsage
}
