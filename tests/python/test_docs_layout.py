# SPDX-License-Identifier: Apache-2.0
"""Every page of the built docs, rendered in headless Chromium, fits its text column.

The docs are built once per module (or ``build/docs`` is reused when it is newer than every
input). One Chromium process, driven over ``--remote-debugging-pipe`` (the DevTools protocol on
file descriptors 3 and 4, so no package beyond the standard library), opens each page at
1280 pixels wide, takes a screenshot and measures it with ``MEASURE_JS``: no element or text
under ``div.body`` may end right of the column's content edge, unless it sits inside an element
that scrolls sideways (``overflow-x: auto`` or ``scroll``), whose own box must fit.

Without Chromium or Sphinx the tests skip, and fail where ``CI`` is set
(``scripts/install_deps.sh`` installs both).
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

# One worker renders every page (the fixtures below are per module).
pytestmark = pytest.mark.xdist_group("docs_layout")

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BUILT = ROOT / "build" / "docs"
# What the build reads: a change in any of them makes an existing build/docs stale.
BUILD_INPUTS = (DOCS, ROOT / "python" / "tvm_ffi", ROOT / "include" / "tvm" / "ffi")
BUILD_INPUT_SUFFIXES = {".md", ".py", ".pyi", ".h", ".cc", ".cfg", ".css", ".txt"}
SOURCE_PAGES = sorted(
    p.relative_to(DOCS).with_suffix(".html").as_posix()
    for p in DOCS.rglob("*.md")
    if not {"snippets", "_build"} & set(p.relative_to(DOCS).parts)
)
GENERATED_PAGES = ["genindex.html", "py-modindex.html", "search.html"]
VIEWPORT = {"width": 1280, "height": 2000}
SLACK_PX = 1  # sub-pixel rounding
PAGE_TIMEOUT_S = 30
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# Returns {column, page_width, viewport_width, offenders}; an offender is the outermost element
# past the column's right edge (or the parent of text that is).
MEASURE_JS = r"""
(() => {
  const body = document.querySelector("div.body");
  if (!body) return {error: "the page has no div.body"};
  const bodyStyle = getComputedStyle(body);
  const box = body.getBoundingClientRect();
  const left = box.left + parseFloat(bodyStyle.paddingLeft);
  const right = box.right - parseFloat(bodyStyle.paddingRight);
  const limit = right + SLACK;
  const scrollsSideways = (el) => /^(auto|scroll)$/.test(getComputedStyle(el).overflowX);
  const past = new Set();
  const visit = (el) => {
    for (const node of el.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (!node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getBoundingClientRect().right > limit) past.add(el);
      } else if (node.nodeType === Node.ELEMENT_NODE) {
        const rect = node.getBoundingClientRect();
        if ((rect.width || rect.height) && rect.right > limit) past.add(node);
        if (!scrollsSideways(node)) visit(node);
      }
    }
  };
  visit(body);
  const describe = (el) => {
    const rect = el.getBoundingClientRect();
    const text = (el.textContent || "").replace(/\s+/g, " ").trim();
    return {
      tag: el.tagName.toLowerCase(),
      cls: typeof el.className === "string" ? el.className : "",
      text: text.length > 80 ? text.slice(0, 77) + "..." : text,
      right: Math.round(Math.max(rect.right, rect.left + el.scrollWidth)),
      width: Math.round(Math.max(rect.width, el.scrollWidth)),
    };
  };
  return {
    column: {left: Math.round(left), right: Math.round(right), width: Math.round(right - left)},
    page_width: document.documentElement.scrollWidth,
    viewport_width: window.innerWidth,
    offenders: [...past].filter((el) => !past.has(el.parentElement)).map(describe),
  };
})()
""".replace("SLACK", str(SLACK_PX))


def _missing_tool(message: str) -> None:
    """Skip (locally) or fail (in CI, ``CI`` set) because a tool the test needs is absent."""
    message += "; scripts/install_deps.sh installs it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    _missing_tool("Chromium is not installed (the Debian package chromium)")
    raise AssertionError("unreachable")


def _newest_mtime(folder: Path) -> float:
    sources = (p for p in folder.rglob("*") if p.suffix in BUILD_INPUT_SUFFIXES and p.is_file())
    return max((p.stat().st_mtime for p in sources), default=0.0)


def built_pages(folder: Path) -> list[str]:
    """The html pages under ``folder`` (not those of ``_static`` and other ``_`` folders)."""
    pages = (p.relative_to(folder) for p in folder.rglob("*.html"))
    return sorted(p.as_posix() for p in pages if not p.parts[0].startswith("_"))


def _fresh_build() -> Path | None:
    """``build/docs`` when a finished build there is newer than every input of the build and
    holds the pages of the current sources, no more (Sphinx leaves those of deleted ones)."""
    inventory = BUILT / "objects.inv"  # written when a build finishes
    if not inventory.is_file():
        return None
    newest_input = max(_newest_mtime(folder) for folder in BUILD_INPUTS)
    if inventory.stat().st_mtime <= newest_input:
        return None
    return BUILT if built_pages(BUILT) == sorted(SOURCE_PAGES + GENERATED_PAGES) else None


def _build_docs(out: Path) -> Path:
    try:
        import myst_parser  # noqa: F401
        import sphinx  # noqa: F401
    except ImportError as err:
        _missing_tool(f"the docs build needs {err.name}")
    cmd = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=600)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return out


# --remote-debugging-pipe reads commands from fd 3 and writes replies to fd 4: the launcher puts
# the two pipe ends (argv[1], argv[2]) there and runs the browser (argv[3:]).
PIPE_LAUNCHER = """
import fcntl, os, sys
commands, replies = (fcntl.fcntl(int(fd), fcntl.F_DUPFD_CLOEXEC, 10) for fd in sys.argv[1:3])
os.dup2(commands, 3)
os.dup2(replies, 4)
os.execv(sys.argv[3], sys.argv[3:])
"""


class Browser:
    """One headless Chromium, driven with the DevTools protocol over its debugging pipe."""

    def __init__(self, chromium: str) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
        args += ["--remote-debugging-pipe", "--no-first-run", "about:blank"]
        launcher = [sys.executable, "-c", PIPE_LAUNCHER, str(to_browser_r), str(from_browser_w)]
        self._proc = subprocess.Popen(
            [*launcher, *args],
            pass_fds=(to_browser_r, from_browser_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._events: list[dict[str, Any]] = []
        try:
            self._session = self._open_page()
        except BaseException:
            self.close()
            raise

    def _open_page(self) -> str:
        """Open a tab of ``VIEWPORT``'s size; the id of the session that drives it."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        attached = self.call("Target.attachToTarget", targetId=target, flatten=True)
        self._session = attached["sessionId"]
        self.call("Page.enable", session=True)
        metrics = dict(VIEWPORT, deviceScaleFactor=1, mobile=False)
        self.call("Emulation.setDeviceMetricsOverride", session=True, **metrics)
        return self._session

    def close(self) -> None:
        """Ask the browser to quit, then make sure it has."""
        try:
            self._send("Browser.close", {}, None)
            self._proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()
        finally:
            os.close(self._to_browser)
            os.close(self._from_browser)

    def _send(self, method: str, params: dict[str, Any], session: str | None) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            if not ready:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ConnectionError(f"Chromium exited (status {self._proc.poll()})")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and return its result; events that arrive meanwhile are kept."""
        sent = self._send(method, params, self._session if session else None)
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while True:
            message = self._receive(deadline)
            if message.get("id") == sent:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            if "method" in message:
                self._events.append(message)

    def wait_event(self, method: str) -> None:
        """Wait for (and consume) the next event ``method`` of the page."""
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while True:
            for event in self._events:
                if event["method"] == method:
                    self._events.remove(event)
                    return
            message = self._receive(deadline)
            if "method" in message:
                self._events.append(message)

    def render(self, page: Path, screenshot: Path) -> dict[str, Any]:
        """Load ``page``, save a screenshot of the first screen and return ``MEASURE_JS``'s."""
        self._events.clear()
        self.call("Page.navigate", session=True, url=page.as_uri())
        self.wait_event("Page.loadEventFired")
        self.call(
            "Runtime.evaluate", session=True, expression="document.fonts.ready", awaitPromise=True
        )
        shot = self.call(
            "Page.captureScreenshot", session=True, format="png", optimizeForSpeed=True
        )
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        result = self.call(
            "Runtime.evaluate", session=True, expression=MEASURE_JS, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"measuring {page}: {result['exceptionDetails']}")
        return result["result"]["value"]


def render_all(pages: dict[str, Path], shots: Path) -> dict[str, dict[str, Any]]:
    """Each page's measurement, with ``screenshot`` naming the PNG saved in ``shots``."""
    browser = Browser(_chromium())
    reports = {}
    try:
        for name, path in pages.items():
            screenshot = shots / (name.replace("/", "__") + ".png")
            reports[name] = dict(browser.render(path, screenshot), screenshot=str(screenshot))
    finally:
        browser.close()
    return reports


def problems(page: str, report: dict[str, Any]) -> list[str]:
    """What in one page's report is wider than its column, one line each."""
    if "error" in report:
        return [f"{page}: {report['error']}"]
    column = report["column"]
    found = [
        f"{page}: <{o['tag']} class={o['cls']!r}> {o['text']!r} is {o['width']}px wide and ends "
        f"at x={o['right']}, past the column's right edge x={column['right']} "
        f"(column {column['width']}px wide)"
        for o in report["offenders"]
    ]
    if report["page_width"] > report["viewport_width"]:
        found.append(
            f"{page}: the page is {report['page_width']}px wide and scrolls sideways in a "
            f"{report['viewport_width']}px window"
        )
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built html docs: a fresh build/docs, or a build made now in a temporary folder."""
    _chromium()  # before the minute-long build
    return _fresh_build() or _build_docs(tmp_path_factory.mktemp("docs_html"))


@pytest.fixture(scope="module")
def reports(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every built page's measurement, keyed by its path under the build folder."""
    pages = {name: built / name for name in built_pages(built)}
    return render_all(pages, tmp_path_factory.mktemp("docs_screenshots"))


@pytest.mark.parametrize("page", SOURCE_PAGES + GENERATED_PAGES)
def test_page_fits_text_column(page: str, reports: dict[str, dict[str, Any]]) -> None:
    assert page in reports, f"{page} was not built"
    report = reports[page]
    screenshot = Path(report["screenshot"])
    assert screenshot.read_bytes().startswith(PNG_SIGNATURE), f"no screenshot of {page}"
    found = problems(page, report)
    assert not found, "\n".join(found)


def test_every_built_page_is_checked(reports: dict[str, dict[str, Any]]) -> None:
    unchecked = sorted(set(reports) - set(SOURCE_PAGES) - set(GENERATED_PAGES))
    assert not unchecked, f"built pages that no test_page_fits_text_column case names: {unchecked}"


CHECKER_PAGE = """<!DOCTYPE html><html><body style="margin:0">
<div class="body" style="width:400px; padding: 0 20px">
  <p id="fits">Short text that wraps inside the column as it should.</p>
  <table id="wide"><tr><td style="white-space:nowrap">{long}</td></tr></table>
  <pre id="scrolls" style="overflow-x:auto">{long}</pre>
  <p id="unbroken">{unbroken}</p>
</div></body></html>
"""


def test_checker_names_what_overflows(tmp_path: Path) -> None:
    long = "a long line of code that no 400px column holds " * 3
    page = tmp_path / "checker.html"
    page.write_text(CHECKER_PAGE.format(long=long, unbroken="x" * 200), encoding="utf-8")
    report = render_all({"checker.html": page}, tmp_path)["checker.html"]
    assert report["column"] == {"left": 20, "right": 420, "width": 400}
    assert [(o["tag"], o["text"][:6]) for o in report["offenders"]] == [
        ("table", "a long"),
        ("p", "xxxxxx"),
    ]
    assert all(o["right"] > 420 for o in report["offenders"])
    lines = problems("checker.html", report)
    assert len(lines) == 3, lines  # the table, the paragraph, and the page scrolls sideways
    assert "<table class=''> 'a long line" in lines[0]
    assert Path(report["screenshot"]).read_bytes().startswith(PNG_SIGNATURE)
