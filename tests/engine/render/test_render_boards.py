"""The play page's boards beyond the grid (issues 42 and 43), in a real browser (Debian's
headless Chromium through Selenium), on a phone (390x844) and a desktop (1366x900): a
logic puzzle's question (choose an option or type the answer, check, hint, reveal),
Polyomino Math's pieces (place, turn, take off, the score against the optimum, reveal)
and Combination's pieces (place and take off pieces of each colour, the attacked ones
marked, what is left counted, the explained hint). One browser serves the module."""
import json
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from puzzle_engine.plugins import get_host
from puzzle_engine.render.document import play_page
from puzzle_engine.render.sources import open_source
from render_support import cli, records
from support import COMBINATION_LEVEL

pytestmark = pytest.mark.slow

SIZES = [(390, 844), (1366, 900)]


@pytest.fixture(scope="module")
def driver(chromium):
    """The session's Chromium (tests/conftest.py); ``browser`` here is it at a size."""
    return chromium


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def browser(driver, request):
    """The browser with its viewport at the size (a phone's is emulated: a headless
    window is never narrower than 500 px)."""
    width, height = request.param
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
    return driver


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """One page of puzzles made by the real solvers: a logic puzzle with options, one with
    a typed answer, a Polyomino Math board and a Combination level."""
    folder = tmp_path_factory.mktemp("boards")
    batch = folder / "batch.jsonl"
    batch.write_text(
        cli("gen", "logic", "--spec", "knights-knaves", "--seed", 1, "--format", "json").stdout
        + cli("gen", "logic", "--spec", "knapsack", "--seed", 1, "--format", "json").stdout
        + cli("gen", "polyomino-math", "--rows", 3, "--cols", 4, "--seed", 1,
              "--format", "json").stdout
        + json.dumps(COMBINATION_LEVEL) + "\n")
    cli("render", batch, "--format", "html", "--no-explain", "--out", folder / "play.html")
    return folder, records(batch)


def afresh(browser):
    """The puzzle shown started again: where the page saves progress in the browser
    (under the puzzle's id), an earlier test's is dropped."""
    browser.find_element(By.ID, "restart").click()


def open_page(browser, page):
    browser.get(page.as_uri())
    afresh(browser)


def choose(browser, page, n):
    browser.get(page.as_uri())
    browser.execute_script("const s = document.getElementById('choose'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('change'));", n)
    afresh(browser)


def status(browser):
    """The board's state ("Solved!", "1 piece attacked.")."""
    return browser.find_element(By.ID, "status").text


def said(browser):
    """The last message (a hint's reason, a move refused): on the page's message line
    where it has one, else on the status line, until the next move."""
    lines = browser.find_elements(By.ID, "message")
    return lines[0].text if lines and lines[0].is_displayed() else status(browser)


def click(browser, selector):
    browser.find_element(By.CSS_SELECTOR, selector).click()


def check(browser):
    """Press Check: the page's own button where it has one, else the board's."""
    shell = browser.find_elements(By.ID, "check")
    (shell[0] if shell and shell[0].is_displayed() else
     browser.find_element(By.CSS_SELECTOR, ".choice .check")).click()


def no_sideways_scroll(browser):
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, (width, inner)


def square(browser, i):
    return browser.find_element(By.CSS_SELECTOR, f'.piece-board .square[data-square="{i}"]')


def classes(element):
    return set(element.get_attribute("class").split())


def test_a_logic_question_is_chosen_checked_hinted_and_revealed(pages, browser):
    folder, batch = pages
    record = batch[0]
    choose(browser, folder / "play.html", 0)
    no_sideways_scroll(browser)
    question = browser.find_element(By.CSS_SELECTOR, ".choice .question").text
    assert question in record["problem"] and "\nA. " not in question
    radios = browser.find_elements(By.CSS_SELECTOR, ".choice input[type=radio]")
    labels = [r.find_element(By.XPATH, "..") for r in radios]
    assert [label.text.split(".")[0] for label in labels] == ["A", "B", "C"]
    right = record["answer"]
    wrong = next(k for k in range(len(radios)) if k != right)
    check(browser)
    assert said(browser) == "Choose an option first."
    radios[wrong].click()
    check(browser)
    assert said(browser) == "Not that one: try again."
    assert "wrong" in classes(labels[wrong])
    # A hint rules out a wrong option; hints stop when only the answer is left.
    for _ in range(len(radios) - 1):
        browser.find_element(By.ID, "hint").click()
        assert said(browser).startswith("Hint: it is not ")
    assert [r.is_enabled() for r in radios] == [k == right for k in range(len(radios))]
    browser.find_element(By.ID, "hint").click()
    assert said(browser) == "Nothing left to hint: only the answer is left."
    radios[right].click()
    check(browser)
    assert status(browser) == "Right! Solved."
    browser.find_element(By.ID, "reveal").click()
    assert status(browser).startswith(f"The answer is {record['key']}. ")
    assert "right" in classes(labels[right]) and radios[right].is_selected()


def test_a_typed_answer_is_checked_in_any_order(pages, browser):
    folder, batch = pages
    record = batch[1]
    items = [item.strip() for item in record["key"].split(",")]
    assert len(items) > 1
    choose(browser, folder / "play.html", 1)
    no_sideways_scroll(browser)
    box = browser.find_element(By.CSS_SELECTOR, ".choice input.answer")
    box.send_keys("tent")
    check(browser)
    assert said(browser) == "Not that: try again." and "wrong" in classes(box)
    box.clear()
    box.send_keys(" , ".join(reversed(items)).upper() + "\n")  # Enter checks too
    assert status(browser) == "Right! Solved." and "right" in classes(box)
    browser.find_element(By.ID, "reveal").click()
    assert box.get_attribute("value") == record["key"]


def test_polyomino_pieces_are_placed_turned_and_scored(pages, browser):
    folder, batch = pages
    record = batch[2]
    numbers = [v for row in record["numbers"] for v in row]
    cols = len(record["numbers"][0])
    choose(browser, folder / "play.html", 2)
    no_sideways_scroll(browser)
    assert status(browser) == f"Score 0 of the best {record['score']}; 4 pieces left to place."
    assert browser.find_element(By.CSS_SELECTOR, ".turning").get_attribute("hidden")
    chips = browser.find_elements(By.CSS_SELECTOR, ".tray .chip")
    assert [c.text.split()[0] for c in chips] == ["I3", "L3"]
    chips[0].click()  # I3 lies along a row: turned, it stands in the first column
    click(browser, ".turning .turn")
    square(browser, 0).click()
    covered = [0, cols, 2 * cols]
    best = max(sum(numbers[i] for i in covered), numbers[0] * numbers[cols] * numbers[2 * cols])
    assert [i for i in range(len(numbers)) if "placed" in classes(square(browser, i))] == covered
    assert status(browser).startswith(f"Score {best} of the best {record['score']}; 3 pieces")
    assert chips[0].text.endswith("\u00d71")
    # Where it does not fit (over a piece, or off the board), a piece is refused.
    square(browser, cols * 2 + 1).click()
    assert said(browser) == "I3 does not fit there."
    # A placed piece taken off by a tap.
    square(browser, cols).click()
    assert status(browser).startswith("Score 0 of the best")
    assert chips[0].text.endswith("\u00d72")
    browser.find_element(By.ID, "hint").click()
    assert said(browser).startswith("Hint: ") and \
        browser.find_elements(By.CSS_SELECTOR, ".square.hint")
    browser.find_element(By.ID, "reveal").click()
    assert status(browser) == f"The solution is shown: score {record['score']}."
    assert all("placed" in classes(square(browser, i)) for i in range(len(numbers)))


def test_combination_pieces_attack_count_and_hint(pages, browser, tmp_path):
    folder, batch = pages
    choose(browser, folder / "play.html", 3)
    no_sideways_scroll(browser)
    assert status(browser) == "10 pieces left to place, none attacked."
    chips = browser.find_elements(By.CSS_SELECTOR, ".tray .chip")
    names = [c.find_element(By.CSS_SELECTOR, ".name").text for c in chips]
    assert names == ["bishop b", "queen b", "queen a", "rook b", "rook a", "bishop a"]
    by_name = dict(zip(names, chips))
    # A rook of colour a and a bishop of colour b on one row: the rook attacks the bishop.
    by_name["rook a"].click()
    square(browser, 0).click()
    by_name["bishop b"].click()
    square(browser, 3).click()
    assert "attacked" in classes(square(browser, 3))
    assert "attacked" not in classes(square(browser, 0))
    assert status(browser) == "1 piece attacked."
    assert by_name["rook a"].text.endswith("\u00d70")
    assert "8 pieces left to place" in browser.find_element(By.CSS_SELECTOR, ".score").text
    # Every rook a is placed: another is refused.
    by_name["rook a"].click()
    square(browser, 5).click()
    assert said(browser) == "Every rook a is placed already."
    # Taken off, the attack is gone.
    square(browser, 0).click()
    assert status(browser) == "9 pieces left to place, none attacked."
    assert "attacked" not in classes(square(browser, 3))
    browser.find_element(By.ID, "reveal").click()
    assert status(browser) == "The solution is shown."
    assert not browser.find_elements(By.CSS_SELECTOR, ".square.attacked")


def test_a_combination_hint_follows_the_explained_steps(pages, browser, tmp_path):
    """The explainer's seam: its steps name a square and the explainer's value of a piece
    (4 x colour + attack); a hint places that piece there and says the step's reason,
    and a step that leaves a square empty takes off what stands there."""
    folder, _ = pages
    html = (folder / "play.html").read_text()
    data = json.loads(re.search(r'id="puzzles">(.*?)</script>', html).group(1))[3]["grid"]
    # The solution the page was given, as the model's values.
    solution = list(data["cells"])  # 0 empty, -1 wall, -2 hole: as the model has them
    for k, squares in data["solution"]:
        solution[squares[0]] = data["kinds"][k]["value"]
    queen_a = solution.index(4 * 1 + 3)
    empty = solution.index(0)
    entries = list(open_source(get_host(), str(folder / "batch.jsonl")).entries())[3:]

    def steps(entry, answer):
        assert list(answer) == solution
        return [{"square": empty, "value": 0, "text": "An empty square, by row 1."},
                {"square": queen_a, "value": 4 * 1 + 3, "text": "A queen a here, by the count."}]

    page = tmp_path / "steps.html"
    page.write_text(play_page(entries, lambda entry: tuple(solution), "Steps", steps))
    open_page(browser, page)
    chips = browser.find_elements(By.CSS_SELECTOR, ".tray .chip")
    chips[0].click()  # a bishop b on the square the first step leaves empty
    square(browser, empty).click()
    assert "placed" in classes(square(browser, empty))
    browser.find_element(By.ID, "hint").click()
    assert said(browser) == "An empty square, by row 1."
    assert "placed" not in classes(square(browser, empty))
    browser.find_element(By.ID, "hint").click()
    assert said(browser) == "A queen a here, by the count."
    placed = square(browser, queen_a)
    assert {"placed", "hint"} <= classes(placed) and "\u265ba" in placed.text
    # Past the steps, a plain hint puts on a piece of the solution.
    browser.find_element(By.ID, "hint").click()
    assert said(browser).startswith("Hint: ") and " goes on row " in said(browser)


LEVEL_3X3 = {"type": "combination", "params": {"width": 3, "height": 3, "colours": 2,
                                              "walls": 1, "holes": 0,
                                              "pieces": "rook,bishop,queen"},
             "board": ["...", "...", "..o"], "pieces": "4 queen a, 1 bishop b, 2 bishop a"}


def test_a_combination_hint_is_the_explainers_step_end_to_end(driver, tmp_path):
    """render explains the level (the real explainer, on a 3x3 level where it is quick)
    and the page's hints follow its steps: the first placement puts that piece on its
    square, with the step's reasons."""
    level = tmp_path / "level.jsonl"
    level.write_text(json.dumps(LEVEL_3X3) + "\n")
    page = tmp_path / "explained.html"
    cli("render", level, "--format", "html", "--explain-seconds", 300, "--out", page)
    data = json.loads(re.search(r'id="puzzles">(.*?)</script>', page.read_text()).group(1))[0]
    steps = data["steps"]
    first = next(k for k, s in enumerate(steps) if s["value"] > 0)
    kind = next(k for k in data["grid"]["kinds"] if k["value"] == steps[first]["value"])
    # its sentence ends with the placement, in Combination's words ("... holds bishop b")
    assert steps[first]["text"].split("\n")[-1].endswith(f"holds {kind['name']}")
    open_page(driver, page)
    # Steps that find a square empty change nothing on an empty board: the first hint
    # is the first placement.
    driver.find_element(By.ID, "hint").click()
    assert said(driver).split("\n") == [" ".join(line.split())  # pre-line: spaces run
                                          for line in steps[first]["text"].split("\n")]
    placed = square(driver, steps[first]["square"])
    assert {"placed", "hint"} <= classes(placed) and kind["symbol"] in placed.text


def test_a_board_saves_and_loads_what_the_player_did(pages, driver):
    """The hooks the page's undo, redo and saved progress use: each move is reported
    (page.moved), save() gives the board's state as plain JSON, load() goes back to it."""
    folder, batch = pages
    driver.get((folder / "play.html").as_uri())
    moves, saved, taken_off, loaded, placed, choice = driver.execute_script("""
        const kinds = window.PuzzleEngine ? window.PuzzleEngine.kinds : window.puzzleEngineBoards;
        const data = JSON.parse(document.getElementById('puzzles').textContent);
        function fake() {
          const element = document.createElement('div');
          document.body.appendChild(element);
          return {element: element, moves: 0, said: '', say(t) { this.said = t; },
                  status(t) { this.last = t; }, moved() { this.moves += 1; }};
        }
        const page = fake(), board = kinds.pieces(data[3], page);
        page.element.querySelector('.chip[data-kind="4"]').click();
        page.element.querySelector('.square[data-square="0"]').click();
        const saved = JSON.parse(JSON.stringify(board.save()));
        page.element.querySelector('.square[data-square="0"]').click();
        const off = page.last;
        board.load(saved);
        const ask = fake(), question = kinds.choice(data[0], ask);
        ask.element.querySelectorAll('input[type=radio]')[data[0].grid.answer].click();
        const state = JSON.parse(JSON.stringify(question.save()));
        question.reveal();
        question.load(state);
        return [page.moves, saved, off, page.last,
                page.element.querySelectorAll('.square.placed').length,
                [ask.moves, question.save().choice, question.solved()]];
    """)
    assert moves == 2 and saved["placed"] == [[4, [0], ""]]
    assert taken_off == "10 pieces left to place, none attacked."
    assert loaded == "9 pieces left to place, none attacked." and placed == 1
    assert choice == [2, batch[0]["answer"], False]  # chosen, not checked: not solved yet
