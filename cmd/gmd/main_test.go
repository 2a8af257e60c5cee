package main

import (
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gmdjudge/gmd/config"
	"golang.org/x/crypto/bcrypt"
)

// TestMain gives a judge run with -db and no config file the cheapest
// password hashes bcrypt makes: at the default cost they were nearly all
// of this package's time, and more still under the race detector. No
// test here is about the cost (config's tests check its default, and
// TestLoadConfigDefaults that loadConfig takes configDefaults). And it
// runs the demo's clock and looks in its mailbox every tenth of a second
// rather than every second: its first turn's round trips of mail waited
// on them for six seconds a demo, which no test is about.
func TestMain(m *testing.M) {
	demoClock, demoPoll = 100*time.Millisecond, 100*time.Millisecond
	configDefaults = func() *config.Config {
		c := config.Defaults()
		c.PasswordCost = bcrypt.MinCost
		return c
	}
	os.Exit(m.Run())
}

// TestLoadConfigDefaults: without a config file, loadConfig takes
// configDefaults, with the db path given; and configDefaults is
// config.Defaults but for the password cost TestMain set.
func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := loadConfig("", "x.db")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DB != "x.db" || cfg.PasswordCost != bcrypt.MinCost {
		t.Errorf("db %q, password cost %d; want x.db and %d", cfg.DB, cfg.PasswordCost, bcrypt.MinCost)
	}
	want := config.Defaults()
	want.DB, want.PasswordCost = cfg.DB, cfg.PasswordCost
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("loadConfig's defaults differ from config.Defaults beyond the cost: %+v", cfg)
	}
}
