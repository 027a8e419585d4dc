package readiness

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// The JUnit XML elements this package writes, in the form CI systems read
// (Jenkins, GitLab, GitHub test reporters): testsuites, one testsuite,
// properties and test cases with failure, skipped and system-out.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Timestamp  string          `xml:"timestamp,attr"`
		Properties []junitProperty `xml:"properties>property"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitMessage `xml:"failure"`
		Skipped   *junitMessage `xml:"skipped"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitMessage struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",chardata"`
	}
)

// JUnit renders the report as JUnit XML for CI test reporters. It writes one
// test suite named after the site, with one test case per catalogue check (all
// 35, classname readiness.<section>). Each fail and partial is a failure: its
// message is the verdict and what was received, its text the receipt and the
// fix. Each not applicable, optional and unverified check is skipped, with the
// reason. Every other check passes. The suite's properties carry the score,
// readiness and the requirements not met. With a Baseline, they add the score
// before and the delta. Each changed check's test case then says in its
// system-out what it was.
func (r *Report) JUnit() ([]byte, error) {
	suite := junitSuite{Name: r.Site, Timestamp: r.ScannedAt.UTC().Format("2006-01-02T15:04:05")}
	prop := func(k, v string) { suite.Properties = append(suite.Properties, junitProperty{k, v}) }
	prop("score", oneDecimal(r.Score))
	prop("ready", fmt.Sprint(r.Ready))
	prop("method", r.Method)
	prop("unmet_requirements", strings.Join(r.unmet(), ","))
	changes := map[string]CheckChange{}
	if b := r.Baseline; b != nil {
		prop("baseline_score", oneDecimal(b.Before))
		prop("baseline_delta", signed(b.Delta))
		prop("baseline_worse", fmt.Sprint(b.Worse))
		for _, ch := range b.Changes {
			changes[ch.Check] = ch
		}
	}
	for _, c := range r.Checks {
		tc := junitCase{Name: c.ID, Classname: "readiness." + string(c.Section), Time: "0"}
		why := fmt.Sprintf("%s: %s", verdictLabel(c.Verdict), clean(c.Receipt.Received))
		switch c.Verdict {
		case VerdictFail, VerdictPartial:
			text := receiptText(c)
			if c.Fix != "" {
				text += "fix: " + clean(c.Fix) + "\n"
			}
			tc.Failure = &junitMessage{Message: why, Type: string(c.Verdict), Text: text}
			suite.Failures++
		case VerdictNotApplicable, VerdictOptional, VerdictUnverified:
			tc.Skipped = &junitMessage{Message: why}
			suite.Skipped++
		}
		if ch, ok := changes[c.ID]; ok {
			tc.SystemOut = "since the baseline: " + changeLine(ch) + "\n"
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests = len(suite.Cases)
	doc := junitSuites{Name: "agent readiness", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Suites: []junitSuite{suite}}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("readiness: encode junit: %w", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
