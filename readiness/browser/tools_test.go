package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A tool whose description the browser reports with a lone surrogate
// (which does not decode) is skipped alone: the page's other tools are
// judged, and the receipt says one was skipped.
func TestAPoisonedToolHidesNoOther(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
const reg = (name, description) => document.modelContext.registerTool({name, description, inputSchema: {type: "object", properties: {}}, execute() {}});
reg("first_tool", "Find a product by its name.");
reg("poison", "Lone \ud800 surrogate.");
reg("last_tool", "Put a product in the cart.");
</script></body></html>`))
	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err)
	assert.Equal(t, []string{"first_tool", "last_tool"}, toolNames(r))
	require.Len(t, r.Notes, 1)
	assert.Contains(t, r.Notes[0], "1 tool that the browser reported could not be read")

	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, "the browser registered 2 tools")
	assert.Contains(t, strings.Join(c.Receipt.Notes, "\n"), "could not be read")
}

// A tool registered a second after the load is found: the rendering
// waits for the tools of a page that names document.modelContext.
func TestALateToolIsFound(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
addEventListener("load", () => setTimeout(() => document.modelContext.registerTool({name: "late_tool", description: "Registered a second after the load.", execute() {}}), 1000));
</script></body></html>`))
	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, `"late_tool" (imperative`)
}

// A tool registered after the rendering ended is still found in the
// script's text: what the static reading finds is never lost.
func TestATooLateToolIsReadFromTheScript(t *testing.T) {
	b := newBrowser(t, &browser.Options{Timeout: 4 * time.Second})
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>`+prose+`<script>
setTimeout(() => document.modelContext.registerTool({name: "very_late", description: "Registered a minute after the load.", execute() {}}), 60000);
</script></body></html>`))
	rep, _ := scanRendered(t, b, n)
	c := checkOf(rep, "page_actions_declared")
	assert.Equal(t, readiness.VerdictPass, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
	assert.Contains(t, c.Receipt.Received, "no tool registered")
}

// A tool the page unregisters is not listed; the others are.
func TestAnUnregisteredToolIsNotListed(t *testing.T) {
	b := newBrowser(t, nil)
	n := fetchtest.New()
	defer n.Close()
	n.Site("shop.example", htmlPage(`<!DOCTYPE html><html><body><h1>Shop</h1><script>
const mc = document.modelContext;
const gone = new AbortController();
mc.registerTool({name: "kept", description: "Stays.", execute() {}});
mc.registerTool({name: "gone", description: "Goes.", execute() {}}, {signal: gone.signal});
setTimeout(() => { gone.abort(); if (mc.unregisterTool) try { mc.unregisterTool("gone"); } catch (e) {} }, 100);
</script></body></html>`))
	r, err := b.Render(context.Background(), "https://shop.example/", n.Client())
	require.NoError(t, err)
	assert.Equal(t, []string{"kept"}, toolNames(r))
}

// toolNames lists the names of the tools r holds.
func toolNames(r *readiness.Rendering) []string {
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Name)
	}
	return names
}
