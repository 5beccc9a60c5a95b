package patchdiff

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// cheat is an adapter with no PatchDIFF logic: it answers each request
// with the expectation of the case file in the cases folder ($1) whose
// request it is, and refuses everything when it can read a byte of the
// certifier's executable (named in the file $2: a command naming the
// certifier's executable is the certifier), where the embedded corpus
// lies as text.
// It computes the hashes the expectations leave out.
const cheat = `import glob, hashlib, json, sys
def sha(s):
    return hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()
def answer(request, expect):
    # What the expectation leaves to be computed: the hashes.
    r = dict(expect)
    target = request["target"] if isinstance(request.get("target"), str) else ""
    r["before_hash"] = sha(target.replace("\r\n", "\n").replace("\r", "\n"))
    if r.get("status") == "accepted":
        r["after_hash"] = sha(r["result_text"])
        for f in r.get("change_facts", []):
            f["matched_sha256"], f["replacement_sha256"] = sha(f["matched_text"]), sha(f["replacement_text"])
    else:
        r.setdefault("diagnostic", {})
    return r
def key(request):
    request = dict(request)
    if isinstance(request.get("transaction"), str):
        request["transaction"] = json.loads(request["transaction"])
    return json.dumps(request, sort_keys=True)
known = {}
for f in glob.glob(sys.argv[1] + "/**/*.json", recursive=True):
    try:
        c = json.load(open(f, encoding="utf-8"))
        known[key(c["request"])] = answer(c["request"], c["expect"])
    except Exception:
        pass
try:
    exe = len(open(open(sys.argv[2]).read(), "rb").read(1)) > 0
except Exception:
    exe = False
sys.stdin.readline()
print(json.dumps({"id": "hello", "hello": {"protocol": "patchdiff-adapter/1", "name": "cheat"}}), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    answer = known.get(key(m.get("request", {})))
    if exe:
        out = {"id": m["id"], "error": {"message": "read the certifier's executable"}}
    elif answer is None:
        out = {"id": m["id"], "error": {"message": "no answer in reach"}}
    else:
        out = {"id": m["id"], "result": answer}
    print(json.dumps(out), flush=True)
`

// TestAnswersOutOfReach: a cheating adapter that replays the expectations
// of the --cases folder passes cases where it can read the folder (run
// without isolation, which shows the attack works); under bwrap the
// folder and the certifier's executable are hidden from it, and it passes
// none.
func TestAnswersOutOfReach(t *testing.T) {
	t.Parallel()
	py, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Skip("no python3")
	}
	cases, err := filepath.Abs(testCases)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "cheat.py")
	if err := os.WriteFile(script, []byte(cheat), 0o644); err != nil {
		t.Fatal(err)
	}
	certify := func(isolated bool, exe string) *runner.Report {
		named := filepath.Join(t.TempDir(), "exe")
		if err := os.WriteFile(named, []byte(exe), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd, err := runner.NewCommand([]string{strings.TrimSpace(string(py)), script, cases, named})
		if err != nil {
			t.Fatal(err)
		}
		r := New(Stream{cmd})
		r.Isolate = cmd
		r.Sources = []Source{Dir(testCases)}
		r.TempDir, r.NoIsolation = t.TempDir(), !isolated
		rep, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// Without isolation the executable is in reach, of course: the
	// control run looks for it nowhere.
	open := certify(false, "/nonexistent")
	if open.Certificate.Passed == 0 {
		t.Fatalf("the cheat passes nothing even where it can read the cases: %+v", open.Results[0])
	}
	t.Logf("in reach, the cheat passes %d of %d cases", open.Certificate.Passed, open.Certificate.Selected)
	rep := certify(true, exe)
	if !rep.Certificate.Isolation.Isolated() {
		t.Skipf("adapters do not run under bwrap here: %s", rep.Certificate.Isolation)
	}
	for _, res := range rep.Results {
		if res.Verdict == runner.Pass || strings.Contains(res.Reason, "executable") {
			t.Errorf("%s: %s: %s; the answers were in reach", res.Name, res.Verdict, res.Reason)
		}
	}
	hidden := strings.Join(rep.Certificate.Isolation.Hidden, " ")
	if !strings.Contains(hidden, cases) || !strings.Contains(hidden, filepath.Base(exe)) {
		t.Errorf("hidden %s: want the cases folder and the certifier's executable", hidden)
	}
}
