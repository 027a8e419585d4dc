package plural

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
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

// minModuleFiles is fewer non-test Go files than the module holds. A lint
// that reads fewer has lost its way (a moved root, a wrong filter) and
// would pass on nothing.
const minModuleFiles = 200

// TestNoMessageWritesANounForOneAndMany holds every string literal of the
// module's non-test code to counts that agree with their nouns: a message
// says "1 tool" or "3 tools", never "3 tool(s)". "http(s)" is a scheme, not
// a count.
func TestNoMessageWritesANounForOneAndMany(t *testing.T) {
	found, err := lintCounts(filepath.Join("..", ".."), minModuleFiles)
	require.NoError(t, err)
	assert.Empty(t, found, "write the count with plural.N (or a helper of the example's own) instead")
}

// TestLintFailsWhenItReadsTooLittle: a lint that reads no file, or fewer
// than its floor, fails instead of passing on nothing; one that reads
// enough finds a noun written for one and many.
func TestLintFailsWhenItReadsTooLittle(t *testing.T) {
	empty := t.TempDir()
	_, err := lintCounts(empty, 1)
	assert.ErrorContains(t, err, "read 0 Go files")

	dir := t.TempDir()
	src := "package x\n\nvar a = \"3 tool(s)\"\nvar b = \"http(s) only\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package x\n\nvar c = \"1 file(s)\"\n"), 0o644))
	_, err = lintCounts(dir, 2)
	assert.ErrorContains(t, err, "read 1 Go files, fewer than 2")
	found, err := lintCounts(dir, 1)
	require.NoError(t, err)
	require.Len(t, found, 1, "the test file and the scheme are not counts")
	assert.Contains(t, found[0], `"3 tool(s)"`)
}

// lintCounts returns the string literals of the non-test Go files under
// root that write a noun for one and many at once. It fails when it reads
// fewer than floor files.
func lintCounts(root string, floor int) ([]string, error) {
	fset := token.NewFileSet()
	var found []string
	files := 0
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
		files++
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
	if err != nil {
		return nil, err
	}
	if files < floor {
		return nil, fmt.Errorf("read %d Go files, fewer than %d: the lint would pass on nothing", files, floor)
	}
	return found, nil
}
