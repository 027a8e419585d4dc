// Package cli is the command-line plumbing shared by the example programs
// under examples/: exit codes, flags mixed with positional arguments, JSON
// on standard output and capped reads of local files.
//
// It is not part of the agentweb SDK: it lives under examples/internal so
// that only the example commands can import it, and it imports no agentweb
// package.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit codes shared by the example commands. Each command documents which
// of them it uses and what they mean for it.
const (
	ExitOK      = 0 // success
	ExitInvalid = 1 // the input was read but is not acceptable
	ExitUsage   = 2 // usage error, unreadable file or a run that could not happen
	ExitNetwork = 3 // the network request failed or was refused (openagent)
)

// ErrTooLarge is what ReadFile's *TooLargeError unwraps to.
var ErrTooLarge = errors.New("cli: file too large")

// TooLargeError reports a file longer than the limit given to ReadFile.
type TooLargeError struct {
	Name  string // the file name as given
	Limit int64  // the limit in bytes
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Name, e.Limit)
}

// Unwrap returns ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// ReadFile reads the file name, reading at most limit+1 bytes: a longer
// file is refused with a *TooLargeError instead of being read whole.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return data, nil
}

// Parse parses args with fs, accepting flags before, between and after the
// positional arguments (the standard flag package stops at the first
// positional), and returns the positionals in order. A flag error is
// returned as fs.Parse returns it, after fs has reported it on its output.
func Parse(fs *flag.FlagSet, args []string) ([]string, error) {
	pos := []string{}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// Args returns exactly want positional arguments of a subcommand. With a
// nil fs the subcommand takes no flags and args are all positional. Flag
// errors and help are reported on stderr by fs; a wrong count prints usage
// on stderr. The boolean is false in both cases, and the caller exits with
// ExitUsage.
func Args(fs *flag.FlagSet, args []string, want int, stderr io.Writer, usage string) ([]string, bool) {
	pos := args
	if fs != nil {
		fs.SetOutput(stderr)
		var err error
		if pos, err = Parse(fs, args); err != nil {
			return nil, false
		}
	}
	if len(pos) != want {
		fmt.Fprint(stderr, usage)
		return nil, false
	}
	return pos, true
}

// Encode writes v to w as indented JSON followed by a newline, without
// escaping <, > and & (the output is read by people and programs, never
// embedded in HTML).
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Output is a command's name and standard streams, for the common endings
// of a subcommand: a JSON result with an exit code, or an error.
type Output struct {
	Name           string // the program name, prefixed to errors
	Stdout, Stderr io.Writer
}

// JSON writes v on Stdout with Encode and returns code, or reports the
// encoding error on Stderr and returns ExitUsage.
func (o Output) JSON(v any, code int) int {
	if err := Encode(o.Stdout, v); err != nil {
		return o.Fail(ExitUsage, err)
	}
	return code
}

// Fail prints "Name: err" on Stderr and returns code.
func (o Output) Fail(code int, err error) int {
	fmt.Fprintf(o.Stderr, "%s: %v\n", o.Name, err)
	return code
}
