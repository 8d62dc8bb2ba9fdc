"""The page kvlab-draw writes, stepped through in headless Chromium.

Clicks are replayed by the page itself from its address (?clicks=next,...);
Chromium prints the DOM after the scripts ran (--dump-dom), and the test
reads the step shown, the operation beside it and the error box. A
screenshot of the page is written to the working directory either way and
its path printed, for a reader of a failure.

Usage: browser_test.py KVLAB_DRAW_BINARY SOURCE_DIR (ctest, label draw).
Exits 77 (ctest: skipped) only if Chromium cannot be installed.
"""

import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
OPS = ["put d 1", "put b 2", "put a 3", "put c 4", "put e 5"]


class Page(html.parser.HTMLParser):
    """The text of the elements with an id, and the body's data-step."""

    def __init__(self, dom):
        super().__init__()
        self.text, self.step, self._open = {}, None, []
        self.feed(dom)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.step = attrs.get("data-step")
        self._open.append(attrs.get("id"))
        if attrs.get("id"):
            self.text.setdefault(attrs["id"], "")

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for element in self._open:
            if element:
                self.text[element] += data


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browse(browser, url, *flags):
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--virtual-time-budget=6000", *flags, url]
    run = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        raise AssertionError(f"chromium failed: {run.stderr[-2000:]}")
    return run.stdout


def main():
    binary, source = sys.argv[1], sys.argv[2]
    if chromium() is None:
        deps = subprocess.run([os.path.join(source, "cmake", "deps.sh"),
                               "browser"], capture_output=True, text=True)
        if deps.returncode != 0 or chromium() is None:
            print("SKIPPED: Chromium (Debian package chromium) is not installed "
                  "and cmake/deps.sh browser could not install it:\n"
                  + deps.stderr)
            return SKIP
    browser = chromium()
    out = tempfile.mkdtemp(prefix="kvlab-draw-browser-")
    subprocess.run([binary, "--store=avl", f"--out={out}",
                    *[f"--op={op}" for op in OPS]], check=True, timeout=60)
    page = "file://" + os.path.join(out, "index.html")
    screenshot = os.path.abspath("kvlab-draw-browser.png")
    failures = []

    def expect(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    # (address suffix, step shown, operation beside it)
    cases = [("", 1, 'put "d" "1"'),
             ("?clicks=next,next,next", 4, 'put "c" "4"'),
             ("?clicks=next,next,prev", 2, 'put "b" "2"'),
             ("#step=3", 3, 'put "a" "3"'),
             ("?clicks=prev", 1, 'put "d" "1"'),
             # play advances once a second to the last step, then stops
             ("?clicks=play", 5, 'put "e" "5"')]
    for suffix, step, op in cases:
        shown = Page(browse(browser, page + suffix, "--dump-dom"))
        expect(f"{suffix or 'no clicks'}: step", shown.step, str(step))
        expect(f"{suffix or 'no clicks'}: operation", shown.text.get("op"), op)
        expect(f"{suffix or 'no clicks'}: counter", shown.text.get("counter"),
               f"step {step} of {len(OPS)}")
        expect(f"{suffix or 'no clicks'}: errors", shown.text.get("errors"), "")
    # A click on a button that does not exist is a script error, which the
    # page must show: the error box works.
    shown = Page(browse(browser, page + "?clicks=next,nosuch", "--dump-dom"))
    if "no button nosuch" not in shown.text.get("errors", ""):
        failures.append(f"a script error is not shown: {shown.text}")
    browse(browser, page + "?clicks=next,next", f"--screenshot={screenshot}",
           "--window-size=1280,800")
    print(f"screenshot: {screenshot}")
    if not os.path.exists(screenshot):
        failures.append("chromium wrote no screenshot")
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
