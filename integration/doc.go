// Package integration holds gmd's end-to-end tests against real mail
// servers: Dovecot (IMAP and LMTP) and Postfix (SMTP and submission),
// started on loopback ports by scripts/mailservers, with the gmd binary
// run as the daemon ("gmd run") in between.
//
// The tests are part of the ordinary "go test ./..." but skip unless
// GMD_MAILTEST=1; with CI=true as well, servers that fail to start fail
// the run instead of skipping it. scripts/integration runs them:
//
//	GMD_MAILTEST=1 go test -count=1 -v ./integration/
//
// TestSoak takes about 5 of the package's 6 minutes, and up to its time
// bound of 8 when it fails, so give go test a -timeout above its default
// of 10 minutes (scripts/test gives 25m).
//
// GMD_BENCH=1 turns the throughput report of TestThroughput into an
// assertion of the speed target (200 order mails a second).
// GMD_MAILTEST_RACE=1 builds the daemon with the race detector.
// GMD_MAILTEST_KEEP=1 keeps the run's directory: the servers' configs,
// logs and Maildirs, and each judge's config, database and log.
// GMD_CRASH_SEED replays the kills of a TestCrashSafety run.
// TestSoak sends 2,000 order mails (20,000 with GMD_SOAK=full, any
// number with GMD_SOAK_MAILS) through kills, restarts and outages drawn
// from GMD_SOAK_SEED (logged), and fails unless all are answered within
// GMD_SOAK_BOUND (a Go duration; by default 5 minutes, and 8 minutes for
// 20,000 mails).
//
// The package has no code of its own besides this comment: everything is
// in its _test.go files.
package integration
