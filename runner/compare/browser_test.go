package compare

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser returns the Chromium (or Chrome) installed here, or skips: .ci/run
// installs Debian's chromium; a machine without one skips these checks.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium or Chrome installed (Debian: apt-get install chromium): the page is not checked in a browser")
	return ""
}

// TestPageInBrowser opens the page from a file in headless Chromium and
// uses it as a person would: the summary shows each implementation, the
// verdict and requirement filters narrow the rows, and a failed cell
// opens its expected-versus-got diff and closes again.
func TestPageInBrowser(t *testing.T) {
	t.Parallel()
	exe := browser(t)
	file := filepath.Join(t.TempDir(), "compare.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := fixture().WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		// No network at all: the page must need none.
		chromedp.ProxyServer("http://127.0.0.1:9"), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	// eval runs a script in the page and returns its value; text reads
	// an element's text; count counts the visible elements of a selector.
	eval := func(js string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return v
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll("`+sel+`")].filter(e => !e.hidden).length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	choose := func(id, value string) {
		t.Helper()
		eval(`(() => { const s = document.getElementById("` + id + `"); s.value = "` + value + `"; s.dispatchEvent(new Event("change")); return true })()`)
	}
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %d, want %d", what, got, want)
		}
	}

	do(chromedp.Navigate("file://" + file))
	eval(`window.__errors = []; window.addEventListener("error", e => window.__errors.push(e.message)); true`)
	if shown := text("#shown"); shown != "3 of 3 cases shown" {
		t.Errorf("on load: %q", shown)
	}
	summary := text("#summary tbody")
	for _, want := range []string{"good", "bad | 0.1", "could not run: starting it: no such file"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q: %q", want, summary)
		}
	}

	choose("verdict", "failed")
	check("rows with a failure", count("tr.case"), 1)
	if shown := text("#shown"); shown != "1 of 3 cases shown" {
		t.Errorf("failed filter: %q", shown)
	}
	choose("verdict", "v:skip")
	check("rows with a skip", count("tr.case"), 1)
	choose("verdict", "notpassed")
	choose("impl", "0")
	check("rows not passed by good", count("tr.case"), 0)
	choose("impl", "")
	choose("verdict", "")
	do(chromedp.SendKeys(chromedp.CSS("#requirement"), "match-"))
	check("rows citing MATCH-", count("tr.case"), 1)

	// Open the failure of match/b on "bad": its diff lines are marked.
	do(chromedp.Click(chromedp.CSS(`tr.case[data-name="match/b"] button[data-impl="1"]`)),
		chromedp.WaitVisible(chromedp.CSS("tr.detail pre")))
	if detail := text("tr.detail"); !strings.Contains(detail, "bad: fail") || !strings.Contains(detail, "(-want +got)") {
		t.Errorf("detail: %q", detail)
	}
	check("removed lines marked", count("tr.detail pre span.del"), 1)
	check("added lines marked", count("tr.detail pre span.add"), 1)
	// A passed cell opens nothing; the failed one closes again.
	do(chromedp.Click(chromedp.CSS(`tr.case[data-name="match/b"] button[data-impl="0"]`)),
		chromedp.Click(chromedp.CSS(`tr.case[data-name="match/b"] button[data-impl="1"]`)))
	check("detail rows after closing", count("tr.detail"), 0)
	if errs := eval(`window.__errors.join("; ")`); errs != "" {
		t.Errorf("script errors: %v", errs)
	}
}
