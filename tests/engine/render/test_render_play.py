"""The HTML play page in a real browser (issue 29): Debian's headless Chromium, driven by
Selenium through Debian's chromedriver (scripts/test.sh installs both; conftest.py's
one browser for the session). A person types a
wrong symbol and a right one, and sees the conflict highlighted and cleared; asks for a
hint and gets one square of the solution; reveals the whole solution. The page makes no
request: it is one file."""
import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from puzzle_engine import PlayGrid
from puzzle_engine.cli import app
from puzzle_engine.plugins import get_host
from puzzle_engine.render import html
from puzzle_engine.render.document import play_page
from puzzle_engine.render.sources import open_source
from puzzle_engine_plugins.sudoku.logic import ALPHABET
from render_support import cli, records, runner
from support import COMBINATION_LEVEL as LEVEL

CONFLICT = "rgba(255, 156, 156, 1)"  # .cell.conflict in play.css
PLAIN = "rgba(255, 255, 255, 1)"


@pytest.fixture(autouse=True)
def forget(browser, tmp_path):
    """Each test starts with no saved progress: the page keeps it in localStorage, which
    every file:// page shares, and saves it when left, so it is cleared from a blank page
    after the play page is left."""
    yield
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><title>blank</title>")
    browser.get(blank.as_uri())
    browser.execute_script("window.localStorage.clear()")


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Play pages of puzzles made by the real solvers: a Sudoku and a Fillomino on one
    page, and a Combination level (a type with a drawing and no play board)."""
    folder = tmp_path_factory.mktemp("play")
    batch = folder / "batch.jsonl"
    batch.write_text(cli("gen", "sudoku", "--seed", 4, "--format", "json").stdout
                     + cli("gen", "fillomino", "--rows", 5, "--cols", 5, "--seed", 3,
                           "--format", "json").stdout)
    level = folder / "level.jsonl"
    level.write_text(json.dumps(LEVEL) + "\n")
    # Plain hints (the explainer's are tested on a 4x4 below, where they are cheap).
    cli("render", batch, "--format", "html", "--no-explain", "--out", folder / "play.html")
    cli("render", level, "--out", folder / "level.html")
    return folder, records(batch)


def cell(browser, i):
    return browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-square="{i}"]')


def state(browser, i):
    """(classes, background colour) of square ``i``."""
    element = cell(browser, i)
    return (set(element.get_attribute("class").split()),
            element.value_of_css_property("background-color"))


def typed(browser, i, text):
    box = cell(browser, i).find_element(By.TAG_NAME, "input")
    box.clear()
    box.send_keys(text)
    return box


def status(browser):
    return browser.find_element(By.ID, "status").text


def message(browser):
    """The message line: a hint's reason, a refused key (the status line says the board's
    state)."""
    return browser.find_element(By.ID, "message").text


def test_the_page_is_one_file_that_asks_for_nothing(pages, browser):
    folder, _ = pages
    html = (folder / "play.html").read_text()
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", html)
    assert "default-src 'none'" in html
    browser.get((folder / "play.html").as_uri())
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_sudoku_conflicts_hint_and_solution(pages, browser):
    folder, (sudoku, _) = pages
    grid = [v for row in sudoku["grid"] for v in row]
    solution = [v for row in sudoku["solution"] for v in row]
    browser.get((folder / "play.html").as_uri())
    assert "row, column" in browser.find_element(By.ID, "rules").text
    # An open square whose row holds a given that is not its answer: typing that given's
    # symbol clashes with it.
    i, j = next((i, j) for i in range(81) if not grid[i]
                for j in range(i // 9 * 9, i // 9 * 9 + 9) if grid[j] and grid[j] != solution[i])
    typed(browser, i, ALPHABET[grid[j] - 1])
    for k in (i, j):
        classes, colour = state(browser, k)
        assert "conflict" in classes and colour == CONFLICT, (k, classes, colour)
    assert "in conflict" in status(browser)
    box = typed(browser, i, ALPHABET[solution[i] - 1])
    assert box.get_attribute("value") == ALPHABET[solution[i] - 1]
    for k in (i, j):
        classes, colour = state(browser, k)
        assert "conflict" not in classes and colour == PLAIN, (k, classes, colour)
    # Not a symbol of the board: refused, and said so.
    typed(browser, i, "x")
    assert "not a symbol" in message(browser)
    # A hint fills in one square, the first still empty, with its answer.
    browser.find_element(By.ID, "hint").click()
    first = next(k for k in range(81) if not grid[k] and k != i)
    hinted = [k for k in range(81) if "hint" in state(browser, k)[0]]
    assert hinted == [first]
    value = cell(browser, first).find_element(By.TAG_NAME, "input").get_attribute("value")
    assert value == ALPHABET[solution[first] - 1]
    assert f"row {first // 9 + 1}, column {first % 9 + 1}" in message(browser)
    # "Show mistakes" marks a square that differs from the solution, conflict or not.
    wrong = next(k for k in range(81) if not grid[k] and k != first)
    typed(browser, wrong, ALPHABET[solution[wrong] % 9])
    browser.find_element(By.ID, "mistakes").click()
    assert "wrong" in state(browser, wrong)[0]
    # Revealing the solution fills every open square with its answer.
    browser.find_element(By.ID, "reveal").click()
    values = browser.execute_script(
        "return [...document.querySelectorAll('#board .cell')].map("
        "c => c.querySelector('input') ? c.querySelector('input').value : c.textContent)")
    assert values == [ALPHABET[v - 1] for v in solution]
    assert status(browser) == "The solution is shown."


def test_fillomino_region_sizes(pages, browser):
    folder, (_, fillomino) = pages
    grid = [v for row in fillomino["grid"] for v in row]
    solution = [v for row in fillomino["solution"] for v in row]
    browser.get((folder / "play.html").as_uri())
    choose = browser.find_element(By.ID, "choose")
    choose.find_elements(By.TAG_NAME, "option")[1].click()
    assert "region" in browser.find_element(By.ID, "rules").text

    def beside(i):
        r, c = divmod(i, 5)
        return [r2 * 5 + c2 for r2, c2 in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= r2 < 5 and 0 <= c2 < 5]

    # An open square beside a given 1: a 1 there makes a region of two 1s, too large.
    i, j = next((i, j) for i in range(25) if not grid[i] for j in beside(i) if grid[j] == 1)
    typed(browser, i, "1")
    for k in (i, j):
        classes, colour = state(browser, k)
        assert "conflict" in classes and colour == CONFLICT, (k, classes, colour)
    typed(browser, i, str(solution[i]))
    for k in (i, j):
        assert "conflict" not in state(browser, k)[0]
    # Its region's border shows once its neighbours differ: a thick line between the
    # typed square and the given 1.
    left, right = sorted((i, j))
    side = "thick-right" if right == left + 1 else "thick-bottom"
    assert side in state(browser, left)[0]
    browser.find_element(By.ID, "hint").click()
    hinted = [k for k in range(25) if "hint" in state(browser, k)[0]]
    assert len(hinted) == 1 and not grid[hinted[0]]
    value = cell(browser, hinted[0]).find_element(By.TAG_NAME, "input").get_attribute("value")
    assert value == str(solution[hinted[0]])


def test_a_type_without_a_play_board_shows_its_drawing(browser, tmp_path):
    # Every built-in type has a board now (Combination's: test_render_boards.py).
    svg = "<svg xmlns='http://www.w3.org/2000/svg' width='9' height='9'><rect width='4' height='4'/></svg>"
    page = tmp_path / "drawn.html"
    page.write_text(html.page([html.Playable(["1. drawn"], None, svg, rules="Draw.")], "Drawn"))
    browser.get(page.as_uri())
    assert browser.find_elements(By.CSS_SELECTOR, "#board svg")
    assert not browser.find_element(By.ID, "controls").is_displayed()
    assert "no play board" in browser.find_element(By.ID, "rules").text


def test_a_hint_follows_the_explained_steps_when_given(pages, browser, tmp_path):
    """The explainer's seam: given steps, a hint fills in the next step's square (not the
    first empty one) and shows the step's text."""
    folder, (sudoku, _) = pages
    host = get_host()
    entries = list(open_source(host, str(folder / "batch.jsonl")).entries())[:1]
    grid = [v for row in sudoku["grid"] for v in row]
    solution = [v for row in sudoku["solution"] for v in row]
    last = max(k for k in range(81) if not grid[k])

    def steps(entry, answer):
        assert list(answer) == solution
        return [{"square": last, "value": solution[last], "text": "Only one place is left."}]

    page = tmp_path / "steps.html"
    page.write_text(play_page(entries, lambda entry: tuple(solution), "Steps", steps))
    browser.get(page.as_uri())
    browser.find_element(By.ID, "hint").click()
    assert [k for k in range(81) if "hint" in state(browser, k)[0]] == [last]
    assert message(browser) == "Only one place is left."


def test_a_types_own_rule_runs_in_the_page(browser, tmp_path):
    """The rule 'script': the type's JavaScript marks the conflicts (here: an odd number
    beside an odd number). Another type's broken rule (one that throws, one that returns
    no list, one that does not parse) breaks neither it nor the page: its board shows no
    conflicts and says why."""
    def board(script):
        return PlayGrid(rows=1, cols=3, cells=(1, 0, 0), solution=(1, 2, 3), rule="script",
                        script=script, rules="No two odd numbers side by side.")

    odd = board("(values, grid) => values.flatMap((v, i) => v % 2 === 1 && "
                "(values[i - 1] % 2 === 1 || values[i + 1] % 2 === 1) ? [i] : []) // odd")
    broken = [board("() => { throw new Error('oops'); }"), board("() => 7"),
              board("() => { return [1; }")]
    page = tmp_path / "own.html"
    page.write_text(html.page([html.Playable([f"{k}. own"], b)
                               for k, b in enumerate([*broken[:2], odd, broken[2]], 1)],
                              "Own rule"))
    browser.get(page.as_uri())
    options = browser.find_element(By.ID, "choose").find_elements(By.TAG_NAME, "option")
    options[2].click()
    typed(browser, 1, "3")
    assert [k for k in range(3) if "conflict" in state(browser, k)[0]] == [0, 1]
    typed(browser, 1, "2")
    assert not any("conflict" in state(browser, k)[0] for k in range(3))
    assert status(browser) == "1 square to fill."
    for k, why in ((0, "(oops)"), (1, "(it returned number, not a list)"),
                   (3, "(it did not load)")):
        options[k].click()
        typed(browser, 1, "3")
        assert not any("conflict" in state(browser, j)[0] for j in range(3))
        assert status(browser) == (f"This puzzle's own rule failed {why}, so conflicts are "
                                   "not shown; 1 square to fill.")


def test_typing_over_a_symbol_and_arrow_keys(pages, browser):
    """A key typed over a filled square replaces its symbol, with the caret before or
    after it; arrow keys move along a row and stop at its end."""
    folder, (sudoku, _) = pages
    grid = [v for row in sudoku["grid"] for v in row]
    browser.get((folder / "play.html").as_uri())
    i = next(k for k in range(81) if not grid[k])
    box = typed(browser, i, "3")
    box.send_keys(Keys.HOME, "5")  # the caret in front of the 3
    assert box.get_attribute("value") == "5"
    box.send_keys(Keys.END, "7")
    assert box.get_attribute("value") == "7"
    box.click()  # entering a square selects its symbol: the next key replaces it
    box.send_keys("2")
    assert box.get_attribute("value") == "2"

    def focused():
        return int(browser.switch_to.active_element.get_attribute("data-square"))

    # The last open square of a row (not the last row): no open square after it in its
    # row, so ArrowRight stays (it used to wrap to the next row); ArrowLeft goes to the
    # open square before it.
    def opens(squares):
        return [m for m in squares if not grid[m]]

    last, before = next((k, opens(range(k // 9 * 9, k))[-1]) for k in opens(range(72))
                        if not opens(range(k + 1, k // 9 * 9 + 9))
                        and opens(range(k // 9 * 9, k)))
    cell(browser, last).find_element(By.TAG_NAME, "input").click()
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert focused() == last
    browser.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert focused() == before


def embedded(page):
    """The puzzles a play page holds (its JSON data island)."""
    found = re.search(r'<script type="application/json" id="puzzles">(.*?)</script>',
                      page.read_text(), re.S)
    return json.loads(found.group(1))


def explain_lines(line, *args):
    """``puzzle-engine explain sudoku LINE``: its JSON record and its text's step lines."""
    as_json = runner.invoke(app, ["explain", "sudoku", line, "--format", "json", *args])
    as_text = runner.invoke(app, ["explain", "sudoku", line, *args])
    assert as_json.exit_code == as_text.exit_code in (0, 1), as_text.output
    steps = [re.sub(r"^ *\d+\. ", "", text) for text in as_text.stdout.splitlines()
             if re.match(r" *\d+\. ", text)]
    return json.loads(as_json.stdout), steps


@pytest.fixture(scope="module")
def explained(tmp_path_factory):
    """A real 4x4 Sudoku rendered to a play page with explained hints (the default), and
    the same puzzle's explanation by 'puzzle-engine explain'."""
    folder = tmp_path_factory.mktemp("explained")
    batch = folder / "four.jsonl"
    batch.write_text(cli("gen", "sudoku", "--size", 4, "--seed", 2, "--format", "json").stdout)
    cli("render", batch, "--out", folder / "four.html")
    (record,) = records(batch)
    line = "".join(str(v or ".") for row in record["grid"] for v in row)
    return folder / "four.html", record, explain_lines(line)


def test_the_page_holds_the_explainers_placements(explained):
    """The page's steps are explain's "=" steps, in order; each hint's text is explain's
    sentence for it, after the sentences of the eliminations it rests on that explain
    shows (in explain's order, each shown once on the page; plain eliminations are folded
    into the sentence that uses them, issue 41)."""
    page, _, (report, lines) = explained
    (puzzle,) = embedded(page)
    placements = [s for s in report["steps"] if s["relation"] == "="]
    assert report["solved"] and placements
    assert [(s["square"], s["value"]) for s in puzzle["steps"]] == \
        [(s["square"], s["value"]) for s in placements]
    eliminations = [text for text in lines if text not in {s["text"] for s in placements}]
    shown = []
    for step, placement in zip(puzzle["steps"], placements):
        *before, own = step["text"].split("\n")
        assert own == placement["text"] and own in lines and placement["technique"] in \
            ("full house", "hidden single", "naked single", "naked subset", "hidden subset")
        assert all(text in eliminations for text in before)
        assert before == sorted(before, key=lines.index)
        shown += before
    assert len(shown) == len(set(shown))


def test_a_hint_fills_in_the_first_explained_square(explained, browser):
    page, record, _ = explained
    (puzzle,) = embedded(page)
    first = puzzle["steps"][0]
    solution = [v for row in record["solution"] for v in row]
    browser.get(page.as_uri())
    browser.find_element(By.ID, "hint").click()
    assert [k for k in range(16) if "hint" in state(browser, k)[0]] == [first["square"]]
    value = cell(browser, first["square"]).find_element(By.TAG_NAME, "input").get_attribute("value")
    assert value == ALPHABET[solution[first["square"]] - 1] == ALPHABET[first["value"] - 1]
    # One line a step (the page collapses runs of spaces, as HTML does).
    assert message(browser).split("\n") == [" ".join(text.split())
                                            for text in first["text"].split("\n")]
    # (the plain eliminations it rests on are folded into its sentence: issue 41)
    assert first["text"].startswith(("Hidden single: ", "Full house: ", "Naked single: "))


def test_a_puzzle_that_needs_search_has_the_steps_so_far(tmp_path, browser):
    """Two solutions (r1c1, r1c4, r2c1, r2c4 can be 2 4 4 2 or 4 2 2 4): the page holds
    the placements explain makes before it needs search (past them, the page's plain
    hint); --no-explain holds none."""
    line = "..1..1..34...24."
    report, _ = explain_lines(line)
    assert report["needs_search"] and not report["solved"]
    placements = [(s["square"], s["value"]) for s in report["steps"] if s["relation"] == "="]
    assert placements
    batch = tmp_path / "two.jsonl"
    batch.write_text(json.dumps({"type": "sudoku", "params": {"size": 4}, "grid": [
        [int(ch) if ch != "." else 0 for ch in line[r * 4:r * 4 + 4]] for r in range(4)]}))
    cli("render", batch, "--out", tmp_path / "two.html")
    cli("render", batch, "--no-explain", "--out", tmp_path / "plain.html")
    assert [(s["square"], s["value"]) for s in embedded(tmp_path / "two.html")[0]["steps"]] \
        == placements
    assert embedded(tmp_path / "plain.html")[0]["steps"] == []
    # In the page: a hint a placement, then the plain hint (the first square still empty).
    browser.get((tmp_path / "two.html").as_uri())
    for _ in placements:
        browser.find_element(By.ID, "hint").click()
    assert {k for k in range(16) if "hint" in state(browser, k)[0]} == {k for k, _ in placements}
    browser.find_element(By.ID, "hint").click()
    first = next(k for k in range(16) if line[k] == "." and k not in dict(placements))
    assert "hint" in state(browser, first)[0]
    assert message(browser).startswith(f"Hint: row {first // 4 + 1}, column {first % 4 + 1}")


def test_the_explainers_time_is_bounded_per_puzzle(pages, tmp_path):
    """--explain-seconds stops the explainer between rounds, though never before its first
    round: the page starts as explain does, and past the budget goes on cheaply, so that
    it still has a placement for every open square. A budget that is not positive is one
    line."""
    folder, (sudoku, _) = pages
    line = "".join(str(v or ".") for row in sudoku["grid"] for v in row)
    explained = runner.invoke(app, ["explain", "sudoku", line, "--format", "json"])
    full = [(s["square"], s["value"]) for s in json.loads(explained.stdout)["steps"]
            if s["relation"] == "="]
    batch = tmp_path / "nine.jsonl"
    batch.write_text(json.dumps(sudoku) + "\n")
    cli("render", batch, "--explain-seconds", "0.000001", "--out", tmp_path / "short.html")
    short = [(s["square"], s["value"]) for s in embedded(tmp_path / "short.html")[0]["steps"]]
    assert short[:1] == full[:1] and sorted(short) == sorted(full)
    bad = runner.invoke(app, ["render", str(batch), "--explain-seconds", "0",
                              "--out", str(tmp_path / "bad.html")])
    assert bad.exit_code == 2 and "bad --explain-seconds 0" in bad.output
