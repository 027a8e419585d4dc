package service

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver
)

// ErrStore is wrapped by every error of the store: a database that cannot be
// opened or migrated, or a query that failed.
var ErrStore = errors.New("service: store")

// Store keeps the service's scans (the job queue, the reports and the
// history), their progress events and the rate-limit counters. So several
// instances sharing one database share one queue and one set of limits. And
// a restarted process finds every scan it accepted. OpenSQLite and
// OpenPostgres return one; both run the same schema and the same queries
// through database/sql. A Store is safe for concurrent use; Close it after
// the services that use it.
type Store interface {
	// Close closes the database.
	Close() error
	db() *sqlStore
}

// dialect is what differs between the two databases: the driver, how a
// claim skips rows another transaction holds, and how a migration takes the
// schema lock.
type dialect struct {
	name string
	// skipLocked ends the claim's sub-select: "FOR UPDATE SKIP LOCKED" on
	// PostgreSQL; SQLite has one writer at a time and needs none.
	skipLocked string
	// lockSchema is run first in the migration transaction.
	lockSchema string
	// exclusive: one process owns the database (SQLite), so scans left
	// running by an earlier process are interrupted and re-queued on open
	// instead of when their lease runs out.
	exclusive bool
}

type sqlStore struct {
	sql     *sql.DB
	dialect dialect
}

func (s *sqlStore) db() *sqlStore { return s }

// Close closes the database.
func (s *sqlStore) Close() error {
	if err := s.sql.Close(); err != nil {
		return fmt.Errorf("%w: close: %w", ErrStore, err)
	}
	return nil
}

// OpenSQLite opens (creating it when missing) the SQLite database at path
// and brings its schema to the current version. ":memory:" is a database
// that lives as long as the Store, for tests. The file is written in WAL
// mode with a busy timeout, and belongs to one process. Scans that a
// process killed mid-scan left running are taken back on open. They are
// re-queued once, or failed with the reason when it was their second
// interruption. Several services of one process may share the Store. The
// driver is modernc.org/sqlite, SQLite compiled to Go: no cgo, no system
// library.
func OpenSQLite(path string) (Store, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: sqlite: empty path", ErrStore)
	}
	dsn := "file:" + path
	if path == ":memory:" {
		// One connection, so that every query sees the same database.
		dsn = "file::memory:"
	}
	dsn += "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: sqlite: %w", ErrStore, err)
	}
	// SQLite has one writer; one connection serialises writes without
	// SQLITE_BUSY, and reads are short.
	db.SetMaxOpenConns(1)
	s := &sqlStore{sql: db, dialect: dialect{name: "sqlite", exclusive: true}}
	if err := s.open(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// OpenPostgres connects to the PostgreSQL database named by dsn: a
// postgres:// URL or a key=value string, as pgx reads it. It brings its
// schema to the current version, under a lock so that instances starting
// together migrate once. Several services, in one process or many, may share
// the database. Each claims queued scans with FOR UPDATE SKIP LOCKED, and
// holds a lease on what it runs, renewed while it runs. A scan whose lease
// ran out (its process died) is re-queued once, by whichever instance sees
// it first, a whole lease after it ran out. It is failed with the reason on
// its second interruption.
func OpenPostgres(ctx context.Context, dsn string) (Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("%w: postgres: %w", ErrStore, err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(time.Minute)
	s := &sqlStore{sql: db, dialect: dialect{
		name:       "postgres",
		skipLocked: "FOR UPDATE SKIP LOCKED",
		lockSchema: "LOCK TABLE agentweb_schema IN EXCLUSIVE MODE",
	}}
	if err := s.open(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// migrations are the schema's versions, in order; version n is
// migrations[n-1]. A released migration is never edited: a change is a new
// entry. The SQL is the subset both databases read the same way.
var migrations = []string{
	`CREATE TABLE scans (
	id          TEXT PRIMARY KEY,
	site        TEXT NOT NULL,
	host        TEXT NOT NULL,
	target      TEXT NOT NULL,
	browser     INTEGER NOT NULL DEFAULT 0,
	status      TEXT NOT NULL,
	runs        INTEGER NOT NULL DEFAULT 0,
	lease_owner TEXT NOT NULL DEFAULT '',
	lease_until BIGINT NOT NULL DEFAULT 0,
	created_at  BIGINT NOT NULL,
	started_at  BIGINT NOT NULL DEFAULT 0,
	finished_at BIGINT NOT NULL DEFAULT 0,
	score       DOUBLE PRECISION,
	ready       INTEGER,
	sections    TEXT NOT NULL DEFAULT '',
	report      TEXT NOT NULL DEFAULT '',
	error_code  TEXT NOT NULL DEFAULT '',
	error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX scans_queue ON scans (status, created_at);
CREATE INDEX scans_host ON scans (host, created_at);
CREATE INDEX scans_site ON scans (site, status, finished_at);
CREATE UNIQUE INDEX scans_in_flight ON scans (site, browser) WHERE status IN ('queued', 'running');
CREATE TABLE scan_events (
	scan_id TEXT NOT NULL,
	seq     INTEGER NOT NULL,
	data    TEXT NOT NULL,
	PRIMARY KEY (scan_id, seq)
);
CREATE TABLE rate_counts (
	key          TEXT NOT NULL,
	window_start BIGINT NOT NULL,
	n            INTEGER NOT NULL,
	PRIMARY KEY (key, window_start)
)`,
	// Version 2 keeps each finished scan's readiness.Summary (score,
	// readiness, section scores, every check's state), in place of the
	// section scores of version 1. The history, its trend, deltas and
	// badges are drawn from it.
	`ALTER TABLE scans ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE scans DROP COLUMN sections`,
}

// schemaVersion is the version this package writes.
var schemaVersion = len(migrations)

// open runs the migrations the database lacks, each in its own
// transaction, then (SQLite) takes back the scans an earlier process left
// running.
func (s *sqlStore) open(ctx context.Context) error {
	if err := s.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrStore, s.dialect.name, err)
	}
	if _, err := s.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS agentweb_schema (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("%w: %s: schema table: %w", ErrStore, s.dialect.name, err)
	}
	for {
		done, err := s.migrateOne(ctx)
		if err != nil {
			return err
		}
		if done {
			break
		}
	}
	if s.dialect.exclusive {
		if _, _, err := s.reap(ctx, time.Now(), time.Now(), true); err != nil {
			return err
		}
	}
	return nil
}

// migrateOne applies the next migration under the schema lock, or reports
// that the schema is current. A database newer than this package is an
// error: an old binary must not write a schema it does not know.
func (s *sqlStore) migrateOne(ctx context.Context) (done bool, err error) {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("%w: %s: migrate: %w", ErrStore, s.dialect.name, err)
	}
	defer tx.Rollback()
	if s.dialect.lockSchema != "" {
		if _, err := tx.ExecContext(ctx, s.dialect.lockSchema); err != nil {
			return false, fmt.Errorf("%w: %s: schema lock: %w", ErrStore, s.dialect.name, err)
		}
	}
	var v sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT max(version) FROM agentweb_schema`).Scan(&v); err != nil {
		return false, fmt.Errorf("%w: %s: schema version: %w", ErrStore, s.dialect.name, err)
	}
	cur := int(v.Int64)
	switch {
	case cur > schemaVersion:
		return false, fmt.Errorf("%w: %s: the database's schema is version %d, newer than this program's %d", ErrStore, s.dialect.name, cur, schemaVersion)
	case cur == schemaVersion:
		return true, nil
	}
	for stmt := range strings.SplitSeq(migrations[cur], ";\n") {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return false, fmt.Errorf("%w: %s: migration %d: %w", ErrStore, s.dialect.name, cur+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO agentweb_schema (version) VALUES ($1)`, cur+1); err != nil {
		return false, fmt.Errorf("%w: %s: migration %d: %w", ErrStore, s.dialect.name, cur+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("%w: %s: migration %d: %w", ErrStore, s.dialect.name, cur+1, err)
	}
	return false, nil
}

func (s *sqlStore) wrap(what string, err error) error {
	return fmt.Errorf("%w: %s: %s: %w", ErrStore, s.dialect.name, what, err)
}
