"""'gen sudoku --symmetry' on a real solver (issue 43): the givens are symmetric, the
puzzle unique by an independent check (the other solver, asked for 2 solutions), and no
orbit of givens can go; the record says the symmetry, and the same seed and symmetry make
the same puzzle again."""
import json

import pytest

from support import run

#: Each symmetry as a map of (row, column) on an n x n board; the board it is tried on.
IMAGES = {"rot180": lambda n, r, c: (n - 1 - r, n - 1 - c),
          "rot90": lambda n, r, c: (c, n - 1 - r),
          "mirror": lambda n, r, c: (r, n - 1 - c),
          "diagonal": lambda n, r, c: (c, r)}
SIZES = {"rot180": 9, "rot90": 9, "mirror": 4, "diagonal": 4}


def orbit(n, square, image):
    seen, (r, c) = {square}, divmod(square, n)
    for _ in range(4):
        r, c = image(n, r, c)
        seen.add(r * n + c)
    return seen


@pytest.mark.parametrize("symmetry", sorted(IMAGES))
def test_symmetric_givens_on_a_unique_sudoku(symmetry, tmp_path):
    n, image = SIZES[symmetry], IMAGES[symmetry]
    args = ["gen", "sudoku", "--size", str(n), "--seed", "7", "--symmetry", symmetry,
            "--format", "json"]
    made = run(*args)
    assert made.exit_code == 0, made.output
    record = json.loads(made.stdout)
    grid = [v for row in record["grid"] for v in row]
    assert record["options"]["symmetry"] == symmetry and record["minimal"] is True
    for i, v in enumerate(grid):
        r, c = divmod(i, n)
        j = image(n, r, c)
        assert bool(v) == bool(grid[j[0] * n + j[1]]), (symmetry, i)
    # unique, by the other solver than the one that made it
    other = "gecode" if "chuffed" in record["solver"] or "sat" in record["solver"] else "chuffed"
    line = "".join(str(v) if v else "." for v in grid)
    checked = run("check", "sudoku", line, "--solver", other)
    assert checked.exit_code == 0 and "unique" in checked.stdout, checked.output
    # orbit-minimal: emptying any orbit of givens leaves more than one solution
    (tmp_path / "weaker.txt").write_text("".join(
        "".join("." if j in orbit(n, i, image) else (str(g) if g else ".")
                for j, g in enumerate(grid)) + "\n" for i, v in enumerate(grid) if v))
    weaker = run("check", "sudoku", str(tmp_path / "weaker.txt"), "--solver", other)
    verdicts = weaker.stdout.splitlines()
    assert weaker.exit_code == 1 and len(verdicts) == sum(1 for v in grid if v)
    assert set(verdicts) == {"2 or more solutions"}, weaker.output
    again = json.loads(run(*args).stdout)  # reproducible from the seed and the symmetry
    assert again["grid"] == record["grid"]
