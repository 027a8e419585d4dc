package agentic

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestSpecLimitsAsDocumented holds SpecLimits to the values the doc of
// Limits states, the one place they are written down.
func TestSpecLimitsAsDocumented(t *testing.T) {
	assert.Equal(t, Limits{
		Resources: 40, APIs: 5, Operations: 160,
		URLLength: 2048, NameLength: 160, DescriptionLength: 600, TitleLength: 160,
		OpenAPIVersionLength: 32, PathLength: 512, OperationIDLength: 160, SummaryLength: 240,
		ProfileBytes: 64 << 10, TextBytes: 64 << 10, PublishedFileBytes: 64 << 10,
		Attempts: 22, Concurrency: 5, ResponseBytes: 1 << 20, TotalBytes: 8 << 20,
		Deadline: 40 * time.Second, DNSGrace: 5 * time.Second, Redirects: 3, AuditDocuments: 5,
	}, SpecLimits())
}
