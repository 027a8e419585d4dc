package agentweb_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/outsidemod"
)

// goBlocks returns the Go code blocks of the README (fenced ```go, a whole
// program with its own package clause left to TestReadmeProgramRuns) and
// of the root doc.go (tab-indented comment lines; a block of shell
// commands, whose lines start with "go ", is not Go).
func goBlocks(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for i, rest := 0, string(readme); ; i++ {
		_, after, ok := strings.Cut(rest, "```go\n")
		if !ok {
			break
		}
		code, tail, _ := strings.Cut(after, "\n```")
		rest = tail
		if !strings.HasPrefix(code, "package ") {
			out[fmt.Sprintf("README block %d", i+1)] = code
		}
	}
	src, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	var block []string
	flush := func() {
		if len(block) > 0 && !strings.HasPrefix(block[0], "go ") {
			out[fmt.Sprintf("doc.go block %d", len(out)+1)] = strings.Join(block, "\n")
		}
		block = nil
	}
	for _, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, "//\t"):
			block = append(block, strings.TrimPrefix(line, "//\t"))
		case line == "//" && len(block) > 0:
			block = append(block, "")
		default:
			flush()
		}
	}
	flush()
	return out
}

// snippetPreamble declares what the snippets take as given: a context, a
// document's bytes, a mux, a date, the site's own pages, a kit value.
const snippetPreamble = `package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/readiness/publish"
	"github.com/agentweb/agentweb/readiness/readinesstest"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

var (
	ctx            = context.Background()
	data           []byte
	mux            = http.NewServeMux()
	day            time.Time
	myPages, pages http.Handler
	site           publish.Site
)

var (
	_ = errors.New
	_ = fmt.Sprint
	_ = log.Fatal
	_ = os.WriteFile
	_ testing.TB
	_ = agentic.ParseSite
	_ = agentsignup.Parse
	_ = linkset.Parse
	_ = openagent.Parse
	_ = readiness.Scan
	_ = browser.New
	_ = mcpprobe.Probe
	_ = readinesstest.Scan
	_ = safefetch.New
	_ = fetchtest.New
)

func main() {}
`

// useDefined adds "_ = v" after every short variable declaration, so that
// a snippet that shows a result without using it still compiles.
func useDefined(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		b, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		var list []ast.Stmt
		for _, s := range b.List {
			list = append(list, s)
			a, ok := s.(*ast.AssignStmt)
			if !ok || a.Tok != token.DEFINE {
				continue
			}
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					list = append(list, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(id.Name)}})
				}
			}
		}
		b.List = list
		return true
	})
}

// TestDocSnippetsCompile compiles every Go snippet of the README and of
// the module's own godoc (doc.go) in a module of a user's, against this
// tree: a snippet that names a field, a method or a type that does not
// exist fails here, not in a reader's editor.
func TestDocSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	blocks := goBlocks(t)
	require.NotEmpty(t, blocks)
	var src bytes.Buffer
	src.WriteString(snippetPreamble)
	keys := slices.Sorted(maps.Keys(blocks))
	for i, name := range keys {
		code := blocks[name]
		fmt.Fprintf(&src, "\n// %s\n", name)
		if strings.HasPrefix(code, "func ") {
			src.WriteString(code + "\n")
			continue
		}
		fmt.Fprintf(&src, "func snippet%d() {\n%s\n}\n", i, code)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src.Bytes(), parser.ParseComments)
	require.NoError(t, err, "a snippet does not parse:\n%s", src.String())
	useDefined(f)
	var out bytes.Buffer
	require.NoError(t, format.Node(&out, fset, f))

	m := outsidemod.New(t, ".")
	m.Write("main.go", out.Bytes())
	msg, err := m.Go("build", "-o", os.DevNull, ".")
	require.NoError(t, err, "%s\n%s", msg, out.String())
}

// The README and the module's godoc say the same of a nil Client: the
// shared safefetch.Default(), never a new client per call.
func TestNilClientDocumentedAlike(t *testing.T) {
	flat := func(path string) string {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		s := strings.ReplaceAll(string(b), "\n//", "")
		return strings.Join(strings.Fields(strings.ReplaceAll(s, "`", "")), " ")
	}
	assert.Contains(t, flat("doc.go"), "a nil *safefetch.Client means safefetch.Default()")
	assert.Contains(t, flat("README.md"), "a nil Client means safefetch.Default()")
	assert.NotContains(t, flat("doc.go"), "means safefetch.New(nil)")
}
