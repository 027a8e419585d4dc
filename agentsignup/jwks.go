package agentsignup

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/safefetch"
)

// maxJWKSBytes caps the body of a fetched JWK Set (64 KiB).
const maxJWKSBytes = 64 << 10

// maxJWKSKeys caps how many keys a JWK Set may hold.
const maxJWKSKeys = 64

// ErrPrivateKeyMaterial is returned by ParseJWKS for a set that carries a
// private or symmetric key member (d, p, q, dp, dq, qi, oth, k): a key set
// for verification is public, and one that is not is refused whole.
var ErrPrivateKeyMaterial = errors.New("agentsignup: JWK Set carries private key material")

// ErrJWKS is wrapped by every error of ParseJWKS other than
// ErrPrivateKeyMaterial.
var ErrJWKS = errors.New("agentsignup: invalid JWK Set")

// ParseJWKS reads a JWK Set (RFC 7517 §5) and returns its Ed25519
// verification keys (RFC 8037 §2: kty "OKP", crv "Ed25519", x the 32-byte
// public key). Keys of other types, keys whose use is not "sig" and keys
// whose alg is not "EdDSA" are skipped. A set with more than 64 keys, a
// malformed Ed25519 key or any private key member is refused.
func ParseJWKS(data []byte) ([]PublicKey, error) {
	if len(data) > maxJWKSBytes {
		return nil, fmt.Errorf("%w: %d bytes, over the %d-byte cap", ErrJWKS, len(data), maxJWKSBytes)
	}
	v, err := strictjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrJWKS, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: not a JSON object", ErrJWKS)
	}
	list, ok := obj["keys"].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: no keys array", ErrJWKS)
	}
	if len(list) > maxJWKSKeys {
		return nil, fmt.Errorf("%w: %d keys, over the cap of %d", ErrJWKS, len(list), maxJWKSKeys)
	}
	var out []PublicKey
	for i, e := range list {
		jwk, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: keys[%d] is not an object", ErrJWKS, i)
		}
		for _, m := range privateJWKMembers {
			if _, ok := jwk[m]; ok {
				return nil, fmt.Errorf("%w: keys[%d] has member %q", ErrPrivateKeyMaterial, i, m)
			}
		}
		kty, _ := jwk["kty"].(string)
		crv, _ := jwk["crv"].(string)
		if kty != "OKP" || crv != "Ed25519" {
			continue
		}
		if use, present := jwk["use"]; present && use != "sig" {
			continue
		}
		if alg, present := jwk["alg"]; present && alg != AttestationAlgorithm {
			continue
		}
		x, _ := jwk["x"].(string)
		pub, err := b64.DecodeString(x)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("%w: keys[%d] x is not a base64url 32-byte Ed25519 public key", ErrJWKS, i)
		}
		kid, _ := jwk["kid"].(string)
		out = append(out, PublicKey{KeyID: kid, Key: ed25519.PublicKey(pub)})
	}
	return out, nil
}

// JWKSOptions configures a JWKSKeySet. The zero value is ready to use.
type JWKSOptions struct {
	// Client fetches the set; nil means safefetch.Default().
	Client *safefetch.Client
	// TTL is how long fetched keys are used before the set is fetched
	// again; 0 means one hour.
	TTL time.Duration
	// MinRefreshInterval bounds refetching: a token with an unknown kid, or
	// a failed fetch, triggers a new fetch at most this often; 0 means one
	// minute.
	MinRefreshInterval time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// JWKSKeySet is a KeySet holding the keys of one issuer, fetched from a JWK
// Set URL through safefetch and cached. It is safe for concurrent use;
// concurrent callers share one fetch.
type JWKSKeySet struct {
	issuer, url string
	client      *safefetch.Client
	ttl, minGap time.Duration
	now         func() time.Time

	mu        sync.Mutex
	keys      []PublicKey
	fetched   time.Time // when keys were fetched
	attempted time.Time // last fetch attempt
	lastErr   error     // error of the last attempt, nil after a success
	fetches   int
}

// NewJWKSKeySet returns a KeySet that trusts the keys published at jwksURL
// for issuer (an origin such as "https://agentregistrar.dev") and for no
// other issuer. Nothing is fetched until the first IssuerKeys call. jwksURL
// must pass safefetch.CheckURL.
func NewJWKSKeySet(issuer, jwksURL string, opts *JWKSOptions) (*JWKSKeySet, error) {
	if opts == nil {
		opts = &JWKSOptions{}
	}
	c := safefetch.OrDefault(opts.Client)
	if err := safefetch.CheckURL(jwksURL, c.AllowsLoopback()); err != nil {
		return nil, fmt.Errorf("agentsignup: JWKS URL: %w", err)
	}
	s := &JWKSKeySet{issuer: issuer, url: jwksURL, client: c, ttl: opts.TTL, minGap: opts.MinRefreshInterval, now: opts.Now}
	if s.ttl <= 0 {
		s.ttl = time.Hour
	}
	if s.minGap <= 0 {
		s.minGap = time.Minute
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// IssuerKeys implements KeySet. For the set's issuer it returns the cached
// keys, fetching them first when none are cached or they are older than the
// TTL, or when kid is not among them and the last fetch is older than
// MinRefreshInterval. For any other issuer it returns no key. An error means
// no usable keys could be obtained.
func (s *JWKSKeySet) IssuerKeys(ctx context.Context, issuer, kid string) ([]PublicKey, error) {
	if issuer != s.issuer {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	fresh := !s.fetched.IsZero() && now.Before(s.fetched.Add(s.ttl))
	mayFetch := s.attempted.IsZero() || !now.Before(s.attempted.Add(s.minGap))
	if fresh {
		if kid == "" || hasKid(s.keys, kid) || !mayFetch {
			return s.keys, nil
		}
		// An unknown kid may mean the issuer rotated its keys: refetch, and
		// keep the fresh keys if that fails.
		_ = s.fetchLocked(ctx, now)
		return s.keys, nil
	}
	if !mayFetch && s.lastErr != nil {
		return nil, s.lastErr // a failing source is asked at most once per interval
	}
	if err := s.fetchLocked(ctx, now); err != nil {
		return nil, err
	}
	return s.keys, nil
}

// Refresh fetches the set now, whatever the cache holds.
func (s *JWKSKeySet) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetchLocked(ctx, s.now())
}

// fetchCount reports how many fetches the set has made.
func (s *JWKSKeySet) fetchCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

func (s *JWKSKeySet) fetchLocked(ctx context.Context, now time.Time) error {
	s.attempted = now
	s.fetches++
	keys, err := fetchJWKS(ctx, s.client, s.url)
	if err != nil {
		s.lastErr = err
		return err
	}
	s.keys, s.fetched, s.lastErr = keys, now, nil
	return nil
}

func fetchJWKS(ctx context.Context, c *safefetch.Client, u string) ([]PublicKey, error) {
	resp, _, err := c.GetDocument(ctx, u, &safefetch.DocumentRequest{
		Accept:       "application/jwk-set+json, application/json",
		MediaTypes:   []string{"application/jwk-set+json", "application/json"},
		MaxBodyBytes: maxJWKSBytes,
	})
	if err != nil {
		return nil, fmt.Errorf("agentsignup: fetch JWKS %s: %w", u, err)
	}
	keys, err := ParseJWKS(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("agentsignup: JWKS %s: %w", u, err)
	}
	return keys, nil
}

func hasKid(keys []PublicKey, kid string) bool {
	for _, k := range keys {
		if k.KeyID == kid {
			return true
		}
	}
	return false
}
