// Package plural writes a count with its noun in English: "1 problem",
// "2 problems", "0 problems", so that no message of the module says
// "(1 problems)".
package plural

import "strconv"

// N returns n followed by one when n is 1, by many otherwise.
func N(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
