package session

// ValidGameName reports whether name may name a game (1 to 12 lower case
// letters and digits), so that gmd import names games by the mail
// session's rule.
func ValidGameName(name string) bool { return validGameName(name) }
