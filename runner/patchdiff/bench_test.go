package patchdiff

import (
	"context"
	"os"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// echoAdapterEnv makes the test binary an adapter whose applier answers
// every request with the same small result: what an exchange costs beyond
// the applier's own work.
const echoAdapterEnv = "PATCHDIFF_TEST_ECHO_ADAPTER"

const echoResult = `{"status":"rejected","validation_stage":"PROTOCOL_VALIDATION"}`

func echoApply([]byte) ([]byte, error) { return []byte(echoResult), nil }

func TestMain(m *testing.M) {
	if os.Getenv(echoAdapterEnv) == "1" {
		if err := Serve(os.Stdin, os.Stdout, Hello{Name: "echo"}, echoApply); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// BenchmarkExchange measures the adapter protocol's overhead per case: one
// request line out and one answer line back, in process, through a program
// kept running (stream mode), and through a program started per request
// (one-shot mode), with an applier that does no work.
func BenchmarkExchange(b *testing.B) {
	request, _ := (&Message{ID: "c-1", Request: []byte(`{"runtime_version":"patchdiff-mvp-0.2.2","target":"alpha\n","transaction":"{}"}`)}).Line()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd, err := runner.NewCommand([]string{exe}, echoAdapterEnv+"=1")
	if err != nil {
		b.Fatal(err)
	}
	for _, a := range []struct {
		name    string
		applier Applier
	}{
		{"in-process", InProcess{Name: "echo", Serve: func(line []byte) []byte { return Respond(line, Hello{}, echoApply) }}},
		{"stream", Stream{cmd}},
		{"one-shot", OneShot{cmd}},
	} {
		b.Run(a.name, func(b *testing.B) {
			s, err := a.applier.Open(context.Background(), SessionEnv{Dir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			for b.Loop() {
				if ans := s.Exchange(context.Background(), request); ans.Ended || len(ans.Line) == 0 {
					b.Fatalf("no answer: %s %+v", ans.Why, ans.Outcome)
				}
			}
		})
	}
}
