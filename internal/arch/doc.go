// Package arch holds no code: its test reads the module's import graph with
// `go list` and fails when a package imports what docs/architecture.md says
// it must not. The rules are the table in arch_test.go, mirrored (and checked
// to be mirrored) in the "Who may import whom" table of docs/architecture.md.
package arch
