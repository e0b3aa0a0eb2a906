package model

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The bound of the mutex is stated in the header comment of
// lock_spinbit.go, and model/README.md and doc/design.md quote it, under
// their heading "The bound", as the statement the model's checks are
// about. checkBoundQuote keeps them the same: each block quote of that
// section must occur word for word (whitespace aside) in the header
// comment of lock_spinbit.go.

// boundHeading is the heading of the section whose block quotes are the
// header's statements of the bound.
const boundHeading = "## The bound"

// boundQuotes returns the block quotes (runs of lines that start with
// ">") in the section boundHeading of doc, their markers dropped and
// their whitespace folded.
func boundQuotes(doc string) ([]string, error) {
	_, section, ok := strings.Cut(doc, "\n"+boundHeading+"\n")
	if !ok {
		return nil, fmt.Errorf("it has no heading %q", boundHeading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var quotes, quote []string
	// The empty line appended ends a quote that ends the section.
	for _, line := range append(strings.Split(section, "\n"), "") {
		if text, ok := strings.CutPrefix(line, ">"); ok {
			quote = append(quote, text)
		} else if len(quote) > 0 {
			quotes = append(quotes, fold(strings.Join(quote, " ")))
			quote = nil
		}
	}
	if len(quotes) == 0 {
		return nil, fmt.Errorf("its section %q quotes nothing (a block quote of the header's bound, lines starting with >)", boundHeading)
	}
	return quotes, nil
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

// checkBoundQuote checks that the document doc (its file name docName)
// quotes the bound as the Go file spinbit (lock_spinbit.go, its file name
// goName) states it.
func checkBoundQuote(docName, doc, goName, spinbit string) error {
	quotes, err := boundQuotes(doc)
	if err != nil {
		return fmt.Errorf("%s: %v", docName, err)
	}
	comments := commentText(spinbit)
	for _, q := range quotes {
		if !strings.Contains(comments, q) {
			return fmt.Errorf("%s quotes (under %q) %q, which the comments of %s do not state word for word: quote the header's paragraph as it is now, and update what %s says the checks show if the bound changed", docName, boundHeading, shorten(q, 60), goName, docName)
		}
	}
	return nil
}

// checkBoundQuoteFiles runs checkBoundQuote on each of docs, against the
// lock_spinbit.go among goFiles.
func checkBoundQuoteFiles(docs, goFiles []string) error {
	var spinbit, goName string
	for _, f := range goFiles {
		if filepath.Base(f) == "lock_spinbit.go" {
			src, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			spinbit, goName = string(src), f
			break
		}
	}
	if goName == "" {
		return fmt.Errorf("none of %s is lock_spinbit.go, whose bound %s quote", strings.Join(goFiles, ", "), strings.Join(docs, " and "))
	}
	for _, name := range docs {
		doc, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if err := checkBoundQuote(name, string(doc), goName, spinbit); err != nil {
			return err
		}
	}
	return nil
}
