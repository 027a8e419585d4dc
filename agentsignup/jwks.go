package agentsignup

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/weburl"
	"github.com/agentweb/agentweb/safefetch"
)

// maxJWKSBytes caps the body of a fetched JWK Set (64 KiB).
const maxJWKSBytes = 64 << 10

// maxJWKSKeys caps how many keys a JWK Set may hold.
const maxJWKSKeys = 64

// ErrPrivateKeyMaterial is returned by ParseJWKS for a set that carries a
// private or symmetric key member (d, p, q, dp, dq, qi, oth, k). A key set
// for verification is public, and one that is not is refused whole.
var ErrPrivateKeyMaterial = errors.New("agentsignup: JWK Set carries private key material")

// ErrJWKS is wrapped by every error of ParseJWKS other than
// ErrPrivateKeyMaterial.
var ErrJWKS = errors.New("agentsignup: invalid JWK Set")

// ParseJWKS reads a JWK Set (RFC 7517 Section 5) and returns its Ed25519
// verification keys (RFC 8037 Section 2: kty "OKP", crv "Ed25519", x the 32-byte
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
	// Client fetches the set. Nil means the client of the [Fetch] the set
	// serves (its FetchOptions.Client). So a key set built with nil
	// options reaches the same network as the documents it verifies.
	// Where no Fetch gives one, nil means safefetch.Default():
	// [JWKSKeySet.Refresh], or [Verifier.Verify] called directly.
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

// maxJWKSFetchTime bounds one fetch of a JWK Set, whoever waits for it.
const maxJWKSFetchTime = 30 * time.Second

// JWKSKeySet is a KeySet holding the keys of one issuer, fetched from a JWK
// Set URL through safefetch and cached. It is safe for concurrent use, and
// no lock is held across the network. One fetch runs at a time (single
// flight). Concurrent callers that need it wait for that fetch, each only
// as long as its own context allows. A fetch, once started, runs to its end
// even when the caller that started it stops waiting. It takes at most 30
// s, within the client's own limits. So the callers still waiting, and the
// next ones, get its keys.
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
	inflight  *jwksFlight // the fetch in progress, or nil
}

// jwksFlight is one fetch of the set; done is closed when it ends, after
// err is set.
type jwksFlight struct {
	done chan struct{}
	err  error
}

// NewJWKSKeySet returns a KeySet that trusts the keys published at jwksURL
// for issuer (an origin such as "https://agentregistrar.dev") and for no
// other issuer. Nothing is fetched until the first IssuerKeys call. jwksURL
// must pass safefetch.CheckURL.
func NewJWKSKeySet(issuer, jwksURL string, opts *JWKSOptions) (*JWKSKeySet, error) {
	if opts == nil {
		opts = &JWKSOptions{}
	}
	if err := safefetch.CheckURL(jwksURL, safefetch.OrDefault(opts.Client).AllowsLoopback()); err != nil {
		return nil, fmt.Errorf("agentsignup: JWKS URL: %w", err)
	}
	s := &JWKSKeySet{issuer: issuer, url: jwksURL, client: opts.Client, ttl: opts.TTL, minGap: opts.MinRefreshInterval, now: opts.Now}
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
// keys. It fetches them first when none are cached or they are older than
// the TTL. It also does when kid is not among them and the last fetch is
// older than MinRefreshInterval. For any other issuer it returns no key. An
// error means no usable keys could be obtained: the fetch failed, or ctx
// ended while waiting for it (the error then wraps ctx's). When fresh keys
// are cached and only an unknown kid asked for a fetch, those keys are
// returned whatever the fetch gives.
func (s *JWKSKeySet) IssuerKeys(ctx context.Context, issuer, kid string) ([]PublicKey, error) {
	return s.issuerKeys(ctx, nil, issuer, kid)
}

// issuerKeys is IssuerKeys for a [Fetch] whose client is via: a set built
// without a client fetches with via.
func (s *JWKSKeySet) issuerKeys(ctx context.Context, via *safefetch.Client, issuer, kid string) ([]PublicKey, error) {
	if issuer != s.issuer {
		return nil, nil
	}
	s.mu.Lock()
	now := s.now()
	fresh := !s.fetched.IsZero() && now.Before(s.fetched.Add(s.ttl))
	mayFetch := s.attempted.IsZero() || !now.Before(s.attempted.Add(s.minGap))
	if fresh {
		if kid == "" || hasKid(s.keys, kid) || !mayFetch {
			keys := s.keys
			s.mu.Unlock()
			return keys, nil
		}
		// An unknown kid may mean the issuer rotated its keys: refetch, and
		// keep the fresh keys if that fails.
		f := s.startLocked(ctx, via, now)
		s.mu.Unlock()
		_ = s.wait(ctx, f)
		return s.cached(), nil
	}
	if s.inflight == nil && !mayFetch && s.lastErr != nil {
		err := s.lastErr
		s.mu.Unlock()
		return nil, err // a failing source is asked at most once per interval
	}
	f := s.startLocked(ctx, via, now)
	s.mu.Unlock()
	if err := s.wait(ctx, f); err != nil {
		return nil, err
	}
	return s.cached(), nil
}

// Refresh fetches the set now, whatever the cache holds; when a fetch is
// already in progress, it waits for that one, as long as ctx allows.
func (s *JWKSKeySet) Refresh(ctx context.Context) error {
	s.mu.Lock()
	f := s.startLocked(ctx, nil, s.now())
	s.mu.Unlock()
	return s.wait(ctx, f)
}

// fetchCount reports how many fetches the set has made.
func (s *JWKSKeySet) fetchCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fetches
}

func (s *JWKSKeySet) cached() []PublicKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys
}

// startLocked returns the fetch in progress, or starts one. s.mu is held.
// The fetch keeps ctx's values but not its cancellation: it is bounded by
// maxJWKSFetchTime instead, so that one caller giving up does not fail the
// others.
func (s *JWKSKeySet) startLocked(ctx context.Context, via *safefetch.Client, now time.Time) *jwksFlight {
	if s.inflight != nil {
		return s.inflight
	}
	c := s.client
	if c == nil {
		c = safefetch.OrDefault(via)
	}
	f := &jwksFlight{done: make(chan struct{})}
	s.inflight = f
	s.attempted = now
	s.fetches++
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxJWKSFetchTime)
	go func() {
		defer cancel()
		keys, err := fetchJWKS(fctx, c, s.url)
		s.mu.Lock()
		if err != nil {
			s.lastErr = err
		} else {
			s.keys, s.fetched, s.lastErr = keys, now, nil
		}
		s.inflight = nil
		s.mu.Unlock()
		f.err = err
		close(f.done)
	}()
	return f
}

// wait waits for f to end or ctx to be done, whichever comes first.
func (s *JWKSKeySet) wait(ctx context.Context, f *jwksFlight) error {
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return fmt.Errorf("agentsignup: waiting for JWKS %s: %w", weburl.Redact(s.url), context.Cause(ctx))
	}
}

func fetchJWKS(ctx context.Context, c *safefetch.Client, u string) ([]PublicKey, error) {
	resp, _, err := c.GetDocument(ctx, u, &safefetch.DocumentRequest{
		Accept:       "application/jwk-set+json, application/json",
		MediaTypes:   []string{"application/jwk-set+json", "application/json"},
		MaxBodyBytes: maxJWKSBytes,
	})
	if err != nil {
		return nil, fmt.Errorf("agentsignup: fetch JWKS %s: %w", weburl.Redact(u), err)
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
