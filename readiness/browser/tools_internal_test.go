package browser

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWalkFramesBound: a page's frame tree is read at most 64 frames deep
// and up to about 4,096 frames, however the page nests them.
func TestWalkFramesBound(t *testing.T) {
	frame := func(i int) *page.FrameTree {
		return &page.FrameTree{Frame: &cdp.Frame{ID: cdp.FrameID(strconv.Itoa(i)), URL: fmt.Sprintf("https://shop.example/%d", i)}}
	}
	deep := frame(0)
	for i, t := 1, deep; i < 200; i++ {
		c := frame(i)
		t.ChildFrames = []*page.FrameTree{c}
		t = c
	}
	wide := frame(0)
	for i := 1; i < 10000; i++ {
		wide.ChildFrames = append(wide.ChildFrames, frame(i))
	}
	for _, tc := range []struct {
		name string
		tree *page.FrameTree
		want int
	}{
		{"nil", nil, 0},
		{"no frame", &page.FrameTree{ChildFrames: []*page.FrameTree{frame(1)}}, 1},
		{"one", frame(0), 1},
		{"200 deep", deep, 65}, // depths 0 to 64
		{"10,000 wide", wide, 4097},
	} {
		t.Run(tc.name, func(t *testing.T) {
			into := map[cdp.FrameID]string{}
			walkFrames(tc.tree, into, 0)
			assert.Len(t, into, tc.want)
		})
	}
	into := map[cdp.FrameID]string{}
	walkFrames(deep, into, 0)
	assert.Equal(t, "https://shop.example/64", into["64"])
}

// TestAddAndRemoveTools: a toolsAdded event is read tool by tool. One that
// does not decode is skipped and counted. At most maxTools are kept. A
// tool removed is found by its toolId, or by its name and frame.
func TestAddAndRemoveTools(t *testing.T) {
	tool := func(id, name, frame string) string {
		return fmt.Sprintf(`{"toolId":%q,"name":%q,"description":"d","frameId":%q}`, id, name, frame)
	}
	names := func(r *rendering) []string {
		var out []string
		for _, t := range r.tools {
			out = append(out, t.Name)
		}
		return out
	}
	r := &rendering{}
	r.addTools(jsonv2.Value(`{"tools":[` + tool("1", "a", "f") + `,{"name":7},` + tool("", "b", "f") + `,` + tool("", "b", "g") + `]}`))
	assert.Equal(t, []string{"a", "b", "b"}, names(r))
	assert.Equal(t, 1, r.badTools)
	assert.Equal(t, 1, r.toolEvents)
	require.Len(t, r.toolNotes(), 1)
	assert.Contains(t, r.toolNotes()[0], "1 tool that the browser reported could not be read (")
	assert.Contains(t, r.toolNotes()[0], "and was skipped")

	r.removeTools(jsonv2.Value(`{"tools":[{"toolId":"1"},{"name":"b","frameId":"g"}]}`))
	assert.Equal(t, []string{"b"}, names(r))
	assert.Equal(t, "f", string(r.tools[0].FrameID))

	r.addTools(jsonv2.Value(`{"tools":[],"oversized":true}`))
	r.addTools(jsonv2.Value(`not json`))
	assert.Equal(t, 3, r.badTools)
	assert.Contains(t, r.toolNotes()[0], "3 tools that the browser reported could not be read")
	assert.Contains(t, r.toolNotes()[0], "were skipped")

	many := make([]string, maxTools+5)
	for i := range many {
		many[i] = tool(strconv.Itoa(100+i), "t", "f")
	}
	r.addTools(jsonv2.Value(`{"tools":[` + strings.Join(many, ",") + `]}`))
	assert.Len(t, r.tools, maxTools)
	assert.Equal(t, 6, r.moreTools)
	assert.Contains(t, r.toolNotes()[1], "6 tools more than the renderer keeps (256)")
}

// TestToolsKeptAreCut: a tool is kept cut to what a Rendering reports. Its
// name, description and script URL hold at most maxToolTextBytes, an input
// schema over maxSchemaBytes is dropped, and the output schema is not kept.
// A tool whose name was cut is still found when the browser removes it.
func TestToolsKeptAreCut(t *testing.T) {
	long := strings.Repeat("n", maxToolTextBytes+100)
	desc := strings.Repeat("d", 1<<20)
	schema := `{"type":"object","description":"` + strings.Repeat("s", maxSchemaBytes) + `"}`
	script := "https://shop.example/app.js?" + strings.Repeat("q", 1<<20)
	r := &rendering{}
	r.addTools(jsonv2.Value(fmt.Sprintf(`{"tools":[
{"name":%q,"description":%q,"frameId":"f","inputSchema":%s,"outputSchema":%s,
 "stackTrace":{"callFrames":[{"functionName":"","scriptId":"1","url":"","lineNumber":0,"columnNumber":0},{"functionName":"","scriptId":"2","url":%q,"lineNumber":0,"columnNumber":0}]}},
{"name":"small","description":"A tool of a usual size.","frameId":"f","inputSchema":{"type":"object"}}]}`, long, desc, schema, schema, script)))
	require.Len(t, r.tools, 2)
	big := r.tools[0]
	assert.LessOrEqual(t, len(big.Name), maxToolTextBytes+len("…"))
	assert.True(t, strings.HasSuffix(big.Name, "…"))
	assert.LessOrEqual(t, len(big.Description), maxToolTextBytes+len("…"))
	assert.True(t, strings.HasPrefix(big.Description, "ddd"))
	assert.Nil(t, big.InputSchema, "a schema over maxSchemaBytes is not kept")
	assert.Nil(t, big.OutputSchema)
	require.NotNil(t, big.StackTrace)
	require.Len(t, big.StackTrace.CallFrames, 1)
	assert.LessOrEqual(t, len(big.StackTrace.CallFrames[0].URL), maxToolTextBytes+len("…"))
	assert.True(t, strings.HasPrefix(big.StackTrace.CallFrames[0].URL, "https://shop.example/app.js?"))

	rt := r.renderedTools(nil)
	require.Len(t, rt, 2)
	assert.Equal(t, big.StackTrace.CallFrames[0].URL, rt[0].Script)
	assert.Equal(t, "A tool of a usual size.", rt[1].Description, "a tool within the bounds is kept whole")
	assert.JSONEq(t, `{"type":"object"}`, string(rt[1].InputSchema))

	r.removeTools(jsonv2.Value(fmt.Sprintf(`{"tools":[{"name":%q,"frameId":"f"}]}`, long)))
	require.Len(t, r.tools, 1)
	assert.Equal(t, "small", r.tools[0].Name)
}
