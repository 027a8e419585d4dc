package readiness

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func paymentRequired(header, mt, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if header != "" {
			w.Header().Set("Payment-Required", header)
		}
		w.Header().Set("Content-Type", mt)
		w.WriteHeader(http.StatusPaymentRequired)
		fmt.Fprint(w, body)
	}
}

const x402V1 = `{"x402Version": 1, "error": "payment required", "accepts": [{"scheme": "exact", "network": "base-sepolia", "maxAmountRequired": "10000", "resource": "https://shop.example/products", "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "asset": "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "maxTimeoutSeconds": 60}]}`

// x402Cases are the cases of the x402 observation.
func x402Cases(t testing.TB) []observationCase {
	v2 := base64.StdEncoding.EncodeToString([]byte(`{"x402Version": 2, "resource": {"url": "https://shop.example/products"}, "accepts": [{"scheme": "exact", "network": "eip155:84532", "amount": "10000", "asset": "0x036C", "payTo": "0x2096", "maxTimeoutSeconds": 60}]}`))
	return []observationCase{
		{name: "x402: version 1 requirements in the body", id: "x402",
			paths: map[string]http.HandlerFunc{"/products": paymentRequired("", "application/json", x402V1)},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "https://shop.example/products: x402 version 1 payment requirements in the body (exact on base-sepolia)")
			}},
		{name: "x402: version 2 requirements in the header", id: "x402",
			paths: map[string]http.HandlerFunc{"/products": paymentRequired(v2, "text/html", "<!DOCTYPE html><p>Pay first.</p>")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Received, "x402 version 2 payment requirements in the PAYMENT-REQUIRED header (exact on eip155:84532)")
			}},
		{name: "x402: nothing asks for payment", id: "x402", want: ObservationAbsent},
		{name: "x402: a 402 without requirements", id: "x402",
			paths: map[string]http.HandlerFunc{"/products": paymentRequired("", "application/json", `{"x402Version": 1, "accepts": [{"scheme": "exact"}]}`)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "/accepts/0/payTo: missing")
			}},
		{name: "x402: a header that is not base64", id: "x402",
			paths: map[string]http.HandlerFunc{"/products": paymentRequired("%%%not base64%%%", "text/plain", "")},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, strings.Join(o.Receipt.Notes, "\n"), "the PAYMENT-REQUIRED header is not base64")
			}},
	}
}
