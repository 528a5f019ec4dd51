"""Killer's play page in a real browser (headless Chromium through Selenium, as
tests/engine/render/test_render_play.py drives it): its own rule marks a cage whose
digits add up to more than its sum, and a digit twice in a cage, and clears them."""

import pytest
from selenium.webdriver.common.by import By

from puzzle_engine.plugins import get_host
from puzzle_engine.render import html
from puzzle_engine.render.play import play_grid

#: A 4x4 killer and its solution (solve killer ... --format line).
FOUR = "....3....1....4./AAAABBCCDDCEDDEE/10,5,7,10,8"
SOLUTION = "1432321441232341"


def test_a_cage_over_its_sum_is_a_conflict(browser, tmp_path):
    killer = get_host().get_type("killer")
    parsed = killer.parse({"size": None, "box": None, "max_givens": None}, FOUR)
    solution = tuple(int(ch) for ch in SOLUTION) + parsed.instance[16:]
    grid = play_grid(killer, parsed.params, parsed.instance, solution)
    page = tmp_path / "killer.html"
    page.write_text(html.page([html.Playable(["1. killer"], grid)], "Killer"))
    browser.get(page.as_uri())

    def typed(i, text):
        box = browser.find_element(By.CSS_SELECTOR, f'#board .cell[data-square="{i}"] input')
        box.clear()
        box.send_keys(text)

    def conflicts():
        return [i for i in range(16) if "conflict" in browser.find_element(
            By.CSS_SELECTOR, f'#board .cell[data-square="{i}"]').get_attribute("class").split()]

    assert browser.find_element(  # cage B's sum, on its first square
        By.CSS_SELECTOR, '#board .cell[data-square="4"] .label').text == "5"
    typed(5, "4")  # cage B (r2c1 = 3, sum 5): 3 + 4 is more than 5, though no unit repeats
    assert conflicts() == [4, 5]
    typed(5, "2")
    assert conflicts() == []
    typed(0, "4")  # 4 twice in row 1, which is cage A too
    typed(3, "4")
    assert conflicts() == [0, 3]
    typed(3, "3")  # 4 + 3 of cage A's 10: no conflict until it is full
    assert conflicts() == []
    typed(6, "1")
    typed(7, "4")
    typed(10, "3")  # cage C full: 1 + 4 + 3 is 8, not its 7
    assert conflicts() == [6, 7, 10]
    typed(10, "2")
    assert conflicts() == []
