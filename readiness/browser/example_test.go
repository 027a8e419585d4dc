package browser_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
)

// Scan a site with its pages rendered in the system's Chromium: the Act
// checks are then judged on the tools Chromium registered.
func Example() {
	b, err := browser.New(context.Background(), nil)
	if errors.Is(err, browser.ErrNotFound) {
		log.Fatal("install Chromium first: apt-get install chromium")
	}
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	rep, err := readiness.Scan(context.Background(), "https://shop.example/", &readiness.Options{Renderer: b})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range rep.Checks {
		if c.ID == "page_actions_declared" {
			fmt.Println(c.Verdict, c.Receipt.Received)
		}
	}
}
