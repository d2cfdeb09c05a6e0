#!/usr/bin/env python3
"""Opens report.html in headless Chromium on a phone (390 px), a laptop (1280 px) and a wide
screen (1920 px) and checks what a reader would see.

At each width the page must render (a screenshot that is not blank), show every chart with
text of at least 9.5 px and room above its tallest bar, fit the width without horizontal
scrolling, show every amount of every table without scrolling it (no money cut off inside a
scrolling box), and load nothing from anywhere: no request leaves the page.
Chromium's window is never narrower than 500 px, so the page is laid out in a frame of the
width checked. Exit 0 when every check passes, 1 otherwise, naming each failure.

usage: check_report_page.py REPORT.html [REPORT.html ...]
"""
import html as markup
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

CHARTS = ["cost-by-day", "leak-by-day", "leak-trend", "refund-split"]
WIDTHS = [390, 1280, 1920]
SMALLEST_TEXT = 9.5

# Runs after layout; writes its findings into the DOM, which --dump-dom prints.
PROBE = """
<script>
window.addEventListener('load', () => {
  const visible = element => element.getBoundingClientRect().width > 0;
  const charts = [...document.querySelectorAll('svg[data-chart]')].filter(visible).map(svg => ({
    name: svg.dataset.chart,
    width: svg.getBoundingClientRect().width,
    height: svg.getBoundingClientRect().height,
    shapes: svg.querySelectorAll('rect').length,
  }));
  // Text in a chart is scaled with its drawing: its size on screen is the font size times the scale.
  const sizes = [...document.querySelectorAll('svg[data-chart] text')].filter(visible)
    .map(text => parseFloat(getComputedStyle(text).fontSize) * text.ownerSVGElement.getScreenCTM().a);
  // An amount is cut off when it lies outside the box that holds its table, or past the window.
  const cutOff = [...document.querySelectorAll('td.n, th.n')].filter(visible).filter(cell => {
    const box = (cell.closest('.scroll') || document.documentElement).getBoundingClientRect();
    const rect = cell.getBoundingClientRect();
    return rect.right > Math.min(box.right, window.innerWidth) + 1 || rect.left < Math.max(box.left, 0) - 1;
  }).map(cell => cell.textContent.trim()).slice(0, 5);
  // The tallest bar of a chart must stay below the top of its value axis (its topmost line).
  const crowded = [...document.querySelectorAll('svg[data-chart]')].filter(visible).filter(svg => {
    const lines = [...svg.querySelectorAll('line')].map(line => parseFloat(line.getAttribute('y1')));
    const bars = [...svg.querySelectorAll('rect')].filter(rect => rect.querySelector('title'))
      .map(rect => parseFloat(rect.getAttribute('y')));
    if (lines.length < 2 || bars.length === 0) return false;
    const top = Math.min(...lines), bottom = Math.max(...lines);
    return Math.min(...bars) - top < 0.04 * (bottom - top);
  }).map(svg => svg.dataset.chart);
  const result = {
    viewport: window.innerWidth,
    cutOff,
    crowded,
    scrollWidth: document.documentElement.scrollWidth,
    resources: performance.getEntriesByType('resource').map(r => r.name),
    referencing: [...document.querySelectorAll('[src],[srcset],link[href],object,embed,iframe')].length,
    charts,
    smallestText: sizes.length ? Math.min(...sizes) : 0,
  };
  const out = parent.document.createElement('pre');
  out.id = 'page-check';
  out.textContent = JSON.stringify(result);
  parent.document.body.appendChild(out);
});
</script>
"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browser_args(binary, profile, width):
    return [
        binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--user-data-dir=" + profile, "--window-size=%d,1000" % max(width, 500),
        # Nothing may leave the page: names resolve nowhere and any proxy request fails.
        "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
    ]


def png_pixels(path):
    """Width, height and RGB(A) rows of a non-interlaced 8-bit PNG (what Chromium writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0 and color in (2, 6), "unexpected PNG format %r" % (header,)
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def framed(html, width, height):
    """The page inside a frame of `width` px (srcdoc: same origin, so the probe can report out)."""
    return ('<!DOCTYPE html><html><body style="margin:0"><iframe style="border:0;display:block" width="%d" height="%d" '
            'srcdoc="%s"></iframe></body></html>' % (width, height, markup.escape(html, quote=True)))


def check(page, binary):
    html = open(page, encoding="utf-8").read()
    # A link within the page (#about) loads nothing; anything else would.
    failures = ["references %s" % url for url in re.findall(r"""(?:src|href)\s*=\s*["']?([^"' >]+)""", html)
                if not url.startswith("#")]
    for width in WIDTHS:
        failures += ["at %d px: %s" % (width, failure) for failure in check_width(page, html, binary, width)]
    return failures


def check_width(page, html, binary, width):
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        probed = os.path.join(folder, "probed.html")
        with open(probed, "w", encoding="utf-8") as out:
            out.write(framed(html.replace("</body>", PROBE + "</body>"), width, 1000))
        dom = subprocess.run(
            browser_args(binary, os.path.join(folder, "profile"), width) + ["--dump-dom", "file://" + probed],
            capture_output=True, text=True, timeout=120).stdout
        found = re.search(r'<pre id="page-check">(.*?)</pre>', dom, re.S)
        if not found:
            return failures + ["Chromium did not render the page (no probe result)"]
        result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
        if result["scrollWidth"] > result["viewport"]:
            failures.append("the page is %d px wide at a %d px window" % (result["scrollWidth"], result["viewport"]))
        if result["cutOff"]:
            failures.append("amounts cut off, out of sight without scrolling: %s" % result["cutOff"])
        if result["crowded"]:
            failures.append("charts whose tallest bar meets the top of the axis: %s" % result["crowded"])
        if result["resources"] or result["referencing"]:
            failures.append("the page loads %s" % (result["resources"] or "%d referenced resources" % result["referencing"]))
        charts = {chart["name"]: chart for chart in result["charts"]}
        for name in CHARTS:
            chart = charts.get(name)
            if chart is None:
                failures.append("chart %s is missing" % name)
            elif chart["width"] < min(400, width * 0.8) or chart["height"] < 20 or chart["shapes"] == 0:
                failures.append("chart %s is empty or squashed: %r" % (name, chart))
        if len(result["charts"]) != len(CHARTS):
            failures.append("%d charts shown, expected one of each of %s" % (len(result["charts"]), CHARTS))
        if result["smallestText"] < SMALLEST_TEXT:
            failures.append("chart text as small as %.1f px (at least %.1f to be readable)" % (
                result["smallestText"], SMALLEST_TEXT))

        shot = os.path.join(folder, "page.png")
        shown = os.path.join(folder, "shown.html")
        with open(shown, "w", encoding="utf-8") as out:
            out.write(framed(html, width, 1000))
        subprocess.run(
            browser_args(binary, os.path.join(folder, "profile"), width) + ["--screenshot=" + shot, "file://" + shown],
            capture_output=True, timeout=120)
        if not os.path.exists(shot):
            return failures + ["Chromium wrote no screenshot"]
        shot_width, height, channels, rows = png_pixels(shot)
        colors = set()
        for row in rows[::7]:
            for x in range(0, min(width, shot_width) * channels, channels * 5):
                colors.add(row[x:x + 3])
        if shot_width != max(width, 500) or len(colors) < 8:
            failures.append("the screenshot is blank or the wrong size (%dx%d, %d colors)" % (shot_width, height, len(colors)))
        print("%s at %d px: %d charts, %d px wide, chart text from %.1f px, %d colors in the first screen" % (
            page, width, len(result["charts"]), result["scrollWidth"], result["smallestText"], len(colors)))
    return failures


def main():
    binary = chromium()
    if binary is None:
        print("check_report_page: Chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    failed = False
    for page in sys.argv[1:]:
        for failure in check(os.path.abspath(page), binary):
            print("%s: %s" % (page, failure), file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
