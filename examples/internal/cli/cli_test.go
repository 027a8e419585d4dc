package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArgs(t *testing.T) {
	tests := []struct {
		name    string
		noFlags bool
		args    []string
		want    int
		pos     []string
		out     string
		ok      bool
	}{
		{name: "flags after", args: []string{"a", "--out", "d"}, want: 1, pos: []string{"a"}, out: "d", ok: true},
		{name: "flags before", args: []string{"-out=d", "a"}, want: 1, pos: []string{"a"}, out: "d", ok: true},
		{name: "flags between", args: []string{"a", "-out", "d", "b"}, want: 2, pos: []string{"a", "b"}, out: "d", ok: true},
		{name: "too many", args: []string{"a", "b"}, want: 1},
		{name: "too few", args: nil, want: 1},
		{name: "unknown flag", args: []string{"a", "--bogus"}, want: 1},
		{name: "no flag set keeps dashes", noFlags: true, args: []string{"-x"}, want: 1, pos: []string{"-x"}, ok: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fs *flag.FlagSet
			var out *string
			if !tc.noFlags {
				fs = flag.NewFlagSet("t", flag.ContinueOnError)
				out = fs.String("out", "", "")
			}
			var stderr bytes.Buffer
			o := Output{Name: "t", Usage: "usage: t\n", Stdout: io.Discard, Stderr: &stderr}
			pos, ok := o.Args(fs, tc.args, tc.want)
			assert.Equal(t, tc.ok, ok)
			if !tc.ok {
				assert.NotEmpty(t, stderr.String())
				return
			}
			assert.Equal(t, tc.pos, pos)
			assert.Empty(t, stderr.String())
			if out != nil {
				assert.Equal(t, tc.out, *out)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(name, []byte("12345"), 0o644))

	data, err := ReadFile(name, 5)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(data))

	_, err = ReadFile(name, 4)
	var tl *TooLargeError
	require.ErrorAs(t, err, &tl)
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, name+" is larger than 4 bytes", err.Error())

	_, err = ReadFile(filepath.Join(dir, "missing"), 5)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestOutput(t *testing.T) {
	var stdout, stderr bytes.Buffer
	o := Output{Name: "prog", Stdout: &stdout, Stderr: &stderr}
	assert.Equal(t, ExitInvalid, o.JSON(map[string]string{"u": "https://a.example/?a=1&b=<2>"}, ExitInvalid))
	assert.Equal(t, "{\n  \"u\": \"https://a.example/?a=1&b=<2>\"\n}\n", stdout.String(), "indented, HTML left unescaped")

	o.Stdout = failWriter{}
	assert.Equal(t, ExitUsage, o.JSON(1, ExitOK), "an encoding failure is a usage-class exit")
	assert.True(t, strings.HasPrefix(stderr.String(), "prog: "), stderr.String())

	stderr.Reset()
	assert.Equal(t, ExitNetwork, o.Fail(ExitNetwork, io.ErrUnexpectedEOF))
	assert.Equal(t, "prog: unexpected EOF\n", stderr.String())
}

func TestDispatchAndFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	require.NoError(t, os.WriteFile(name, []byte(`{"a":1}`), 0o644))
	var stdout, stderr bytes.Buffer
	o := Output{Name: "prog", Usage: "usage: prog show FILE\n", Stdout: &stdout, Stderr: &stderr}
	show := func(args []string) int {
		file, data, ok := o.File(nil, args, 16)
		if !ok {
			return ExitUsage
		}
		return o.JSON(map[string]any{"file": file, "bytes": len(data)}, ExitOK)
	}
	cmds := map[string]func([]string) int{"show": show}

	assert.Equal(t, ExitOK, o.Dispatch([]string{"show", name}, cmds))
	assert.JSONEq(t, `{"file":"`+name+`","bytes":7}`, stdout.String())
	assert.Empty(t, stderr.String())

	// Help, as the flag package's conventions have it: the usage on
	// stdout, exit 0.
	for _, h := range []string{"-h", "-help", "--help", "help"} {
		stdout.Reset()
		assert.Equal(t, ExitOK, o.Dispatch([]string{h}, cmds), h)
		assert.Equal(t, "usage: prog show FILE\n", stdout.String(), h)
		assert.Empty(t, stderr.String(), h)
	}
	stdout.Reset()

	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no command", nil, "usage: prog show FILE\n"},
		{"unknown command", []string{"hide"}, "prog: unknown command \"hide\"\nusage: prog show FILE\n"},
		{"no file", []string{"show"}, "usage: prog show FILE\n"},
		{"missing file", []string{"show", filepath.Join(dir, "none")}, "prog: open " + filepath.Join(dir, "none")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout.Reset()
			stderr.Reset()
			assert.Equal(t, ExitUsage, o.Dispatch(tc.args, cmds))
			assert.True(t, strings.HasPrefix(stderr.String(), tc.stderr), stderr.String())
			assert.Empty(t, stdout.String())
		})
	}
	require.NoError(t, os.WriteFile(name, make([]byte, 17), 0o644))
	stderr.Reset()
	assert.Equal(t, ExitUsage, o.Dispatch([]string{"show", name}, cmds), "over the limit")
	assert.Equal(t, "prog: "+name+" is larger than 16 bytes\n", stderr.String())
}
