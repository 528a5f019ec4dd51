"""The play page draws a board's marks (issue 43) on a phone (390x844): a 4x4 killer's
cage sums in the corners of the cages' first squares, and a 6x6 Sudoku X's two diagonals
shaded. The session's one browser (conftest.py); every wait is for an element, never
for time."""
import json
import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from render_support import cli

PHONE = (390, 844)


def test_cage_sums_and_shaded_diagonals_are_on_the_board(browser, tmp_path):
    batch = tmp_path / "batch.jsonl"
    batch.write_text(cli("gen", "killer", "--size", 4, "--seed", 2, "--format", "json").stdout
                     + cli("gen", "sudoku-x", "--size", 6, "--seed", 1,
                           "--format", "json").stdout)
    page = tmp_path / "play.html"
    cli("render", batch, "--format", "html", "--no-explain", "--out", page)
    found = re.search(r'<script type="application/json" id="puzzles">(.*?)</script>',
                      page.read_text(), re.S)
    killer, sudoku_x = (p["grid"] for p in json.loads(found.group(1)))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True})
    try:
        browser.get(page.as_uri())
        wait = WebDriverWait(browser, 30)
        labels = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#board .cell .label"))
        # Each cage's sum, on its first square in reading order (as the sheet prints it).
        shown = {int(e.find_element(By.XPATH, "..").get_attribute("data-square")): e.text
                 for e in labels}
        assert shown == {0: "10", 4: "5", 6: "7", 8: "10", 11: "8"} == {
            square: text for square, text in killer["labels"]}
        assert "r1c1" not in browser.find_element(By.ID, "rules").text
        # The label sits in the square's top left corner, inside the square, on screen.
        cell = browser.find_element(By.CSS_SELECTOR, '#board .cell[data-square="4"]').rect
        label = labels[1].rect
        assert label["width"] > 0 and cell["x"] <= label["x"] < cell["x"] + cell["width"] / 2
        assert cell["y"] <= label["y"] < cell["y"] + cell["height"] / 2
        assert label["x"] + label["width"] <= PHONE[0]
        assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell.shaded")

        browser.find_element(By.ID, "choose").find_elements(By.TAG_NAME, "option")[1].click()
        shaded = wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#board .cell.shaded"))
        diagonals = {i * 6 + i for i in range(6)} | {i * 6 + 5 - i for i in range(6)}
        assert {int(e.get_attribute("data-square")) for e in shaded} == diagonals
        assert set(sudoku_x["shaded"]) == diagonals
        assert not browser.find_elements(By.CSS_SELECTOR, "#board .cell .label")
        colour = lambda i: browser.execute_script(  # noqa: E731
            "return getComputedStyle(document.querySelector("
            "'#board .cell[data-square=\"' + arguments[0] + '\"]')).backgroundColor", i)
        assert colour(7) == "rgb(230, 230, 230)" and colour(1) == "rgb(255, 255, 255)"
        assert "(the shaded squares)" in browser.find_element(By.ID, "rules").text
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
