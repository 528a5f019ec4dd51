"""The play page on a phone (390x844, emulated by Chromium: a touch screen, the page's
viewport) and on a desktop (1366x900), for every type with a play grid (Sudoku 9x9 and
16x16, Fillomino): the board fits the window with nothing scrolling sideways, squares of
digits bring up a number pad, undo and redo, pencil marks, the timer, progress saved in
the browser and restored on a reload, and hints (a square filled in wrong is fixed first;
a hint's reason stays when the board has a conflict). Issue 43. The session's one
browser (conftest.py); every wait is for an event, never for time."""
import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from puzzle_engine import PlayGrid
from puzzle_engine.render import html
from puzzle_engine_plugins.sudoku.logic import ALPHABET
from render_support import cli

PHONE, DESKTOP = (390, 844), (1366, 900)


def _sixteen() -> dict:
    """A 16x16 Sudoku record with a third of its squares open (a pattern solution: quick
    to solve, which is all the page needs)."""
    full = [[(4 * (r % 4) + r // 4 + c) % 16 + 1 for c in range(16)] for r in range(16)]
    grid = [[0 if (r * 16 + c) % 3 == 0 else v for c, v in enumerate(row)]
            for r, row in enumerate(full)]
    return {"type": "sudoku", "params": {"size": 16}, "grid": grid}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """One play page: a Sudoku 9x9, a Sudoku 16x16 and a Fillomino 5x5 (plain hints: the
    explainer's are tested below and in test_render_play.py), and the data it holds."""
    folder = tmp_path_factory.mktemp("page")
    batch = folder / "batch.jsonl"
    batch.write_text(cli("gen", "sudoku", "--seed", 4, "--format", "json").stdout
                     + json.dumps(_sixteen()) + "\n"
                     + cli("gen", "fillomino", "--rows", 5, "--cols", 5, "--seed", 3,
                           "--format", "json").stdout)
    cli("render", batch, "--format", "html", "--no-explain", "--out", folder / "play.html")
    return folder / "play.html", embedded(folder / "play.html")


def embedded(path):
    found = re.search(r'<script type="application/json" id="puzzles">(.*?)</script>',
                      path.read_text(), re.S)
    return json.loads(found.group(1))


@pytest.fixture
def window(browser, tmp_path):
    """Sets the browser's viewport (a phone is a mobile one), and afterwards puts it back
    and forgets saved progress (cleared from a blank page once the play page is left: the
    page saves when it is left)."""
    def size(width, height):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2 if width < 500 else 1,
            "mobile": width < 500})
    yield size
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><title>blank</title>")
    browser.get(blank.as_uri())
    browser.execute_script("window.localStorage.clear()")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def choose(browser, n):
    browser.find_element(By.ID, "choose").find_elements(By.TAG_NAME, "option")[n].click()


def box(browser, i):
    return browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-square="{i}"] input')


def classes(browser, i):
    element = browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-square="{i}"]')
    return set(element.get_attribute("class").split())


def text(browser, element_id):
    return browser.find_element(By.ID, element_id).text


def marks(browser, i):
    """The pencil marks square ``i`` shows."""
    return browser.execute_script(
        "return document.querySelector('#board .cell[data-square=\"' + arguments[0] + "
        "'\"] .marks').textContent", i)


def fits(browser):
    """Whether nothing scrolls sideways: the page no wider than the window, the board's
    right edge inside it."""
    return browser.execute_script(
        "const root = document.documentElement;"
        "return [root.scrollWidth, root.clientWidth,"
        " document.getElementById('board').getBoundingClientRect().right]")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_board_fits_the_window(page, browser, window, size):
    path, puzzles = page
    window(*size)
    browser.get(path.as_uri())
    for n, puzzle in enumerate(puzzles):
        choose(browser, n)
        grid = puzzle["grid"]
        wide, room, right = fits(browser)
        assert wide <= room and right <= room, (n, size, wide, room, right)
        cell = browser.find_element(By.CSS_SELECTOR, "#board .cell").size["width"]
        if size == DESKTOP:
            assert cell == 42  # 2.6rem: as large as before on a desktop
        else:
            assert cell * grid["cols"] <= room and cell >= 20, (n, cell)
        # A number pad where the symbols are digits (9x9 and Fillomino), letters for 16x16.
        first = grid["cells"].index(0)
        pad = ["numeric", None, "numeric"][n]  # 1-9, 1-9 and A-G, Fillomino's numbers
        assert box(browser, first).get_attribute("inputmode") == pad


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_long_label_neither_widens_the_page(browser, window, tmp_path, size):
    """A puzzle selector whose label is long (a 9x9 Fillomino's caption with its options)
    is cut short: the page stays as wide as the window."""
    window(*size)
    grid = PlayGrid(rows=9, cols=9, cells=(0,) * 81, solution=(1,) * 81, rule="solution")
    label = "2. Fillomino · rows 9 · cols 9 · id fillomino/12345/abcdef " + "x" * 120
    page = tmp_path / "long.html"
    page.write_text(html.page([html.Playable(["1. Short"], grid),
                               html.Playable([label], grid)], "Long " + "y" * 150))
    browser.get(page.as_uri())
    wide, room, right = fits(browser)
    assert wide <= room and right <= room


def test_undo_and_redo(page, browser, window):
    """Buttons and keys (Ctrl+Z, Ctrl+Y): a move undone and done again; a new move after
    an undo drops what could be redone."""
    path, puzzles = page
    window(*PHONE)
    browser.get(path.as_uri())
    grid = puzzles[0]["grid"]
    a, b = [i for i, v in enumerate(grid["cells"]) if v == 0][:2]
    box(browser, a).send_keys(ALPHABET[grid["solution"][a] - 1])
    box(browser, b).send_keys(ALPHABET[grid["solution"][b] - 1])
    assert not browser.find_element(By.ID, "undo").get_property("disabled")
    browser.find_element(By.ID, "undo").click()
    assert box(browser, b).get_attribute("value") == ""
    assert box(browser, a).get_attribute("value") != ""
    box(browser, a).send_keys(Keys.CONTROL, "z")
    assert box(browser, a).get_attribute("value") == ""
    assert browser.find_element(By.ID, "undo").get_property("disabled")
    box(browser, a).send_keys(Keys.CONTROL, "y")
    assert box(browser, a).get_attribute("value") == ALPHABET[grid["solution"][a] - 1]
    browser.find_element(By.ID, "redo").click()
    assert box(browser, b).get_attribute("value") == ALPHABET[grid["solution"][b] - 1]
    assert browser.find_element(By.ID, "redo").get_property("disabled")
    browser.find_element(By.ID, "undo").click()
    box(browser, b).send_keys("1")  # a new move: nothing left to redo
    assert browser.find_element(By.ID, "redo").get_property("disabled")


def test_pencil_marks(page, browser, window):
    """With the pencil on, a symbol typed is a candidate of the square (typed again, it
    goes); the square stays empty; marks are undone like moves; an answer hides them."""
    path, puzzles = page
    window(*DESKTOP)
    browser.get(path.as_uri())
    grid = puzzles[0]["grid"]
    i = grid["cells"].index(0)
    to_fill = text(browser, "status")
    browser.find_element(By.ID, "pencil").click()
    assert browser.find_element(By.ID, "pencil").get_attribute("aria-pressed") == "true"
    for key in "352":
        box(browser, i).send_keys(key)
    assert marks(browser, i) == "235" and box(browser, i).get_attribute("value") == ""
    box(browser, i).send_keys("5")
    assert marks(browser, i) == "23"
    assert text(browser, "status") == to_fill
    browser.find_element(By.ID, "undo").click()
    assert marks(browser, i) == "235"
    browser.find_element(By.ID, "pencil").click()
    box(browser, i).send_keys("7")
    assert box(browser, i).get_attribute("value") == "7" and marks(browser, i) == ""
    # Fillomino's numbers: marks as a list.
    choose(browser, 2)
    fillomino = puzzles[2]["grid"]
    j = fillomino["cells"].index(0)
    browser.find_element(By.ID, "pencil").click()
    box(browser, j).send_keys("4")
    box(browser, j).send_keys("2")
    assert marks(browser, j) == "2 4" and box(browser, j).get_attribute("value") == ""


def test_the_timer_runs_until_solved(page, browser, window):
    path, puzzles = page
    window(*PHONE)
    browser.get(path.as_uri())
    first = text(browser, "timer")
    assert re.fullmatch(r"\d+:\d\d", first)
    WebDriverWait(browser, 30).until(lambda b: text(b, "timer") != first)
    browser.find_element(By.ID, "reveal").click()
    saved = browser.execute_script(
        "return JSON.parse(localStorage.getItem('puzzle-engine:' + arguments[0]))",
        puzzles[0]["id"])
    assert saved["solved"] is True and saved["seconds"] >= 1


def test_progress_is_saved_and_restored(page, browser, window):
    """A reload restores the squares filled in and the pencil marks, per puzzle (keyed by
    its id); "Start again" clears them, for good."""
    path, puzzles = page
    window(*PHONE)
    browser.get(path.as_uri())
    grid = puzzles[0]["grid"]
    a, b = [i for i, v in enumerate(grid["cells"]) if v == 0][:2]
    box(browser, a).send_keys("8")
    browser.find_element(By.ID, "pencil").click()
    box(browser, b).send_keys("1")
    box(browser, b).send_keys("6")
    choose(browser, 2)  # another puzzle's progress is its own
    fillomino = puzzles[2]["grid"]
    j = fillomino["cells"].index(0)
    browser.find_element(By.ID, "pencil").click()  # off again
    box(browser, j).send_keys("3")
    assert puzzles[0]["id"].startswith("sudoku/4/")
    browser.refresh()
    assert box(browser, a).get_attribute("value") == "8" and marks(browser, b) == "16"
    assert "restored" in text(browser, "message")
    assert not browser.find_element(By.ID, "undo").get_property("disabled")
    choose(browser, 2)
    assert box(browser, j).get_attribute("value") == "3"
    choose(browser, 0)
    browser.find_element(By.ID, "restart").click()
    assert box(browser, a).get_attribute("value") == "" and marks(browser, b) == ""
    browser.refresh()
    assert box(browser, a).get_attribute("value") == "" and marks(browser, b) == ""
    assert not browser.find_element(By.ID, "message").is_displayed()


def test_a_hint_fixes_a_wrong_square_first_and_its_reason_stays(page, browser, window,
                                                                 tmp_path):
    """With explained steps (Sudoku's): a square filled in wrong is fixed before the next
    step, as Fillomino's plain hints do; the hint's reason stays on its line while the
    board still has a conflict (the status line says so)."""
    path, puzzles = page
    sudoku = dict(puzzles[0])
    grid = sudoku["grid"]
    cells, solution = grid["cells"], grid["solution"]
    last = max(k for k in range(81) if not cells[k])
    board = PlayGrid(rows=9, cols=9, cells=cells, solution=solution, symbols=grid["symbols"],
                     rule="all-different", units=grid["units"], regions=grid["regions"])
    steps = [{"square": last, "value": solution[last], "text": "Only one place is left."}]
    page_file = tmp_path / "steps.html"
    page_file.write_text(html.page([html.Playable(["1. Sudoku"], board, steps=steps)], "Steps"))
    window(*DESKTOP)
    browser.get(page_file.as_uri())

    def clash(i):
        """A symbol for square i that a given of its row holds (a conflict, and wrong)."""
        row = range(i // 9 * 9, i // 9 * 9 + 9)
        return next(ALPHABET[cells[j] - 1] for j in row if cells[j] and cells[j] != solution[i])

    wrong = [k for k in range(81) if not cells[k] and k != last
             and any(cells[j] for j in range(k // 9 * 9, k // 9 * 9 + 9))][:2]
    for k in wrong:
        box(browser, k).send_keys(clash(k))
    browser.find_element(By.ID, "hint").click()
    first = min(wrong)
    assert "hint" in classes(browser, first)
    assert box(browser, first).get_attribute("value") == ALPHABET[solution[first] - 1]
    assert text(browser, "message") == (f"Hint: row {first // 9 + 1}, column {first % 9 + 1} "
                                        f"was wrong; it is {ALPHABET[solution[first] - 1]}.")
    assert "in conflict" in text(browser, "status")
    browser.find_element(By.ID, "hint").click()  # the other wrong square, then the step
    browser.find_element(By.ID, "hint").click()
    assert "hint" in classes(browser, last)
    assert text(browser, "message") == "Only one place is left."


def test_steps_past_one_the_solution_disagrees_with_are_not_followed(page, browser, window,
                                                                    tmp_path):
    """A puzzle with several solutions: the explainer's steps may go another way than the
    page's solution; the page follows them up to the first that disagrees, then gives its
    plain hint (the first empty square)."""
    _, puzzles = page
    grid = puzzles[2]["grid"]  # the Fillomino: numbers, no symbols
    cells, solution = grid["cells"], grid["solution"]
    opened = [k for k, v in enumerate(cells) if v == 0]
    a, b, c = opened[-1], opened[-2], opened[-3]
    board = PlayGrid(rows=grid["rows"], cols=grid["cols"], cells=cells, solution=solution,
                     rule="region-size")
    steps = [{"square": a, "value": solution[a], "text": "First."},
             {"square": b, "value": solution[b] + 1, "text": "Another way."},
             {"square": c, "value": solution[c], "text": "After it."}]
    page_file = tmp_path / "other.html"
    page_file.write_text(html.page([html.Playable(["1. Fillomino"], board, steps=steps)], "x"))
    window(*DESKTOP)
    browser.get(page_file.as_uri())
    browser.find_element(By.ID, "hint").click()
    assert text(browser, "message") == "First."
    browser.find_element(By.ID, "hint").click()
    first = opened[0]
    assert "hint" in classes(browser, first)
    assert text(browser, "message") == (f"Hint: row {first // grid['cols'] + 1}, column "
                                        f"{first % grid['cols'] + 1} is {solution[first]}.")


#: A 9x9 Sudoku (gen sudoku --count 100 --seed 1, its second) whose explanation has costly
#: rounds (reasons of two groups) between easy ones: 1.5 s of CPU, against 0.2 s for most.
HARD = ".4..2...8...........8..5392......45.1...9..7...5.....33..84..2....1.....76...3..9"


def test_a_tiny_budget_still_gives_the_first_step(tmp_path):
    """--explain-seconds stops the explainer between rounds, but never before its first
    round: a page never holds no step where the explainer can give one (a 4x4)."""
    batch = tmp_path / "four.jsonl"
    batch.write_text(cli("gen", "sudoku", "--size", 4, "--seed", 2, "--format", "json").stdout)
    cli("render", batch, "--explain-seconds", "0.000000001", "--out", tmp_path / "short.html")
    (puzzle,) = embedded(tmp_path / "short.html")
    assert puzzle["steps"] and all(step["text"] for step in puzzle["steps"])


def test_past_the_budget_the_easy_steps_are_still_explained(tmp_path):
    """Past its budget the explainer skips the costly rounds, not the easy steps after
    them: a placement for every open square, in the solution; most explained, a few
    placed without a reason (the page's plain hint for them)."""
    batch = tmp_path / "hard.jsonl"
    grid = [[int(ch) if ch != "." else 0 for ch in HARD[r * 9:r * 9 + 9]] for r in range(9)]
    batch.write_text(json.dumps({"type": "sudoku", "params": {"size": 9}, "grid": grid}))
    cli("render", batch, "--explain-seconds", "0.01", "--out", tmp_path / "hard.html")
    (puzzle,) = embedded(tmp_path / "hard.html")
    solution = puzzle["grid"]["solution"]
    steps = puzzle["steps"]
    assert sorted(s["square"] for s in steps) == [k for k, ch in enumerate(HARD) if ch == "."]
    assert all(s["value"] == solution[s["square"]] for s in steps)
    explained = [s for s in steps if s["text"]]
    assert 0 < len(steps) - len(explained) < len(explained)
