package openagent

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPricingModelsAreTheSchemaEnum: the typed pricing models are exactly
// the enum of the embedded schema's pricing.model, and a parsed profile
// carries its model as a PricingModel equal to the constant.
func TestPricingModelsAreTheSchemaEnum(t *testing.T) {
	var schema struct {
		Properties struct {
			Pricing struct {
				Properties struct {
					Model struct {
						Enum []PricingModel `json:"enum"`
					} `json:"model"`
				} `json:"properties"`
			} `json:"pricing"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(schemaJSON, &schema))
	assert.ElementsMatch(t, []PricingModel{PricingFree, PricingPerTask, PricingHourly, PricingSubscription}, schema.Properties.Pricing.Properties.Model.Enum)

	for _, m := range schema.Properties.Pricing.Properties.Model.Enum {
		t.Run(string(m), func(t *testing.T) {
			doc := `{"type":"logicsrc.agent","version":"0.1","did":"research.example","name":"R","owner_did":"owner.example","skills":["s"],"permissions_requested":[],"pricing":{"model":"` + string(m) + `","amount":1,"currency":"USD"}}`
			p, err := Parse([]byte(doc))
			require.NoError(t, err)
			assert.Equal(t, m, p.Pricing.Model)
			out, err := json.Marshal(p.Pricing)
			require.NoError(t, err)
			assert.JSONEq(t, `{"model":"`+string(m)+`","amount":1,"currency":"USD"}`, string(out))
		})
	}
}
