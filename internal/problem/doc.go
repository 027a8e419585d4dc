// Package problem is the one conformance vocabulary of agentweb: the
// [Problem] every validator reports and the [ValidationError] that lists
// them. The spec packages (agentic, openagent, linkset, agentsignup) alias
// both types. So a program handles the findings of any of them with one
// function. Each package's constructor adds its own sentinel, so that
// errors.Is(err, linkset.ErrInvalid) still holds.
//
// Rules that mean the same thing have the same name in every package: the
// URL rules below ("url-userinfo", "url-https", ...), the JSON Schema rules
// "schema-<keyword>" and the strict JSON rules "json-*" of
// internal/strictjson. Each spec package re-exports the names it uses as
// its own Rule constants.
//
// The JSON form of a Problem is {"pointer", "rule", "message", "section",
// "severity"} in the module's one casing for result types, snake_case.
package problem
