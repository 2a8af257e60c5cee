package parser

// SetNamesFirst sets namesFirst, the mutation that reads the longest name
// first, and returns a function that puts it back.
func SetNamesFirst(v bool) (undo func()) {
	old := namesFirst
	namesFirst = v
	return func() { namesFirst = old }
}
