package service

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stores runs f on a new SQLite file and, when AGENTWEB_POSTGRES is set,
// on a new PostgreSQL database.
func stores(t *testing.T, f func(t *testing.T, open func() Store)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "scans.db")
		f(t, func() Store {
			st, err := OpenSQLite(path)
			require.NoError(t, err)
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := PostgresDSN(t)
		f(t, func() Store {
			st, err := OpenPostgres(context.Background(), dsn)
			require.NoError(t, err)
			t.Cleanup(func() { st.Close() })
			return st
		})
	})
}

func queue(t *testing.T, st *sqlStore, site string) *scanRow {
	t.Helper()
	row := &scanRow{ID: newID(), Site: site, Host: hostOf(site), Target: hostOf(site), CreatedAt: time.Now()}
	ok, err := st.insert(context.Background(), row, 1000)
	require.NoError(t, err)
	require.True(t, ok)
	return row
}

func TestMigrations(t *testing.T) {
	stores(t, func(t *testing.T, open func() Store) {
		ctx := context.Background()
		st := open().db()
		// Opening again finds the schema current and changes nothing.
		again := open().db()
		var n int
		require.NoError(t, again.sql.QueryRowContext(ctx, `SELECT count(*) FROM agentweb_schema`).Scan(&n))
		assert.Equal(t, schemaVersion, n)

		// A database newer than the program is refused.
		_, err := st.sql.ExecContext(ctx, `INSERT INTO agentweb_schema (version) VALUES ($1)`, schemaVersion+1)
		require.NoError(t, err)
		_, err = again.migrateOne(ctx)
		require.ErrorIs(t, err, ErrStore)
		assert.ErrorContains(t, err, "newer than this program")
	})
}

func TestJobLifecycle(t *testing.T) {
	stores(t, func(t *testing.T, open func() Store) {
		ctx := context.Background()
		st := open().db()
		a := queue(t, st, "https://a.example/")

		// One scan of a site in flight: a second insert is refused.
		ok, err := st.insert(ctx, &scanRow{ID: newID(), Site: a.Site, Host: a.Host, Target: a.Target, CreatedAt: time.Now()}, 1000)
		require.NoError(t, err)
		assert.False(t, ok)
		// The queue bound.
		ok, err = st.insert(ctx, &scanRow{ID: newID(), Site: "https://b.example/", Host: "b.example", Target: "b.example", CreatedAt: time.Now()}, 1)
		require.NoError(t, err)
		assert.False(t, ok, "the queue holds one scan already")

		now := time.Now()
		job, err := st.claim(ctx, "one", now, now.Add(time.Minute))
		require.NoError(t, err)
		require.NotNil(t, job)
		assert.Equal(t, a.ID, job.ID)
		assert.Equal(t, 1, job.Runs)
		none, err := st.claim(ctx, "two", now, now.Add(time.Minute))
		require.NoError(t, err)
		assert.Nil(t, none, "a running scan is never claimed again")

		ok, err = st.renew(ctx, a.ID, "one", now.Add(2*time.Minute))
		require.NoError(t, err)
		assert.True(t, ok)
		ok, err = st.renew(ctx, a.ID, "two", now.Add(2*time.Minute))
		require.NoError(t, err)
		assert.False(t, ok, "only the owner renews")

		// Not the owner: nothing is written.
		ok, err = st.finish(ctx, "two", &scanRow{ID: a.ID, Status: statusDone, FinishedAt: now})
		require.NoError(t, err)
		assert.False(t, ok)
		out := &scanRow{ID: a.ID, Status: statusDone, FinishedAt: now, Report: `{}`, Summary: `{}`}
		out.Score.Float64, out.Score.Valid, out.Ready = 87.5, true, true
		ok, err = st.finish(ctx, "one", out)
		require.NoError(t, err)
		assert.True(t, ok)
		got, err := st.get(ctx, a.ID)
		require.NoError(t, err)
		assert.Equal(t, statusDone, got.Status)
		assert.Equal(t, 87.5, got.Score.Float64)
		assert.True(t, got.Ready)

		c, err := st.cached(ctx, a.Site, false, now.Add(-time.Second))
		require.NoError(t, err)
		require.NotNil(t, c)
		c, err = st.cached(ctx, a.Site, false, now.Add(time.Second))
		require.NoError(t, err)
		assert.Nil(t, c, "finished before the cache's time")
		_, err = st.get(ctx, newID())
		assert.ErrorIs(t, err, errNotFound)
	})
}

// TestInterruptedTwice: a scan whose lease runs out is queued again once;
// interrupted a second time, it fails with the reason.
func TestInterruptedTwice(t *testing.T) {
	stores(t, func(t *testing.T, open func() Store) {
		ctx := context.Background()
		st := open().db()
		a := queue(t, st, "https://a.example/")
		now := time.Now()
		for run := 1; run <= 2; run++ {
			job, err := st.claim(ctx, "dead", now, now.Add(time.Second))
			require.NoError(t, err)
			require.NotNil(t, job, "run %d", run)
			assert.Equal(t, run, job.Runs)
			// The lease has not run out: nothing happens.
			r, f, err := st.reap(ctx, now, now, false)
			require.NoError(t, err)
			assert.Zero(t, r+f)
			r, f, err = st.reap(ctx, now, now.Add(2*time.Second), false)
			require.NoError(t, err)
			if run == 1 {
				assert.Equal(t, [2]int{1, 0}, [2]int{r, f})
				got, _ := st.get(ctx, a.ID)
				assert.Equal(t, statusQueued, got.Status)
			} else {
				assert.Equal(t, [2]int{0, 1}, [2]int{r, f})
			}
		}
		got, err := st.get(ctx, a.ID)
		require.NoError(t, err)
		assert.Equal(t, statusFailed, got.Status)
		assert.Equal(t, codeInterrupted, got.ErrorCode)
		assert.Contains(t, got.Error, "interrupted twice")
		// The site may be scanned again.
		queue(t, st, a.Site)

		// A graceful release does not count the run.
		first, err := st.claim(ctx, "me", now, now.Add(time.Minute))
		require.NoError(t, err)
		require.NotNil(t, first)
		require.NoError(t, st.release(ctx, first.ID, "me"))
		second, err := st.claim(ctx, "me", now, now.Add(time.Minute))
		require.NoError(t, err)
		require.NotNil(t, second)
		assert.Equal(t, first.ID, second.ID)
		assert.Equal(t, first.Runs, second.Runs)
	})
}

// TestClaimsOnce: workers claiming concurrently get every job exactly once.
func TestClaimsOnce(t *testing.T) {
	stores(t, func(t *testing.T, open func() Store) {
		ctx := context.Background()
		st := open().db()
		other := open().db() // a second pool, as a second instance has
		const jobs = 60
		for i := range jobs {
			queue(t, st, "https://s"+strconv.Itoa(i)+".example/")
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for w := range 8 {
			s := st
			if w%2 == 1 {
				s = other
			}
			wg.Go(func() {
				for {
					now := time.Now()
					job, err := s.claim(ctx, "w"+strconv.Itoa(w), now, now.Add(time.Minute))
					if !assert.NoError(t, err) || job == nil {
						return
					}
					mu.Lock()
					seen[job.ID]++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		assert.Len(t, seen, jobs)
		for id, n := range seen {
			assert.Equal(t, 1, n, id)
		}
	})
}

func TestCounters(t *testing.T) {
	stores(t, func(t *testing.T, open func() Store) {
		ctx := context.Background()
		st := open().db()
		w := time.Now().Truncate(time.Hour)
		for want := 1; want <= 3; want++ {
			n, err := st.count(ctx, "k", w)
			require.NoError(t, err)
			assert.Equal(t, want, n)
		}
		require.NoError(t, st.uncount(ctx, "k", w))
		n, err := st.count(ctx, "k", w)
		require.NoError(t, err)
		assert.Equal(t, 3, n)
		n, err = st.count(ctx, "k", w.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 1, n, "a new window starts at one")
		require.NoError(t, st.prune(ctx, time.Now(), w.Add(time.Minute)))
		n, err = st.count(ctx, "k", w)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the old window was pruned")
	})
}

// TestSQLiteTakesBackOnOpen: a scan left running in a SQLite file by a
// process that died is queued again when the file is opened.
func TestSQLiteTakesBackOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scans.db")
	st, err := OpenSQLite(path)
	require.NoError(t, err)
	a := queue(t, st.db(), "https://a.example/")
	now := time.Now()
	_, err = st.db().claim(context.Background(), "dead", now, now.Add(time.Hour))
	require.NoError(t, err)
	require.NoError(t, st.Close())

	st, err = OpenSQLite(path)
	require.NoError(t, err)
	defer st.Close()
	got, err := st.db().get(context.Background(), a.ID)
	require.NoError(t, err)
	assert.Equal(t, statusQueued, got.Status)
	assert.Equal(t, 1, got.Runs)
}

// TestRerunCountsAgainstTarget: a scan taken back after an interruption
// is run again only within its target's limit; past it, it fails with the
// reason, and the site receives nothing more.
func TestRerunCountsAgainstTarget(t *testing.T) {
	st, err := OpenSQLite(":memory:")
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()
	a := queue(t, st.db(), "https://a.example/")
	now := time.Now()
	_, err = st.db().claim(ctx, "dead", now, now.Add(-time.Hour)) // a lease long run out
	require.NoError(t, err)
	limit := Limit{Count: 1, Window: time.Hour}
	_, err = st.db().count(ctx, "target:"+a.Target, now.Truncate(limit.Window)) // the scan's own count
	require.NoError(t, err)

	svc, err := New(ctx, &Options{Store: st, TargetLimit: limit, LeaseTTL: 100 * time.Millisecond, PollInterval: 20 * time.Millisecond})
	require.NoError(t, err)
	defer svc.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, err := st.db().get(ctx, a.ID)
		require.NoError(t, err)
		if got.Status == statusFailed {
			assert.Equal(t, codeTargetLimit, got.ErrorCode)
			assert.Contains(t, got.Error, "interrupted")
			return
		}
		require.True(t, time.Now().Before(deadline), "still %s", got.Status)
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDetachedWritesHaveADeadline: a store write made after its caller
// ended outlives the caller's cancellation but not storeWriteTimeout.
func TestDetachedWritesHaveADeadline(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	cancel()
	ctx, done := detached(parent)
	defer done()
	assert.NoError(t, ctx.Err(), "the caller's cancellation does not reach the write")
	deadline, ok := ctx.Deadline()
	require.True(t, ok, "the write has a deadline")
	assert.WithinDuration(t, time.Now().Add(storeWriteTimeout), deadline, time.Second)
}
