package main

import (
	"bytes"
	"errors"
	"maps"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// When set, the test binary runs main() instead of the tests, so the tests
// can watch the real process: its output streams and exit status.
const runMainEnv = "MINTBENCH_RUN_PRODUCER_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runProducer(t *testing.T, env map[string]string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = []string{runMainEnv + "=1"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

func TestBadInputGivesOneErrorLineAndAFailingExit(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := ln.Addr().String()
	ln.Close()
	valid := map[string]string{"SERVER": closedPort, "MSG_ID": "fast", "BITS": "42", "PACK": "1", "BATCH": "10", "MESSAGES": "100", "WARMUP": "10"}
	cases := []struct{ name, value, want string }{
		{"MSG_ID", "snowflake", "error: MSG_ID=snowflake is unknown; expected one of uuid, uuidpool, cryptorand, fast, preset, counter"},
		{"SEND_PATH", "verbose", "error: SEND_PATH=verbose is unknown; expected one of lean, faithful"},
		{"PAIRED", "1", "PAIRED=1"},
		{"BITS", "0", "BITS"},
		{"BITS", "65", "BITS"},
		{"SERVER", closedPort, "SERVER " + closedPort},
	}
	for _, c := range cases {
		env := maps.Clone(valid)
		env[c.name] = c.value
		stdout, stderr, code := runProducer(t, env)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		exact := strings.HasPrefix(c.want, "error: ") // the whole line is fixed by the contract
		if code == 0 || stdout != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") || !strings.Contains(lines[0], c.want) || exact && lines[0] != c.want {
			t.Errorf("%s=%s: exit %d, stdout %q, stderr %q", c.name, c.value, code, stdout, stderr)
		}
	}
}
