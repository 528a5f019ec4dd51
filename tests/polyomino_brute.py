"""An exact Polyomino Math solver in plain Python, independent of MiniZinc, for the
tests: a dynamic programme over the squares in reading order. At the first undecided
square, either leave it uncovered or lay a piece whose first square it is; the state is
the squares already decided beyond it and the pieces left, memoised."""
from functools import lru_cache

from puzzle_engine_plugins.polyomino_math.scoring import best_of
from puzzle_engine_plugins.polyomino_math.tiling import placements


def best_score(board, every_piece=False):
    """The best total over all placements (with ``every_piece``: over those that place
    every piece; None if there is none), and how many placements reach it (placements
    that differ by swapping identical pieces counted once)."""
    rows, cols, numbers = board.rows, board.cols, board.numbers
    kinds = sorted(set(board.pieces))
    start = tuple(board.pieces.count(k) for k in kinds)
    anchored = [[] for _ in range(rows * cols)]
    for k, shape in enumerate(kinds):
        for _, mask in placements(shape, rows, cols):
            low = (mask & -mask).bit_length() - 1
            value = best_of([numbers[i] for i in range(mask.bit_length()) if mask >> i & 1])
            anchored[low].append((k, mask >> low, value))
    n = rows * cols

    @lru_cache(maxsize=None)
    def best(i, ahead, left):
        """(best, count) from square i on; ``ahead``: decided squares from i, bit 0 = i."""
        if i == n:
            return (0, 1) if not (every_piece and any(left)) else (None, 0)
        if ahead & 1:
            return best(i + 1, ahead >> 1, left)
        top, ways = best(i + 1, ahead >> 1, left)  # leave square i uncovered
        for k, mask, value in anchored[i]:
            if left[k] and not mask & ahead:
                rest = left[:k] + (left[k] - 1,) + left[k + 1:]
                sub, count = best(i + 1, (ahead | mask) >> 1, rest)
                if sub is None:
                    continue
                if top is None or sub + value > top:
                    top, ways = sub + value, count
                elif sub + value == top:
                    ways += count
        return top, ways

    return best(0, 0, start)
