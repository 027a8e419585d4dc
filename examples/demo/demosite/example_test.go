package demosite_test

import (
	"context"
	"fmt"

	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/readiness"
)

// Start serves Example Shop on a fake internet; any client built from its
// network reaches it at https://shop.example/.
func ExampleStart() {
	site, err := demosite.Start(&demosite.Options{Defects: demosite.TwinsDiffer})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer site.Close()
	r, err := readiness.Scan(context.Background(), site.URL, &readiness.Options{Client: site.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range r.Checks {
		if c.Verdict == readiness.VerdictFail || c.Verdict == readiness.VerdictPartial {
			fmt.Println(c.ID, c.Verdict)
		}
	}
	// Output:
	// manifest_twins fail
}
