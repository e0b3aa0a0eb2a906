package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The bound of the mutex is stated in the header comment of
// lock_spinbit.go, and model/README.md quotes it, under its heading "The
// bound", as the statement its checks are about. checkBoundQuote keeps
// the two the same: the README's quote must occur word for word
// (whitespace aside) in the header comment of lock_spinbit.go.

// boundHeading is the README's heading whose first block quote is the
// bound.
const boundHeading = "## The bound"

// boundQuote returns the first block quote (lines that start with ">")
// after boundHeading in readme, its markers dropped and its whitespace
// folded.
func boundQuote(readme string) (string, error) {
	_, after, ok := strings.Cut(readme, "\n"+boundHeading+"\n")
	if !ok {
		return "", fmt.Errorf("it has no heading %q", boundHeading)
	}
	var quote []string
	for _, line := range strings.Split(after, "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		if text, ok := strings.CutPrefix(line, ">"); ok {
			quote = append(quote, text)
		} else if len(quote) > 0 {
			break
		}
	}
	if len(quote) == 0 {
		return "", fmt.Errorf("its section %q quotes nothing (a block quote of the header's bound, lines starting with >)", boundHeading)
	}
	return fold(strings.Join(quote, " ")), nil
}

// commentText returns the text of every // comment line of src, markers
// dropped and whitespace folded, with a paragraph break (an empty comment
// line, or code) as a pilcrow, so that a quote cannot run across two
// paragraphs.
func commentText(src string) string {
	var text []string
	for _, line := range strings.Split(src, "\n") {
		c, ok := strings.CutPrefix(strings.TrimSpace(line), "//")
		if !ok || strings.TrimSpace(c) == "" {
			c = "¶"
		}
		text = append(text, c)
	}
	return fold(strings.Join(text, " "))
}

// checkBoundQuote checks that the README readme (its file name for
// errors) quotes the bound as the Go file spinbit (lock_spinbit.go, its
// file name goName) states it.
func checkBoundQuote(readmeName, readme, goName, spinbit string) error {
	q, err := boundQuote(readme)
	if err != nil {
		return fmt.Errorf("%s: %v", readmeName, err)
	}
	if !strings.Contains(commentText(spinbit), q) {
		return fmt.Errorf("%s quotes a bound (under %q) that the comments of %s do not state word for word: quote the header's paragraph as it is now (\"What is bounded, exactly\"), and update what the README says the checks show if the bound changed", readmeName, boundHeading, goName)
	}
	return nil
}

// checkBoundQuoteFiles runs checkBoundQuote on the README beside model
// and the lock_spinbit.go among goFiles.
func checkBoundQuoteFiles(model string, goFiles []string) error {
	readmeName := filepath.Join(filepath.Dir(model), "README.md")
	readme, err := os.ReadFile(readmeName)
	if err != nil {
		return err
	}
	for _, f := range goFiles {
		if filepath.Base(f) != "lock_spinbit.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		return checkBoundQuote(readmeName, string(readme), f, string(src))
	}
	return fmt.Errorf("none of %s is lock_spinbit.go, whose bound %s quotes", strings.Join(goFiles, ", "), readmeName)
}
