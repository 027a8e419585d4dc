// Package cli is the command-line plumbing shared by the example programs
// under examples/: exit codes, flags mixed with positional arguments, JSON
// on standard output and capped reads of local files.
//
// It is not part of the agentweb SDK: it lives under examples/internal so
// that only the example commands can import it, and it imports no agentweb
// package.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Exit codes shared by the example commands. Each command documents which
// of them it uses and what they mean for it.
const (
	ExitOK      = 0 // success
	ExitInvalid = 1 // the command ran but what it checked is not acceptable
	ExitUsage   = 2 // usage error, unreadable file or a run that could not happen
	ExitNetwork = 3 // the network request failed or was refused (openagent)
)

// Main is a command's main function. It calls run with a context that ends
// after timeout, the process's arguments after the program name, its
// standard output and error, and the zero value of C. A command's tests
// pass their own client there; nil means the command's default. Main exits
// with the code run returns.
func Main[C any](timeout time.Duration, run func(ctx context.Context, args []string, stdout, stderr io.Writer, client C) int) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	var zero C
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, zero)
	cancel()
	os.Exit(code)
}

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

// Encode writes v to w as indented JSON followed by a newline, without
// escaping <, > and & (the output is read by people and programs, never
// embedded in HTML).
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Output is a command's name, usage text and standard streams, for the
// common steps of a subcommand: its arguments, its input file, and its
// ending in a JSON result or an error.
type Output struct {
	Name           string // the program name, prefixed to errors
	Usage          string // printed on stderr for a wrong argument count; ends with a newline
	Stdout, Stderr io.Writer
}

// Dispatch runs the subcommand named by args[0] with the arguments after
// it. With no arguments it prints Usage, and with an unknown name an error
// and Usage, on Stderr and returns ExitUsage. A request for help as the
// flag package's conventions have it (-h, -help, --help) or the help
// command prints Usage on Stdout and returns ExitOK.
func (o Output) Dispatch(args []string, cmds map[string]func(args []string) int) int {
	if len(args) == 0 {
		fmt.Fprint(o.Stderr, o.Usage)
		return ExitUsage
	}
	if _, own := cmds[args[0]]; !own && IsHelp(args[0]) {
		fmt.Fprint(o.Stdout, o.Usage)
		return ExitOK
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(o.Stderr, "%s: unknown command %q\n%s", o.Name, args[0], o.Usage)
		return ExitUsage
	}
	return cmd(args[1:])
}

// IsHelp reports whether arg asks for help: "help", or -h, -help, --h or
// --help, the flag package's help flags.
func IsHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--h", "--help":
		return true
	}
	return false
}

// Args returns exactly want positional arguments of a subcommand, parsed
// with Parse. With a nil fs the subcommand takes no flags and args are all
// positional. Flag errors and help are reported on Stderr by fs; a wrong
// count prints Usage on Stderr. The boolean is false in both cases, and
// the caller exits with ExitUsage.
func (o Output) Args(fs *flag.FlagSet, args []string, want int) ([]string, bool) {
	pos := args
	if fs != nil {
		fs.SetOutput(o.Stderr)
		var err error
		if pos, err = Parse(fs, args); err != nil {
			return nil, false
		}
	}
	if len(pos) != want {
		fmt.Fprint(o.Stderr, o.Usage)
		return nil, false
	}
	return pos, true
}

// File is Args for a subcommand whose one positional argument is a file,
// followed by ReadFile with limit. A read error is reported on Stderr as
// by Fail; when ok is false the caller exits with ExitUsage.
func (o Output) File(fs *flag.FlagSet, args []string, limit int64) (name string, data []byte, ok bool) {
	pos, ok := o.Args(fs, args, 1)
	if !ok {
		return "", nil, false
	}
	data, err := ReadFile(pos[0], limit)
	if err != nil {
		o.Fail(ExitUsage, err)
		return "", nil, false
	}
	return pos[0], data, true
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
