package fetchtest_test

import (
	"crypto/x509"

	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

func x509VerifyOptions(n *fetchtest.Network, name string) x509.VerifyOptions {
	return x509.VerifyOptions{Roots: n.Options().RootCAs, DNSName: name}
}
