package browser_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness/browser"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// TestHelperRenderUntilKilled is not a test: TestASignalLeavesNoDirectory
// runs the test binary with it as a process to kill while it renders.
func TestHelperRenderUntilKilled(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER_HELPER") != "1" {
		t.Skip("run by TestASignalLeavesNoDirectory")
	}
	b, err := browser.New(context.Background(), &browser.Options{Timeout: time.Minute})
	require.NoError(t, err)
	n := fetchtest.New()
	n.Site("shop.example", htmlPage(`<script>while (true) {}</script>`))
	time.AfterFunc(time.Second, func() { fmt.Println("rendering") })
	_, _ = b.Render(context.Background(), "https://shop.example/", n.Client())
}

// A process killed by SIGKILL or ended by SIGTERM while it renders leaves
// no Chromium process. The next New removes the directory it could not
// remove itself, and Chromium's own temporary files with it.
func TestASignalLeavesNoDirectory(t *testing.T) {
	needBrowser(t)
	chromiumTmp := func() int {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), ".org.chromium.*"))
		return len(m)
	}
	tmp0 := chromiumTmp()
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRenderUntilKilled$", "-test.count=1")
			cmd.Env = append(os.Environ(), "AGENTWEB_BROWSER_HELPER=1")
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line, _ := bufio.NewReader(out).ReadString('\n')
			require.Equal(t, "rendering\n", line)
			dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("agentweb-chromium-%d-*", cmd.Process.Pid)))
			require.Len(t, dirs, 1, "the helper's directory")
			require.NoError(t, cmd.Process.Signal(sig))
			_ = cmd.Wait()
			assert.True(t, eventually(func() bool { return len(processesWith(t, dirs[0])) == 0 }), "no Chromium process of the killed one is left")
			b, err := browser.New(context.Background(), nil)
			require.NoError(t, err)
			require.NoError(t, b.Close())
			_, err = os.Stat(dirs[0])
			assert.True(t, os.IsNotExist(err), "the next New removed %s", dirs[0])
		})
	}
	assert.Equal(t, tmp0, chromiumTmp(), "Chromium left no temporary directory of its own")
}
