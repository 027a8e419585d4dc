package webread

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReadJSONLDBoundsDepthAndNodes holds ReadJSONLD's "node count and
// depth are bounded": typed objects past maxLDDepth levels are not read,
// and no more than MaxJSONLDNodes nodes are kept.
func TestReadJSONLDBoundsDepthAndNodes(t *testing.T) {
	deep := strings.Repeat(`{"@type":"Thing","a":`, 40) + `1` + strings.Repeat(`}`, 40)
	r := ReadJSONLD([]string{deep})
	assert.Empty(t, r.ParseErrs)
	assert.Len(t, r.Nodes, maxLDDepth+1, "the levels 0 to maxLDDepth")

	many := "[" + strings.TrimSuffix(strings.Repeat(`{"@type":"Thing"},`, MaxJSONLDNodes+500), ",") + "]"
	r = ReadJSONLD([]string{many, many})
	assert.Equal(t, 2, r.Blocks)
	assert.Len(t, r.Nodes, MaxJSONLDNodes, "across blocks")
}
