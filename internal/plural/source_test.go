package plural

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nounWithS is a noun written for one and many at once, "tool(s)": the
// shape N replaces.
var nounWithS = regexp.MustCompile(`[a-z]\(s\)`)

// TestNoMessageWritesANounForOneAndMany holds every string literal of the
// module's non-test code to counts that agree with their nouns: a message
// says "1 tool" or "3 tools", never "3 tool(s)". "http(s)" is a scheme, not
// a count.
func TestNoMessageWritesANounForOneAndMany(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s := strings.ReplaceAll(lit.Value, "http(s)", "")
			if nounWithS.MatchString(s) {
				found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, found, "write the count with plural.N (or a helper of the example's own) instead")
}
