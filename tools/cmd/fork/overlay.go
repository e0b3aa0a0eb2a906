package main

import (
	"encoding/json"
	"os"
)

// writeOverlay writes the file at path that go build -overlay reads,
// replacing each file named by a key of replace with the file its value
// names.
func writeOverlay(path string, replace map[string]string) error {
	js, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	return os.WriteFile(path, js, 0o644)
}
