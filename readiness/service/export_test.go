package service

import (
	"database/sql"
	"net/url"
	"os"
	"testing"
	"time"
)

// SetBodyTimeout sets the body deadline for a test and returns what
// restores it.
func SetBodyTimeout(d time.Duration) func() {
	old := bodyTimeout
	bodyTimeout = d
	return func() { bodyTimeout = old }
}

// PostgresDSN returns the DSN of a new, empty database on the server that
// AGENTWEB_POSTGRES names (a postgres:// URL), dropped when the test ends;
// the test is skipped when the variable is not set.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv("AGENTWEB_POSTGRES")
	if base == "" {
		t.Skip("AGENTWEB_POSTGRES is not set: no PostgreSQL to test against")
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" {
		t.Fatalf("AGENTWEB_POSTGRES must be a postgres:// URL: %v", err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	name := "agentweb_test_" + newID()[:12]
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		admin.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	u.Path = "/" + name
	return u.String()
}
