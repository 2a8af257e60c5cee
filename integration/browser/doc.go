// Package browser tests the judge's web pages in a real browser: a
// headless Chromium (Debian's chromium package) driven through the
// DevTools protocol, against the pages of "gmd demo".
//
// The tests are part of the ordinary "go test ./..." but skip unless
// GMD_BROWSERTEST=1, which scripts/test sets once it has installed
// Chromium; then a missing browser fails them rather than skip them:
//
//	GMD_BROWSERTEST=1 go test -count=1 -v ./integration/browser/
//
// GMD_CHROMIUM names the browser's binary (default: chromium on the
// PATH). A check that fails saves a screenshot of the page in the test's
// artifact directory (go test -artifacts keeps it under -outputdir).
//
// The package has no code of its own besides this comment: everything is
// in its _test.go files.
package browser
