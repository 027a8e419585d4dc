package browser

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/webmcp"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/readiness"
)

// Bounds of one rendering besides [Options].
const (
	// maxTools bounds the tools a Rendering keeps.
	maxTools = 256
	// maxSchemaBytes bounds a tool's input schema kept.
	maxSchemaBytes = 16 << 10
	// maxToolTextBytes bounds a tool's name, description and script URL
	// kept. Past it each is cut, ending in "…".
	maxToolTextBytes = 16 << 10
)

// addTools reads one WebMCP.toolsAdded event tool by tool. A tool that
// does not decode (a description holding a lone surrogate, say) is skipped
// and counted. The others are kept.
func (r *rendering) addTools(raw jsonv2.Value) {
	var ev struct {
		Tools     []jsonv2.Value `json:"tools"`
		Oversized bool           `json:"oversized"`
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.toolEvents++
	r.lastBusy.Store(time.Now().UnixNano())
	if err := jsonv2.Unmarshal(raw, &ev, jsonv2.AllowInvalidUTF8(true)); err != nil {
		r.skipTool(err)
		return
	}
	if ev.Oversized {
		r.skipTool(fmt.Errorf("over the bound of %d MiB a DevTools message", MaxMessageBytes>>20))
		return
	}
	for _, v := range ev.Tools {
		if len(r.tools) >= maxTools {
			r.moreTools++
			continue
		}
		var t webmcp.Tool
		if err := jsonv2.Unmarshal(v, &t); err != nil {
			r.skipTool(err)
			continue
		}
		r.tools = append(r.tools, kept(&t))
	}
}

// kept is t cut to what a Rendering reports: a name, description and
// script URL of at most maxToolTextBytes, an input schema of at most
// maxSchemaBytes. So the tools kept hold at most maxTools times a few
// tens of KiB, however close to [MaxMessageBytes] each event the page sent.
func kept(t *webmcp.Tool) *webmcp.Tool {
	k := &webmcp.Tool{ToolID: t.ToolID, Name: shorten.Bytes(t.Name, maxToolTextBytes),
		Description: shorten.Bytes(t.Description, maxToolTextBytes), FrameID: t.FrameID, BackendNodeID: t.BackendNodeID}
	if len(t.InputSchema) <= maxSchemaBytes {
		k.InputSchema = t.InputSchema
	}
	if t.StackTrace != nil {
		for _, f := range t.StackTrace.CallFrames {
			if f != nil && f.URL != "" {
				k.StackTrace = &runtime.StackTrace{CallFrames: []*runtime.CallFrame{{URL: shorten.Bytes(f.URL, maxToolTextBytes)}}}
				break
			}
		}
	}
	return k
}

// skipTool counts a tool that did not decode; the caller holds r.mu.
func (r *rendering) skipTool(err error) {
	r.badTools++
	if r.badWhy == "" {
		r.badWhy = shorten.Bytes(err.Error(), 120)
	}
}

// removeTools reads one WebMCP.toolsRemoved event. Each tool removed is
// found by its toolId, or by its name and frame when the browser sends no
// toolId.
func (r *rendering) removeTools(raw jsonv2.Value) {
	var ev struct {
		Tools []struct {
			ToolID  string `json:"toolId"`
			Name    string `json:"name"`
			FrameID string `json:"frameId"`
		} `json:"tools"`
	}
	if jsonv2.Unmarshal(raw, &ev, jsonv2.AllowInvalidUTF8(true)) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, gone := range ev.Tools {
		name := shorten.Bytes(gone.Name, maxToolTextBytes) // as kept cut it
		for i, t := range r.tools {
			// Chromium 156 sends no toolId: a tool is its name in its
			// frame.
			same := gone.ToolID != "" && string(t.ToolID) == gone.ToolID ||
				gone.ToolID == "" && t.Name == name && string(t.FrameID) == gone.FrameID
			if same {
				r.tools = append(r.tools[:i], r.tools[i+1:]...)
				break
			}
		}
	}
}

// walkFrames maps every frame of the tree to its URL, at most 64 deep.
// It stops once it holds more than 4,096 frames.
func walkFrames(t *page.FrameTree, into map[cdp.FrameID]string, depth int) {
	if t == nil || depth > 64 || len(into) > 4096 {
		return
	}
	if t.Frame != nil {
		into[t.Frame.ID] = t.Frame.URL
	}
	for _, c := range t.ChildFrames {
		walkFrames(c, into, depth+1)
	}
}

// renderedTools lists the tools kept, each with its frame's URL from
// frames; the caller holds r.mu.
func (r *rendering) renderedTools(frames map[cdp.FrameID]string) []readiness.RenderedTool {
	var out []readiness.RenderedTool
	for _, t := range r.tools {
		rt := readiness.RenderedTool{Name: t.Name, Description: t.Description, Frame: frames[t.FrameID],
			Declarative: t.BackendNodeID != 0}
		if len(t.InputSchema) > 0 && len(t.InputSchema) <= maxSchemaBytes && json.Valid(t.InputSchema) {
			rt.InputSchema = json.RawMessage(append([]byte(nil), t.InputSchema...))
		}
		if !rt.Declarative && t.StackTrace != nil {
			for _, f := range t.StackTrace.CallFrames {
				if f.URL != "" {
					rt.Script = f.URL
					break
				}
			}
		}
		out = append(out, rt)
	}
	return out
}

// toolNotes says what tools were not read; the caller holds r.mu.
func (r *rendering) toolNotes() []string {
	var out []string
	if r.badTools > 0 {
		out = append(out, fmt.Sprintf("%s that the browser reported could not be read (%s) and %s skipped; the others were judged",
			plural.N(r.badTools, "tool", "tools"), r.badWhy, map[bool]string{true: "was", false: "were"}[r.badTools == 1]))
	}
	if r.moreTools > 0 {
		out = append(out, fmt.Sprintf("%s more than the renderer keeps (%d) were registered and not read", plural.N(r.moreTools, "tool", "tools"), maxTools))
	}
	return out
}
