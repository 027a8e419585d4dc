package service

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/agentweb/agentweb/readiness"
)

// The statuses of a scan.
const (
	statusQueued  = "queued"
	statusRunning = "running"
	statusDone    = "done"
	statusFailed  = "failed"
)

// maxRuns is how many times one scan may be claimed: a scan interrupted
// once (its process died, its lease ran out) is queued again; interrupted
// a second time it fails with the reason.
const maxRuns = 2

// The error codes of a failed scan, and of the API's errors.
const (
	codeInterrupted = "interrupted"
	codeRefused     = "refused"
	codeInvalidURL  = "invalid_url"
	codeScanFailed  = "scan_failed"
	codeTargetLimit = "target_limit"
)

// scanRow is one scan as the store holds it.
type scanRow struct {
	ID, Site, Host, Target string
	Browser                bool
	Status                 string
	Runs                   int
	CreatedAt, StartedAt   time.Time
	FinishedAt             time.Time
	Score                  sql.NullFloat64
	Ready                  bool
	Summary                string
	Report                 string
	ErrorCode, Error       string
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

const scanColumns = `id, site, host, target, browser, status, runs, created_at, started_at, finished_at, score, ready, summary, report, error_code, error`

// scanColumnsLite is scanColumns without the report, for lists.
const scanColumnsLite = `id, site, host, target, browser, status, runs, created_at, started_at, finished_at, score, ready, summary, '', error_code, error`

type rowScanner interface{ Scan(dest ...any) error }

func scanOne(r rowScanner) (*scanRow, error) {
	var row scanRow
	var browser int
	var ready sql.NullInt64
	var created, started, finished int64
	if err := r.Scan(&row.ID, &row.Site, &row.Host, &row.Target, &browser, &row.Status, &row.Runs,
		&created, &started, &finished, &row.Score, &ready, &row.Summary, &row.Report, &row.ErrorCode, &row.Error); err != nil {
		return nil, err
	}
	row.Browser = browser != 0
	row.Ready = ready.Valid && ready.Int64 != 0
	row.CreatedAt, row.StartedAt, row.FinishedAt = fromMS(created), fromMS(started), fromMS(finished)
	return &row, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// errNotFound is returned by get for an unknown id.
var errNotFound = errors.New("service: no such scan")

// get returns one scan with its report.
func (s *sqlStore) get(ctx context.Context, id string) (*scanRow, error) {
	row, err := scanOne(s.sql.QueryRowContext(ctx, `SELECT `+scanColumns+` FROM scans WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, s.wrap("get scan", err)
	}
	return row, nil
}

// cached returns the newest finished scan of site (with browser mode or
// without) finished after since, or nil.
func (s *sqlStore) cached(ctx context.Context, site string, browser bool, since time.Time) (*scanRow, error) {
	row, err := scanOne(s.sql.QueryRowContext(ctx, `SELECT `+scanColumns+` FROM scans
WHERE site = $1 AND browser = $2 AND status = 'done' AND finished_at >= $3
ORDER BY finished_at DESC LIMIT 1`, site, b2i(browser), ms(since)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, s.wrap("cached scan", err)
	}
	return row, nil
}

// inFlight returns the queued or running scan of site, or nil.
func (s *sqlStore) inFlight(ctx context.Context, site string, browser bool) (*scanRow, error) {
	row, err := scanOne(s.sql.QueryRowContext(ctx, `SELECT `+scanColumnsLite+` FROM scans
WHERE site = $1 AND browser = $2 AND status IN ('queued', 'running') LIMIT 1`, site, b2i(browser)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, s.wrap("scan in flight", err)
	}
	return row, nil
}

// queued counts the scans waiting for a worker.
func (s *sqlStore) queued(ctx context.Context) (int, error) {
	var n int
	if err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM scans WHERE status = 'queued'`).Scan(&n); err != nil {
		return 0, s.wrap("count queued", err)
	}
	return n, nil
}

// insert queues row unless the queue already holds maxQueued scans or a
// scan of the same site is in flight; ok is false then.
func (s *sqlStore) insert(ctx context.Context, row *scanRow, maxQueued int) (ok bool, err error) {
	var id string
	err = s.sql.QueryRowContext(ctx, `INSERT INTO scans (id, site, host, target, browser, status, created_at)
SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), CAST($5 AS INTEGER), 'queued', CAST($6 AS BIGINT)
WHERE (SELECT count(*) FROM scans WHERE status = 'queued') < $7
ON CONFLICT DO NOTHING
RETURNING id`, row.ID, row.Site, row.Host, row.Target, b2i(row.Browser), ms(row.CreatedAt), maxQueued).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, s.wrap("queue scan", err)
	}
	return true, nil
}

// claim takes the oldest queued scan for owner, with a lease until
// leaseUntil, and counts the run; nil when the queue is empty.
func (s *sqlStore) claim(ctx context.Context, owner string, now, leaseUntil time.Time) (*scanRow, error) {
	row, err := scanOne(s.sql.QueryRowContext(ctx, `UPDATE scans
SET status = 'running', runs = runs + 1, lease_owner = $1, lease_until = $2, started_at = $3
WHERE status = 'queued' AND id = (SELECT id FROM scans WHERE status = 'queued' ORDER BY created_at, id LIMIT 1 `+s.dialect.skipLocked+`)
RETURNING `+scanColumnsLite, owner, ms(leaseUntil), ms(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, s.wrap("claim scan", err)
	}
	return row, nil
}

// renew extends owner's lease on a running scan; false when the lease is
// no longer owner's (it ran out and the scan was taken back).
func (s *sqlStore) renew(ctx context.Context, id, owner string, leaseUntil time.Time) (bool, error) {
	res, err := s.sql.ExecContext(ctx, `UPDATE scans SET lease_until = $1
WHERE id = $2 AND lease_owner = $3 AND status = 'running'`, ms(leaseUntil), id, owner)
	if err != nil {
		return false, s.wrap("renew lease", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// finish records the outcome of owner's run; false when the lease is no
// longer owner's, and then nothing is written.
func (s *sqlStore) finish(ctx context.Context, owner string, row *scanRow) (bool, error) {
	var score any
	var ready any
	if row.Score.Valid {
		score, ready = row.Score.Float64, b2i(row.Ready)
	}
	res, err := s.sql.ExecContext(ctx, `UPDATE scans
SET status = $1, score = $2, ready = $3, summary = $4, report = $5, error_code = $6, error = $7,
    finished_at = $8, lease_owner = '', lease_until = 0
WHERE id = $9 AND lease_owner = $10 AND status = 'running'`,
		row.Status, score, ready, row.Summary, row.Report, row.ErrorCode, row.Error, ms(row.FinishedAt), row.ID, owner)
	if err != nil {
		return false, s.wrap("finish scan", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// release puts owner's running scan back in the queue without counting
// the run (the service is closing and did not finish it).
func (s *sqlStore) release(ctx context.Context, id, owner string) error {
	_, err := s.sql.ExecContext(ctx, `UPDATE scans SET status = 'queued', runs = runs - 1, lease_owner = '', lease_until = 0
WHERE id = $1 AND lease_owner = $2 AND status = 'running'`, id, owner)
	if err != nil {
		return s.wrap("release scan", err)
	}
	return nil
}

// reap takes back the running scans whose lease ran out before the given
// time. When all is set it takes every running scan: the process that ran
// them is gone. A scan is re-queued after a first interruption, and
// failed with the reason (at now) after the second. It returns how many
// of each.
func (s *sqlStore) reap(ctx context.Context, now, before time.Time, all bool) (requeued, failed int, err error) {
	cutoff := ms(before)
	if all {
		cutoff = 1 << 62
	}
	reason := "the scan was interrupted twice (its process stopped while running it) and is not tried again"
	res, err := s.sql.ExecContext(ctx, `UPDATE scans
SET status = 'failed', error_code = $1, error = $2, finished_at = $3, lease_owner = '', lease_until = 0
WHERE status = 'running' AND lease_until < $4 AND runs >= $5`, codeInterrupted, reason, ms(now), cutoff, maxRuns)
	if err != nil {
		return 0, 0, s.wrap("fail interrupted scans", err)
	}
	f, _ := res.RowsAffected()
	res, err = s.sql.ExecContext(ctx, `UPDATE scans SET status = 'queued', lease_owner = '', lease_until = 0
WHERE status = 'running' AND lease_until < $1 AND runs < $2`, cutoff, maxRuns)
	if err != nil {
		return 0, int(f), s.wrap("re-queue interrupted scans", err)
	}
	r, _ := res.RowsAffected()
	return int(r), int(f), nil
}

// history returns the newest limit scans of host, newest first, without
// their reports.
func (s *sqlStore) history(ctx context.Context, host string, limit int) ([]*scanRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT `+scanColumnsLite+` FROM scans
WHERE host = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, host, limit)
	if err != nil {
		return nil, s.wrap("history", err)
	}
	defer rows.Close()
	var out []*scanRow
	for rows.Next() {
		row, err := scanOne(rows)
		if err != nil {
			return nil, s.wrap("history", err)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("history", err)
	}
	return out, nil
}

// addEvents appends progress events of a scan, numbered from first.
func (s *sqlStore) addEvents(ctx context.Context, id string, first int, data []string) error {
	if len(data) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO scan_events (scan_id, seq, data) VALUES `)
	args := make([]any, 0, 3*len(data))
	for i, d := range data {
		if i > 0 {
			b.WriteString(", ")
		}
		n := len(args)
		b.WriteString("($" + strconv.Itoa(n+1) + ", $" + strconv.Itoa(n+2) + ", $" + strconv.Itoa(n+3) + ")")
		args = append(args, id, first+i, d)
	}
	b.WriteString(" ON CONFLICT DO NOTHING")
	if _, err := s.sql.ExecContext(ctx, b.String(), args...); err != nil {
		return s.wrap("add events", err)
	}
	return nil
}

// lastEvent returns the highest event number of a scan, 0 when none.
func (s *sqlStore) lastEvent(ctx context.Context, id string) (int, error) {
	var n sql.NullInt64
	if err := s.sql.QueryRowContext(ctx, `SELECT max(seq) FROM scan_events WHERE scan_id = $1`, id).Scan(&n); err != nil {
		return 0, s.wrap("last event", err)
	}
	return int(n.Int64), nil
}

// event is one stored progress event.
type event struct {
	Seq  int
	Data string
}

// events returns at most limit events of a scan after seq, in order.
func (s *sqlStore) events(ctx context.Context, id string, after, limit int) ([]event, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT seq, data FROM scan_events WHERE scan_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, id, after, limit)
	if err != nil {
		return nil, s.wrap("events", err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var e event
		if err := rows.Scan(&e.Seq, &e.Data); err != nil {
			return nil, s.wrap("events", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("events", err)
	}
	return out, nil
}

// prune deletes the progress events of scans finished before eventsBefore
// and the rate counters of windows that ended before countsBefore.
func (s *sqlStore) prune(ctx context.Context, eventsBefore, countsBefore time.Time) error {
	if _, err := s.sql.ExecContext(ctx, `DELETE FROM scan_events WHERE scan_id IN
(SELECT id FROM scans WHERE status IN ('done', 'failed') AND finished_at < $1)`, ms(eventsBefore)); err != nil {
		return s.wrap("prune events", err)
	}
	if _, err := s.sql.ExecContext(ctx, `DELETE FROM rate_counts WHERE window_start < $1`, ms(countsBefore)); err != nil {
		return s.wrap("prune counters", err)
	}
	return nil
}

// count adds one to the counter of key in the window that starts at
// window and returns the new count.
func (s *sqlStore) count(ctx context.Context, key string, window time.Time) (int, error) {
	var n int
	err := s.sql.QueryRowContext(ctx, `INSERT INTO rate_counts (key, window_start, n) VALUES ($1, $2, 1)
ON CONFLICT (key, window_start) DO UPDATE SET n = rate_counts.n + 1
RETURNING n`, key, ms(window)).Scan(&n)
	if err != nil {
		return 0, s.wrap("rate counter", err)
	}
	return n, nil
}

// uncount takes back one count of key in window (a request counted and
// then refused for another reason).
func (s *sqlStore) uncount(ctx context.Context, key string, window time.Time) error {
	if _, err := s.sql.ExecContext(ctx, `UPDATE rate_counts SET n = n - 1 WHERE key = $1 AND window_start = $2 AND n > 0`, key, ms(window)); err != nil {
		return s.wrap("rate counter", err)
	}
	return nil
}

// summaries returns the summaries of the newest limit scans of host that
// finished before the given time, newest first.
func (s *sqlStore) summaries(ctx context.Context, host string, before time.Time, limit int) ([]readiness.Summary, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT summary FROM scans
WHERE host = $1 AND status = 'done' AND finished_at < $2 ORDER BY finished_at DESC LIMIT $3`, host, ms(before), limit)
	if err != nil {
		return nil, s.wrap("summaries", err)
	}
	defer rows.Close()
	var raw []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, s.wrap("summaries", err)
		}
		raw = append(raw, v)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("summaries", err)
	}
	return decodeSummaries(raw), nil
}
