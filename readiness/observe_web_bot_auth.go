package readiness

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
	"github.com/go-jose/go-jose/v4"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
)

// Web Bot Auth, as the IETF webbotauth working group's drafts define it
// (draft-meunier-webbotauth-httpsig-protocol, -httpsig-directory) and as
// cloudflare/web-bot-auth's test vectors exercise it.

// The tags of the two kinds of signature: a bot's request, and a key
// directory's response.
const (
	tagWebBotAuth = "web-bot-auth"
	tagDirectory  = "http-message-signatures-directory"
)

// sigAgentEntry is one member of a Signature-Agent header field: its
// label, its URI and how its keys are discovered ("directory", the
// default, "jwks_uri" or "cimd").
type sigAgentEntry struct{ label, uri, typ string }

// parseSignatureAgent reads a Signature-Agent header field: an RFC 9651
// dictionary of strings, each with an optional type parameter, or, from
// the earlier drafts, a single string item (label ""). A directory may be
// http or https; a jwks_uri or cimd entry is https only.
func parseSignatureAgent(v string) ([]sigAgentEntry, error) {
	check := func(uri, typ string) error {
		u, err := url.Parse(uri)
		switch {
		case err != nil || u.Host == "":
			return fmt.Errorf("%q is not an absolute URI", clip60(uri))
		case typ == "directory" && u.Scheme != "http" && u.Scheme != "https":
			return errors.New("a directory Signature-Agent uses http or https")
		case typ != "directory" && u.Scheme != "https":
			return fmt.Errorf("a %s Signature-Agent uses https", typ)
		}
		return nil
	}
	d, err := httpsfv.UnmarshalDictionary([]string{v})
	if err == nil && len(d.Names()) > 0 {
		var out []sigAgentEntry
		for _, label := range d.Names() {
			m, _ := d.Get(label)
			it, ok := m.(httpsfv.Item)
			uri, isStr := it.Value.(string)
			if !ok || !isStr {
				return nil, fmt.Errorf("%s: a Signature-Agent value is a string", label)
			}
			typ := "directory"
			if t, ok := it.Params.Get("type"); ok {
				tok, _ := t.(httpsfv.Token)
				typ = string(tok)
				if typ != "directory" && typ != "jwks_uri" && typ != "cimd" {
					return nil, fmt.Errorf("%s: unsupported Signature-Agent type %q", label, clip60(fmt.Sprint(t)))
				}
			}
			if err := check(uri, typ); err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			out = append(out, sigAgentEntry{label, uri, typ})
		}
		return out, nil
	}
	it, err2 := httpsfv.UnmarshalItem([]string{v})
	uri, isStr := it.Value.(string)
	if err2 != nil || !isStr {
		return nil, errors.New("neither a dictionary nor a string: not a Signature-Agent field")
	}
	if err := check(uri, "directory"); err != nil {
		return nil, err
	}
	return []sigAgentEntry{{"", uri, "directory"}}, nil
}

// parseBotRegistry reads a registry of Signature Agent Cards: one https
// URL a line, "#" starting a comment at the start of a line or after
// white space, blank lines ignored.
func parseBotRegistry(txt string) ([]string, error) {
	var out []string
	for i, line := range strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(txt), "\n") {
		for j := 0; j < len(line); j++ {
			if line[j] == '#' && (j == 0 || line[j-1] == ' ' || line[j-1] == '\t') {
				line = line[:j]
				break
			}
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		u, err := url.Parse(line)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			return nil, fmt.Errorf("registry line %d: registry entries must be https URLs", i+1)
		}
		out = append(out, line)
		if len(out) == maxDirectoryKeys {
			break
		}
	}
	return out, nil
}

// signatureAgentCardProblems validates a Signature Agent Card as
// cloudflare/web-bot-auth reads one. It is an object whose client_id (https)
// equals the card's URL when that is known. It has exactly one of jwks (a JWK
// Set of public keys) and jwks_uri (https). Its ips_uri is https, and its
// string fields are strings.
func signatureAgentCardProblems(v any, cardURL string) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return []string{"/: a signature agent card is an object"}
	}
	var out []string
	https := func(k string) string {
		s, isStr := m[k].(string)
		if _, has := m[k]; !has {
			return ""
		}
		u, err := url.Parse(s)
		if !isStr || err != nil || u.Scheme != "https" || u.Host == "" {
			out = append(out, "/"+k+": not an https URL")
		}
		return s
	}
	clientID := https("client_id")
	jwksURI := https("jwks_uri")
	https("ips_uri")
	for _, k := range []string{"client_name", "client_uri", "logo_uri"} {
		if _, has := m[k]; has && !isStringValue(m[k]) {
			out = append(out, "/"+k+": not a string")
		}
	}
	_, hasJWKS := m["jwks"]
	switch {
	case hasJWKS && jwksURI != "":
		out = append(out, "card must not contain both jwks and jwks_uri")
	case !hasJWKS && jwksURI == "":
		out = append(out, "card must contain either jwks or jwks_uri")
	case hasJWKS:
		set, _ := m["jwks"].(map[string]any)
		keys, ok := set["keys"].([]any)
		if !ok {
			out = append(out, "/jwks: not a JWK Set")
		}
		for i, k := range keys[:min(len(keys), maxDirectoryKeys)] {
			if why := jwkProblem(k); why != "" {
				out = append(out, fmt.Sprintf("/jwks/keys/%d: %s", i, why))
			}
		}
	}
	switch {
	case cardURL != "" && clientID == "":
		out = append(out, "client_id is required when card URL is known")
	case cardURL != "" && clientID != cardURL:
		out = append(out, "client_id must match the card URL")
	}
	return out
}

func isStringValue(v any) bool { _, ok := v.(string); return ok }

func clip60(s string) string { return shorten.Runes(clean(s), 60) }

// jwkThumbprint is a key's RFC 7638 thumbprint, base64url without padding:
// the keyid of a Web Bot Auth signature.
func jwkThumbprint(k *jose.JSONWebKey) (string, error) {
	t, err := k.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(t), nil
}

// httpSig is one signature of a message to verify (RFC 9421). It holds the
// label and the Signature-Input and Signature field values. It holds the
// authority the "@authority" component stands for, the Signature-Agent field
// when covered, and the tag expected.
type httpSig struct {
	label, input, signature, authority, signatureAgent, tag string
}

// verifyHTTPSig verifies sig by RFC 9421, at time now, with the first of keys
// whose thumbprint is its keyid. It builds the signature base of its covered
// components and "@signature-params". Those components are "@authority", with
// or without ;req, and "signature-agent", whole or one dictionary member by
// ;key. Then it checks Ed25519 or RSASSA-PSS with SHA-512 (RFC 9421 Section
// 3.3.1, Section 3.3.6). The tag must be the one expected, and now within
// created and expires. It returns the keyid verified.
func verifyHTTPSig(sig httpSig, keys []jose.JSONWebKey, now time.Time) (string, error) {
	in, err := httpsfv.UnmarshalDictionary([]string{sig.input})
	if err != nil {
		return "", errors.New("Signature-Input is not an RFC 9651 dictionary")
	}
	m, ok := in.Get(sig.label)
	il, isList := m.(httpsfv.InnerList)
	if !ok || !isList {
		return "", fmt.Errorf("no signature %q in Signature-Input", sig.label)
	}
	sd, err := httpsfv.UnmarshalDictionary([]string{sig.signature})
	if err != nil {
		return "", errors.New("Signature is not an RFC 9651 dictionary")
	}
	sm, _ := sd.Get(sig.label)
	sit, _ := sm.(httpsfv.Item)
	raw, isBytes := sit.Value.([]byte)
	if !isBytes {
		return "", fmt.Errorf("no signature %q in Signature", sig.label)
	}
	param := func(k string) any { v, _ := il.Params.Get(k); return v }
	if t, _ := param("tag").(string); t != sig.tag {
		return "", fmt.Errorf("tag %q, not %q", clip60(t), sig.tag)
	}
	created, _ := param("created").(int64)
	expires, _ := param("expires").(int64)
	if expires != 0 && now.Unix() > expires || created != 0 && now.Unix() < created-60 {
		return "", errors.New("outside its created and expires times")
	}
	var base strings.Builder
	for _, it := range il.Items {
		name, _ := it.Value.(string)
		id, err := httpsfv.Marshal(it)
		if err != nil {
			return "", errors.New("a component identifier does not serialize")
		}
		var value string
		switch name {
		case "@authority":
			value = strings.ToLower(sig.authority)
		case "signature-agent":
			value = strings.TrimSpace(sig.signatureAgent)
			if k, ok := it.Params.Get("key"); ok {
				d, err := httpsfv.UnmarshalDictionary([]string{sig.signatureAgent})
				if err != nil {
					return "", errors.New("Signature-Agent is not a dictionary, yet a member is covered")
				}
				mem, ok := d.Get(fmt.Sprint(k))
				if !ok {
					return "", fmt.Errorf("Signature-Agent has no member %q", clip60(fmt.Sprint(k)))
				}
				if value, err = httpsfv.Marshal(mem.(httpsfv.Item)); err != nil {
					return "", errors.New("a Signature-Agent member does not serialize")
				}
			}
		default:
			return "", fmt.Errorf("covers %s, which this verifier does not reconstruct", clip60(id))
		}
		fmt.Fprintf(&base, "%s: %s\n", id, value)
	}
	params := strings.TrimPrefix(strings.TrimSpace(sig.input), sig.label+"=")
	if i := strings.Index(params, ","); i >= 0 && len(in.Names()) > 1 {
		// The member alone, when the field holds several signatures.
		p, err := httpsfv.Marshal(il)
		if err != nil {
			return "", errors.New("the signature parameters do not serialize")
		}
		params = p
	}
	fmt.Fprintf(&base, "\"@signature-params\": %s", params)
	keyid, _ := param("keyid").(string)
	alg, _ := param("alg").(string)
	for _, k := range keys {
		tp, err := jwkThumbprint(&k)
		if err != nil || tp != keyid {
			continue
		}
		switch pub := k.Public().Key.(type) {
		case ed25519.PublicKey:
			if alg != "" && alg != "ed25519" {
				return "", fmt.Errorf("alg %q for an Ed25519 key", clip60(alg))
			}
			if !ed25519.Verify(pub, []byte(base.String()), raw) {
				return "", errors.New("the Ed25519 signature does not verify")
			}
		case *rsa.PublicKey:
			if alg != "" && alg != "rsa-pss-sha512" {
				return "", fmt.Errorf("alg %q for an RSA key", clip60(alg))
			}
			h := sha512.Sum512([]byte(base.String()))
			if rsa.VerifyPSS(pub, crypto.SHA512, h[:], raw, &rsa.PSSOptions{SaltLength: 64}) != nil {
				return "", errors.New("the RSA-PSS signature does not verify")
			}
		default:
			return "", errors.New("a key of a type this verifier does not use")
		}
		return keyid, nil
	}
	return "", fmt.Errorf("no key whose thumbprint is the keyid %q", clip60(keyid))
}

// webBotAuthMedia is the media type of a key directory.
const webBotAuthMedia = "application/http-message-signatures-directory+json"

// jwkPrivateMembers are the members of a private JWK (RFC 7518 Section 6.2.2,
// Section 6.3.2; RFC 8037 Section 2): a key directory publishes public keys only.
var jwkPrivateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// maxDirectoryKeys bounds the keys read from a directory.
const maxDirectoryKeys = 100

func observeWebBotAuth(s *scan) obsOutcome {
	f := s.obsGet(s.obsResolve("/.well-known/http-message-signatures-directory"), webBotAuthMedia)
	m, found, problems := jsonObject(f)
	var notes []string
	what := "a key directory"
	var keys []jose.JSONWebKey
	if m != nil {
		if mt, _ := f.mediaType(); mt != webBotAuthMedia {
			notes = append(notes, fmt.Sprintf("served as %q, not %s", mt, webBotAuthMedia))
		}
		set := any(m)
		_, isSet := m["keys"]
		_, hasJWKS := m["jwks"]
		_, hasURI := m["jwks_uri"]
		card := false
		if !isSet && (hasJWKS || hasURI || m["client_id"] != nil) {
			// A Signature Agent Card at the directory's place: validated as
			// cloudflare/web-bot-auth reads one, its keys from jwks.
			what, card = "a Signature Agent Card", true
			problems = append(problems, signatureAgentCardProblems(m, f.finalURL())...)
			set = m["jwks"]
			if hasURI {
				notes = append(notes, "the card names its keys by jwks_uri: not fetched")
			}
		}
		if set != nil {
			sm, _ := set.(map[string]any)
			list, ok := sm["keys"].([]any)
			switch {
			case !ok && isSet:
				problems = append(problems, `/keys: not an array (a JWK Set, RFC 7517 §5)`)
			case ok:
				valid := 0
				if len(list) > maxDirectoryKeys {
					notes = append(notes, fmt.Sprintf("read the first %d of %d keys", maxDirectoryKeys, len(list)))
					list = list[:maxDirectoryKeys]
				}
				for i, k := range list {
					jk, why := readJWK(k)
					if why != "" {
						if !card { // a card's keys were judged with it, at /jwks/keys
							problems = append(problems, fmt.Sprintf("/keys/%d: %s", i, why))
						}
						continue
					}
					valid++
					keys = append(keys, jk)
				}
				what += fmt.Sprintf(" with a JWK Set of %s, %d valid", plural.N(len(list), "key", "keys"), valid)
				if len(list) == 0 {
					problems = append(problems, "/keys: empty: no key to verify a signature with")
				}
			}
		}
		notes, problems = directorySignatures(f, keys, notes, problems)
	}
	out := docOutcome(f, found, what, problems, notes)
	out.expected = "a JWK Set (" + webBotAuthMedia + ") of public keys at /.well-known/http-message-signatures-directory (or a Signature Agent Card with jwks xor jwks_uri), its response signed by its own keys (RFC 9421, tag " + tagDirectory + ", keyid the key's RFC 7638 thumbprint)"
	out.meaning = meaning(out.status, "the site's own bots sign their requests, and servers can verify them with these keys", "the site publishes no keys for signed bot requests (nothing is lost unless it runs bots)")
	return out
}

// maxDirectorySignatures bounds the signatures of a directory response
// verified.
const maxDirectorySignatures = 5

// directorySignatures verifies the signatures of a directory response. By HTTP
// Message Signatures Directory, the directory is signed by its own keys. The
// tag is "http-message-signatures-directory", covering the request's
// "@authority". It gives a note for each signature that verifies and a problem
// for each that does not.
func directorySignatures(f *fetched, keys []jose.JSONWebKey, notes, problems []string) ([]string, []string) {
	input, signature := strings.Join(f.resp.Header.Values("Signature-Input"), ", "), strings.Join(f.resp.Header.Values("Signature"), ", ")
	if signature == "" || input == "" {
		return append(notes, "the response carries no Signature and Signature-Input (the directory draft has the directory signed by its own keys)"), problems
	}
	d, err := httpsfv.UnmarshalDictionary([]string{input})
	if err != nil {
		return notes, append(problems, "Signature-Input: not an RFC 9651 dictionary")
	}
	u, _ := url.Parse(f.url)
	for i, label := range d.Names() {
		if i == maxDirectorySignatures {
			notes = append(notes, fmt.Sprintf("verified the first %d signatures", maxDirectorySignatures))
			break
		}
		keyid, err := verifyHTTPSig(httpSig{label: label, input: input, signature: signature, authority: u.Host, tag: tagDirectory}, keys, time.Now())
		if err != nil {
			problems = append(problems, fmt.Sprintf("the response's signature %s: %s", clip60(label), clean(err.Error())))
			continue
		}
		notes = append(notes, fmt.Sprintf("the response's signature %s verifies with the directory's key %s", clip60(label), keyid))
	}
	return notes, problems
}

// jwkProblem validates one member of a JWK Set as a public key ([readJWK]).
// It returns "" when it is one.
func jwkProblem(v any) string {
	_, why := readJWK(v)
	return why
}

// readJWK reads one member of a JWK Set as a public key, with go-jose's reader
// (RFC 7517 Section 4, RFC 7518 Section 6, RFC 8037 Section 2). It returns the
// key, or why it is not one.
func readJWK(v any) (jose.JSONWebKey, string) {
	var k jose.JSONWebKey
	o, ok := v.(map[string]any)
	if !ok {
		return k, "not an object"
	}
	if str(o["kty"]) == "" {
		return k, `no "kty"`
	}
	for _, m := range jwkPrivateMembers {
		if _, ok := o[m]; ok {
			return k, fmt.Sprintf("a private or symmetric key member %q is published", m)
		}
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return k, "not a key"
	}
	if err := k.UnmarshalJSON(raw); err != nil {
		return k, "not a valid " + shorten.Runes(clean(str(o["kty"])), 20) + " key: " + shorten.Runes(clean(err.Error()), 120)
	}
	if !k.Valid() || !k.IsPublic() {
		return k, "not a valid public key"
	}
	return k, ""
}
