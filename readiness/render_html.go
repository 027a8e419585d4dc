package readiness

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"math"
)

// HTML renders the report as one self-contained HTML5 page: inline CSS, inline
// SVG and one small inline script. It has no external script, stylesheet, image
// or font, and no link out. A Content-Security-Policy in the page allows
// nothing else and no request. So it reads the same with scripts off, offline
// and on paper. The script only shows the "Copy prompt" buttons and copies a
// prompt to the clipboard on a click. Where the clipboard is refused, it
// selects the prompt. With scripts off the buttons stay hidden and every prompt
// is readable in a <details> element.
//
// The page shows a score gauge and what changed since the baseline (Baseline).
// When Trend is not nil, even empty (then one run), it shows the trend. That is
// an SVG chart of the score by date, with the changes since the previous run.
// Then comes the fix-first list: each entry links to its check and has its
// prompt for a coding agent, and one prompt covers all. There is one bar per
// section, and the ten requirements. Each check has a verdict badge, what to
// fix when the check says so, and its receipt in a <details> element. The
// unverified checks are listed apart. The observations beyond the method follow
// with their receipts, then the scan's scope and time. The numbers are those of
// [Report.JSON], rounded as the Markdown form rounds them. Every value read
// from a site is escaped by html/template.
func (r *Report) HTML() []byte {
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, r.htmlView()); err != nil {
		// The template is fixed and the view holds only strings and numbers;
		// an error here is a programming error.
		panic(fmt.Sprintf("readiness: render html: %v", err))
	}
	return buf.Bytes()
}

const (
	gaugeRadius = 52.0
	barRow      = 20 // height of one section bar row in the SVG
)

type htmlView struct {
	R            *Report
	Score        string
	Basis        string // what Score is a share of
	Ready        string
	GaugeDash    string
	GaugeGap     string
	GaugeColor   string
	ScannedAt    string
	BarsHeight   int
	Sections     []htmlSection
	Unverified   []string
	BudgetDetail string
	Fixes        []htmlFix
	Observations []htmlObservation
	// DevelopmentNotice is shown when R.Scope.Development is set.
	DevelopmentNotice string
	// OverCap is the notice of answers over the per-response cap, or "".
	OverCap    string
	AllPrompt  string
	Script     template.JS
	ScriptHash string
	Trend      bool
	TrendSVG   template.HTML
	SinceLast  *htmlDelta
	Baseline   *htmlDelta
}

// htmlDelta is a comparison as the page shows it.
type htmlDelta struct {
	C           *Comparison
	Before      string
	After       string
	Delta       string
	ReadyBefore string
	ReadyAfter  string
	From, To    string
	Sections    []struct{ Title, Delta string }
	Changes     []htmlChange
}

type htmlChange struct {
	CheckChange
	FromLabel, ToLabel string
}

func newHTMLDelta(c *Comparison) *htmlDelta {
	if c == nil {
		return nil
	}
	d := &htmlDelta{C: c, Before: oneDecimal(c.Before), After: oneDecimal(c.After), Delta: signed(c.Delta),
		ReadyBefore: readyWord(c.ReadyBefore), ReadyAfter: readyWord(c.ReadyAfter),
		From: c.From.Format("2006-01-02T15:04:05Z07:00"), To: c.To.Format("2006-01-02T15:04:05Z07:00")}
	for _, s := range sectionTable {
		d.Sections = append(d.Sections, struct{ Title, Delta string }{s.Title, signed(c.Sections[s.ID])})
	}
	for _, ch := range c.Changes {
		d.Changes = append(d.Changes, htmlChange{ch, stateLabel(ch.From), stateLabel(ch.To)})
	}
	return d
}

// copyScript is the page's one script: it shows the Copy prompt buttons
// and copies the prompt a button names, falling back to selecting it.
const copyScript = `(function(){
function select(el){var d=el.closest("details");if(d)d.open=true;var r=document.createRange();r.selectNodeContents(el);var s=window.getSelection();s.removeAllRanges();s.addRange(r);}
document.querySelectorAll("button[data-copy]").forEach(function(b){
var label=b.textContent;b.hidden=false;
b.addEventListener("click",function(){
var el=document.getElementById(b.getAttribute("data-copy"));if(!el)return;
var done=function(){b.textContent="Copied";b.setAttribute("data-copied","clipboard");setTimeout(function(){b.textContent=label;},2000);};
var fallback=function(){select(el);var ok=false;try{ok=document.execCommand("copy");}catch(e){}b.textContent=ok?"Copied":"Selected: press Ctrl+C";b.setAttribute("data-copied",ok?"command":"selected");};
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(el.textContent).then(done,fallback);}else{fallback();}
});
});
})();`

// copyScriptHash is the CSP source expression that allows copyScript.
var copyScriptHash = func() string {
	h := sha256.Sum256([]byte(copyScript))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}()

type htmlFix struct {
	F      FixItem
	Points string
}

type htmlObservation struct {
	O       Observation
	Receipt string
}

type htmlSection struct {
	S      SectionResult
	Y      int
	Score  string
	Basis  string
	BarW   string
	Checks []htmlCheck
}

type htmlCheck struct {
	C       CheckResult
	Verdict string
	Label   string
	Earned  string
	Weight  string
	Receipt string
}

func (r *Report) htmlView() htmlView {
	circ := 2 * math.Pi * gaugeRadius
	frac := math.Max(0, math.Min(1, r.Score/100))
	v := htmlView{
		R:                 r,
		Score:             oneDecimal(r.Score),
		Basis:             r.scoreBasis(),
		Ready:             readyWord(r.Ready),
		GaugeDash:         fmt.Sprintf("%.2f", circ*frac),
		GaugeGap:          fmt.Sprintf("%.2f", circ),
		GaugeColor:        scoreColor(frac),
		ScannedAt:         r.ScannedAt.Format("2006-01-02T15:04:05Z07:00"),
		DevelopmentNotice: developmentNotice,
		OverCap:           r.overCapNotice(),
		Unverified:        r.Unverified,
		AllPrompt:         string(r.Prompt()),
		Script:            template.JS(copyScript),
		ScriptHash:        copyScriptHash,
		Trend:             r.Trend != nil,
		SinceLast:         newHTMLDelta(r.sinceLast()),
		Baseline:          newHTMLDelta(r.Baseline),
	}
	if v.Trend {
		// trendSVG writes numbers and dates only.
		v.TrendSVG = template.HTML(trendSVG(r.trendRuns()))
	}
	b := r.Scope.Budget
	v.BudgetDetail = fmt.Sprintf("%d of %d attempts, %d of %d bytes, peak concurrency %d", b.Attempts, b.MaxAttempts, b.Bytes, b.MaxBytes, b.PeakConcurrency)
	if b.Exhausted != "" {
		v.BudgetDetail += ", exhausted: " + b.Exhausted
	}
	for _, s := range r.Sections {
		hs := htmlSection{S: s, Y: barRow * len(v.Sections), Score: sectionScoreText(s), Basis: sectionBasis(s), BarW: "0"}
		if s.Scored && s.Points > 0 {
			hs.BarW = fmt.Sprintf("%.1f", 200*s.Score/s.Points)
		}
		for _, c := range r.checksOf(s.ID) {
			hs.Checks = append(hs.Checks, htmlCheck{
				C: c, Verdict: string(c.Verdict), Label: verdictLabel(c.Verdict),
				Earned: points(c.Earned), Weight: points(c.Weight), Receipt: receiptText(c),
			})
		}
		v.Sections = append(v.Sections, hs)
	}
	v.BarsHeight = barRow * len(v.Sections)
	for _, f := range r.Fixes {
		v.Fixes = append(v.Fixes, htmlFix{F: f, Points: oneDecimal(f.Points)})
	}
	for _, o := range r.Observations {
		v.Observations = append(v.Observations, htmlObservation{O: o, Receipt: observationReceipt(o)})
	}
	return v
}

func scoreColor(frac float64) string {
	switch {
	case frac >= 0.9:
		return "#0a7d32"
	case frac >= 0.5:
		return "#b35c00"
	}
	return "#c5221f"
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '{{.ScriptHash}}'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agent readiness: {{.R.Site}}</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#fff;margin:0 auto;max-width:60rem;padding:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin:2rem 0 .5rem;border-bottom:1px solid #ddd}
.summary{display:flex;gap:2rem;align-items:center;flex-wrap:wrap}
.meta{color:#555;margin:0}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #eee;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:0 .5rem;border-radius:.75rem;font-size:.8rem;font-weight:600;border:1px solid currentColor}
.v-pass{color:#0a7d32}.v-partial{color:#b35c00}.v-fail{color:#c5221f}.v-unverified{color:#5b3cc4}.v-not_applicable,.v-optional{color:#555}
.ready{font-size:1.1rem;font-weight:700}
details{margin:.25rem 0 .75rem}.fix{margin:.25rem 0}summary{cursor:pointer}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5rem;border-radius:4px;font-size:.8rem}
ul.reqs{list-style:none;padding:0}ul.reqs li{margin:.25rem 0}
button.copy{font:inherit;font-size:.8rem;padding:.1rem .6rem;margin:.25rem .5rem .25rem 0;border:1px solid #3367d6;border-radius:4px;background:#fff;color:#3367d6;cursor:pointer}
details.prompt pre{max-height:20rem;overflow:auto}
svg.trend{max-width:100%;height:auto}
table.deltas td,table.deltas th{text-align:center}
@media print{button.copy,details.prompt{display:none}body{max-width:none;padding:0}details{break-inside:avoid}details::details-content{content-visibility:visible;display:block}summary{display:none}h2{break-after:avoid}}
</style>
</head>
<body>
<header>
<h1>Agent readiness: {{.R.Site}}</h1>
{{if .R.Scope.Development}}<p class="development"><strong>{{.DevelopmentNotice}}</strong></p>
{{end}}{{if .OverCap}}<p class="development" id="over-cap"><strong>{{.OverCap}}</strong></p>
{{end}}<p class="meta">Method {{.R.Method}} · scanned at <time datetime="{{.ScannedAt}}">{{.ScannedAt}}</time></p>
</header>
<section class="summary" aria-label="Summary">
<svg width="140" height="140" viewBox="0 0 140 140" role="img" aria-label="Score {{.Score}} of 100">
<circle cx="70" cy="70" r="52" fill="none" stroke="#e6e6e6" stroke-width="14"/>
<circle cx="70" cy="70" r="52" fill="none" stroke="{{.GaugeColor}}" stroke-width="14" stroke-dasharray="{{.GaugeDash}} {{.GaugeGap}}" transform="rotate(-90 70 70)"/>
<text x="70" y="78" text-anchor="middle" font-size="26" font-weight="700" fill="#1b1b1b" id="total" data-score="{{.Score}}">{{.Score}}</text>
</svg>
<div>
<p class="ready" id="ready" data-ready="{{.R.Ready}}">{{.Ready}}</p>
<p class="meta">Score {{.Score}} of 100: {{.Basis}}</p>
</div>
<svg width="360" height="{{.BarsHeight}}" viewBox="0 0 360 {{.BarsHeight}}" role="img" aria-label="Section scores">
{{- range $s := .Sections}}
<g transform="translate(0 {{$s.Y}})"><text x="0" y="13" font-size="12" fill="#1b1b1b">{{$s.S.Title}}</text><rect x="80" y="3" width="200" height="12" fill="#e6e6e6"/><rect x="80" y="3" width="{{$s.BarW}}" height="12" fill="#3367d6"/><text x="288" y="13" font-size="12" fill="#1b1b1b">{{if $s.S.Scored}}{{$s.Score}} / {{$s.S.Points}}{{else}}does not apply{{end}}</text></g>
{{- end}}
</svg>
</section>
{{- with .Baseline}}
<h2 id="baseline">Since the baseline</h2>
{{template "delta" .}}
{{- end}}
{{- if .Trend}}
<h2 id="trend">Trend</h2>
{{.TrendSVG}}
{{- with .SinceLast}}
<h3>Since the previous run</h3>
{{template "delta" .}}
{{- end}}
{{- end}}
<h2 id="fix-first">Fix first</h2>
{{- if .Fixes}}
<p>Every check that leaves points and that the site can make pass, the most points first; points are the sections' points, as in the table below. Each has a prompt to hand to a coding agent.</p>
<p><button type="button" class="copy" data-copy="prompt-all" hidden>Copy all prompts</button></p>
<details class="prompt"><summary>One prompt for every fix</summary><pre id="prompt-all">{{.AllPrompt}}</pre></details>
<ol class="fixes">
{{- range .Fixes}}
<li class="fix-first" data-fix-check="{{.F.Check}}" data-points="{{.Points}}"><strong>+{{.Points}} points</strong> <a href="#check-{{.F.Check}}"><code>{{.F.Check}}</code></a>{{if .F.Requirement}} ({{.F.Requirement}}){{end}}: {{.F.Fix}}
<br><button type="button" class="copy" data-copy="prompt-{{.F.Check}}" hidden>Copy prompt</button>
<details class="prompt"><summary>Prompt for a coding agent</summary><pre id="prompt-{{.F.Check}}">{{.F.Prompt}}</pre></details></li>
{{- end}}
</ol>
{{- else}}
<p>Nothing: no check leaves points.</p>
{{- end}}
<h2>Sections</h2>
<table>
<thead><tr><th>Section</th><th class="num">Score</th><th class="num">Points</th></tr></thead>
<tbody>
{{- range .Sections}}
<tr class="section" data-section="{{.S.ID}}" data-score="{{.Score}}"><td><a href="#section-{{.S.ID}}">{{.S.Title}}</a></td><td class="num">{{.Score}}</td><td class="num">{{.S.Points}}</td></tr>
{{- end}}
</tbody>
</table>
<h2>Requirements</h2>
<ul class="reqs">
{{- range .R.Requirements}}
<li class="requirement" data-requirement="{{.ID}}" data-met="{{.Met}}"><span class="badge v-{{.Status}}">{{if .Met}}met{{else}}not met{{end}}</span> <strong>{{.ID}}</strong> {{.Text}} <span class="meta">({{.Status}}: {{.Why}})</span></li>
{{- end}}
</ul>
{{- range .Sections}}
<h2 id="section-{{.S.ID}}">{{.S.Title}} ({{.Score}} / {{.S.Points}})</h2>
<p class="meta">{{.S.Title}}: {{.Basis}}</p>
<table>
<thead><tr><th>Check</th><th>Requirement</th><th>Verdict</th><th class="num">Earned</th><th class="num">Weight</th></tr></thead>
<tbody>
{{- range .Checks}}
<tr class="check" id="check-{{.C.ID}}" data-check="{{.C.ID}}" data-verdict="{{.Verdict}}" data-earned="{{.Earned}}"><td><code>{{.C.ID}}</code><br>{{.C.Title}}</td><td>{{if .C.Requirement}}{{.C.Requirement}}{{else}}—{{end}}</td><td><span class="badge v-{{.Verdict}}">{{.Label}}</span></td><td class="num">{{.Earned}}</td><td class="num">{{.Weight}}</td></tr>
<tr><td colspan="5">{{if .C.Fix}}<p class="fix" data-fix="{{.C.ID}}"><strong>Fix:</strong> {{.C.Fix}}</p>{{end}}<details><summary>Receipt for {{.C.ID}}</summary><pre>{{.Receipt}}</pre></details></td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- if .Observations}}
<h2 id="observations">Observations beyond the method</h2>
<p>Facts other scanners report. They change no verdict, section, requirement or score.</p>
<table>
<thead><tr><th>Observation</th><th>Status</th><th>Text</th><th>Standing</th></tr></thead>
<tbody>
{{- range .Observations}}
<tr class="observation" id="observation-{{.O.ID}}" data-observation="{{.O.ID}}" data-status="{{.O.Status}}" data-found="{{.O.Found}}"><td><code>{{.O.ID}}</code><br>{{.O.Title}}</td><td>{{.O.Status}}</td><td>{{.O.Text.Title}}<br><span class="meta">{{.O.Text.URL}}</span></td><td>{{.O.Text.Status}}</td></tr>
<tr><td colspan="4"><p>{{.O.Meaning}}</p><details><summary>Receipt for {{.O.ID}}</summary><pre>{{.Receipt}}</pre></details></td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
<h2>Unverified</h2>
{{- if .Unverified}}
<p>These checks could not be answered. They keep their weight and earn nothing; they are neither passed nor failed.</p>
<ul>{{range .Unverified}}<li class="unverified"><a href="#check-{{.}}"><code>{{.}}</code></a></li>{{end}}</ul>
{{- else}}
<p>None: every check got an answer.</p>
{{- end}}
<h2>Scope</h2>
<p>Routes read:</p>
<ul>{{range .R.Scope.Routes}}<li><code>{{.}}</code></li>{{end}}</ul>
<p>Budget: {{.BudgetDetail}}.</p>
<script>{{.Script}}</script>
</body>
</html>
{{- define "delta"}}
<p class="delta" data-delta="{{.Delta}}">Score {{.Before}} → {{.After}} (<strong>{{.Delta}}</strong>), {{.ReadyBefore}} → {{.ReadyAfter}}, from <time datetime="{{.From}}">{{.From}}</time> to <time datetime="{{.To}}">{{.To}}</time>.</p>
<table class="deltas">
<thead><tr>{{range .Sections}}<th>{{.Title}}</th>{{end}}</tr></thead>
<tbody><tr>{{range .Sections}}<td>{{.Delta}}</td>{{end}}</tr></tbody>
</table>
{{- if .Changes}}
<table>
<thead><tr><th>Check</th><th>Requirement</th><th>Before</th><th>After</th><th>Change</th></tr></thead>
<tbody>
{{- range .Changes}}
<tr class="change" data-change="{{.Check}}" data-direction="{{.Direction}}"><td><a href="#check-{{.Check}}"><code>{{.Check}}</code></a></td><td>{{if .Requirement}}{{.Requirement}}{{else}}—{{end}}</td><td>{{.FromLabel}}</td><td>{{.ToLabel}}</td><td>{{.Direction}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p>No check changed.</p>
{{- end}}
{{- end}}
`))
