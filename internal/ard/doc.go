// Package ard validates an AI catalog (ai-catalog.json) as Agentic Resource
// Discovery defines it. It applies the JSON Schema of the ARD
// specification, embedded. It applies the semantic rules of the
// specification's conformance test (conformance/bin/conformance-test,
// validate_manifest). Lighthouse 13.5.0's ard-schema audit runs the same
// rules. The scanner's ai_catalog observation reads a catalog with it, and
// the publish kit refuses to serve one it would not pass.
//
// [Validate] returns every finding, each an error or a warning with the
// RFC 6901 JSON Pointer of the value concerned. Lighthouse scores a
// catalog with errors 0 and one with warnings only 0.9.
//
// The schema (spec/schemas/ai-catalog.schema.json) is copied from
// https://github.com/ards-project/ard-spec at commit
// 5fa2f5aef790b478319f6a3b43adf4661b0ed0e0, under the Apache License 2.0;
// its $id is never fetched.
package ard
