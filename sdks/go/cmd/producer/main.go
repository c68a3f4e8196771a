// Command producer is the Go row of the SDK benchmark: settings from the
// environment (sdks/README.md), one JSON result line on stdout, and on any
// error one line on stderr and exit status 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"mintbench/sdks/go/producer"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	settings, err := producer.SettingsFrom(os.LookupEnv)
	if err != nil {
		return err
	}
	result, err := producer.Run(settings)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(result)
}
