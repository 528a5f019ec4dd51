// The board kind "pieces": pieces to place on a board (play.py's PieceBoard). The player
// chooses a kind below the board and taps a square to place one (Turn and Flip orient a
// kind that turns), and taps a placed piece to take it off; the page counts what is left
// to place and, by the board's rule, marks the pieces attacked by another group
// ("attacks") or keeps the score against the best ("score"). A hint follows the
// explained steps, else takes off a piece the solution does not have, else puts on one
// of the solution's. A kind is (puzzle, page) => board (core.js describes both); it
// registers itself with the page's shell (window.PuzzleEngine.kinds), or else where
// play.js finds it.
(function () {
  "use strict";
  const kinds = window.PuzzleEngine ? window.PuzzleEngine.kinds
    : (window.puzzleEngineBoards = window.puzzleEngineBoards || {});

  function make(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function plural(count, one, many) {
    return count + " " + (count === 1 ? one : many);
  }

  // -- Pieces to place on a board: attacks, or a score against the optimum. ------------
  function normal(cells) {
    const r0 = Math.min(...cells.map((p) => p[0])), c0 = Math.min(...cells.map((p) => p[1]));
    return cells.map((p) => [p[0] - r0, p[1] - c0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }

  const SCORES = {
    max: (v) => Math.max(v.reduce((a, b) => a + b, 0), v.reduce((a, b) => a * b, 1)),
    sum: (v) => v.reduce((a, b) => a + b, 0),
    product: (v) => v.reduce((a, b) => a * b, 1),
  };

  kinds.pieces = function (puzzle, page) {
    const element = page.element, say = page.say;
    const board = puzzle.grid, steps = puzzle.steps || [];
    const rows = board.rows, cols = board.cols, n = rows * cols;
    let placed = [];           // {kind, squares}
    let at = new Array(n).fill(-1);  // the placed piece on each square, or -1
    let chosen = -1;           // the kind chosen in the tray
    let shape = null;          // its orientation, normalised cells
    let revealed = false;
    element.className = "pieces";
    element.style.setProperty("--cols", String(cols));
    const grid = make("div", "piece-board");
    grid.style.gridTemplateColumns = "repeat(" + cols + ", var(--cell))";
    const squares = board.cells.map((v, i) => {
      const square = make("button", "square");
      square.type = "button";
      square.dataset.square = i;
      square.setAttribute("aria-label", where(i));
      if (v === -1) square.classList.add("blocked");
      if (v === -2) square.classList.add("hole");
      if (v !== 0) square.disabled = true;
      if (board.numbers) square.appendChild(make("span", "number", String(board.numbers[i])));
      square.appendChild(make("span", "mark"));
      square.addEventListener("click", () => clicked(i));
      grid.appendChild(square);
      return square;
    });
    const tray = make("div", "tray");
    const chips = board.kinds.map((kind, k) => {
      const chip = make("button", "chip");
      chip.type = "button";
      chip.dataset.kind = k;
      chip.setAttribute("aria-pressed", "false");
      const picture = make("span", "shape");
      const h = Math.max(...kind.squares.map((p) => p[0])) + 1;
      const w = Math.max(...kind.squares.map((p) => p[1])) + 1;
      picture.style.gridTemplateColumns = "repeat(" + w + ", 1fr)";
      picture.style.gridTemplateRows = "repeat(" + h + ", 1fr)";
      for (const [r, c] of kind.squares) {
        const bit = make("span", "bit", kind.squares.length === 1 ? kind.symbol : "");
        bit.style.gridRow = String(r + 1);
        bit.style.gridColumn = String(c + 1);
        bit.style.background = kind.colour;
        picture.appendChild(bit);
      }
      chip.append(picture, make("span", "name", kind.name), make("span", "left"));
      chip.addEventListener("click", () => choose(k));
      tray.appendChild(chip);
      return chip;
    });
    const turning = make("div", "turning");
    const turn = make("button", "turn", "Turn \u21bb"), flip = make("button", "flip", "Flip \u21c4");
    turn.type = flip.type = "button";
    turn.addEventListener("click", () => orient((p) => [p[1], -p[0]]));
    flip.addEventListener("click", () => orient((p) => [p[0], -p[1]]));
    turning.append(turn, flip);
    const score = make("p", "score");
    element.append(grid, tray, turning, score);

    function where(i) {
      return "row " + (Math.floor(i / cols) + 1) + ", column " + (i % cols + 1);
    }

    function left(k) {
      return board.kinds[k].count - placed.filter((p) => p.kind === k).length;
    }

    function choose(k) {
      chosen = k;
      shape = normal(board.kinds[k].squares);
      refresh();
      say("Tap a square to place " + (board.kinds[k].name || "the piece") +
          (board.kinds[k].squares.length > 1 ? " (the first square of its top row goes there)." : "."));
    }

    function orient(move) {
      if (chosen < 0) return;
      shape = normal(shape.map(move));
      drawPreview();
    }

    // The squares a piece of the chosen orientation covers with its first square on i.
    function cover(i) {
      const r = Math.floor(i / cols), c = i % cols, first = shape[0], out = [];
      for (const [dr, dc] of shape) {
        const rr = r + dr - first[0], cc = c + dc - first[1];
        if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) return null;
        out.push(rr * cols + cc);
      }
      return out;
    }

    function put(kind, cells, how) {
      placed.push({kind: kind, squares: cells, how: how || ""});
    }

    function remove(p) {
      placed.splice(p, 1);
    }

    function clicked(i) {
      if (at[i] >= 0) {
        remove(at[i]);
        revealed = false;
        return moved();
      }
      if (chosen < 0) return say("Choose a piece below the board first.");
      if (left(chosen) <= 0) return say("Every " + (board.kinds[chosen].name || "piece") + " is placed already.");
      const cells = cover(i);
      if (!cells || cells.some((j) => board.cells[j] !== 0 || at[j] >= 0)) {
        return say((board.kinds[chosen].name || "The piece") + " does not fit there.");
      }
      put(chosen, cells);
      revealed = false;
      return moved();
    }

    // The placed pieces that a piece of another group attacks (rule "attacks").
    function attacked() {
      const out = new Set();
      placed.forEach((piece, p) => {
        const kind = board.kinds[piece.kind];
        for (const [dr, dc] of kind.rays) {
          for (const start of piece.squares) {
            let r = Math.floor(start / cols) + dr, c = start % cols + dc;
            while (r >= 0 && r < rows && c >= 0 && c < cols) {
              const j = r * cols + c;
              if (board.cells[j] === -1) break;
              if (at[j] >= 0 && at[j] !== p) {
                if (board.kinds[placed[at[j]].kind].group !== kind.group) out.add(at[j]);
                break;
              }
              r += dr;
              c += dc;
            }
          }
        }
      });
      return out;
    }

    function total() {
      const rule = SCORES[board.scoring] || SCORES.max;
      return placed.reduce((sum, piece) => sum + rule(piece.squares.map((i) => board.numbers[i])), 0);
    }

    function drawPreview() {
      turning.hidden = chosen < 0 || !board.kinds[chosen].turns;
      if (chosen < 0) return;
      const picture = chips[chosen].querySelector(".shape");
      const h = Math.max(...shape.map((p) => p[0])) + 1, w = Math.max(...shape.map((p) => p[1])) + 1;
      picture.style.gridTemplateColumns = "repeat(" + w + ", 1fr)";
      picture.style.gridTemplateRows = "repeat(" + h + ", 1fr)";
      [...picture.children].forEach((bit, k) => {
        bit.style.gridRow = String(shape[k][0] + 1);
        bit.style.gridColumn = String(shape[k][1] + 1);
      });
    }

    // The board and the tray after a change; says the verdict (the status line).
    function refresh() {
      at = new Array(n).fill(-1);
      placed.forEach((piece, p) => piece.squares.forEach((i) => (at[i] = p)));
      const bad = board.rule === "attacks" ? attacked() : new Set();
      squares.forEach((square, i) => {
        const p = at[i], piece = p >= 0 ? placed[p] : null, kind = piece ? board.kinds[piece.kind] : null;
        square.classList.toggle("placed", Boolean(piece));
        square.classList.toggle("attacked", bad.has(p));
        square.classList.toggle("hint", Boolean(piece && piece.how === "hint"));
        square.style.background = kind ? kind.colour : "";
        square.querySelector(".mark").textContent = kind && kind.squares.length === 1 ? kind.symbol : "";
        square.dataset.kind = piece ? piece.kind : "";
        // A piece of several squares is outlined: a thick side where it ends.
        const r = Math.floor(i / cols), c = i % cols;
        const edge = (j, ok) => piece && kind.squares.length > 1 && (!ok || at[j] !== p);
        square.classList.toggle("edge-top", edge(i - cols, r > 0));
        square.classList.toggle("edge-bottom", edge(i + cols, r < rows - 1));
        square.classList.toggle("edge-left", edge(i - 1, c > 0));
        square.classList.toggle("edge-right", edge(i + 1, c < cols - 1));
      });
      let toPlace = 0;
      chips.forEach((chip, k) => {
        const count = left(k);
        toPlace += count;
        chip.querySelector(".left").textContent = "\u00d7" + count;
        chip.classList.toggle("used-up", count <= 0);
        chip.setAttribute("aria-pressed", String(k === chosen));
      });
      drawPreview();
      let verdict;
      if (board.rule === "score") {
        const sum = total();
        score.textContent = "Score " + sum + " (the best is " + board.goal + ")";
        if (sum === board.goal) verdict = revealed ? "The solution is shown: score " + sum + "." : "Solved! Score " + sum + ", the best there is.";
        else verdict = "Score " + sum + " of the best " + board.goal + "; " + plural(toPlace, "piece", "pieces") + " left to place.";
      } else {
        score.textContent = plural(toPlace, "piece", "pieces") + " left to place";
        if (bad.size) verdict = plural(bad.size, "piece", "pieces") + " attacked.";
        else if (toPlace === 0) verdict = revealed ? "The solution is shown." : "Solved!";
        else verdict = plural(toPlace, "piece", "pieces") + " left to place, none attacked.";
      }
      page.status(verdict);
      return verdict;
    }

    function same(a, b) {
      const key = (x) => x.slice().sort((i, j) => i - j).join(",");
      return key(a) === key(b);
    }

    function inSolution(piece) {
      return board.solution.some(([k, s]) => k === piece.kind && same(s, piece.squares));
    }

    function solved() {
      if (board.rule === "score") return total() === board.goal;
      return attacked().size === 0 && board.kinds.every((kind, k) => left(k) === 0);
    }

    // Place the solution's piece k (taking off what stands in its way), as a hint.
    function placeSolution(k, s) {
      for (let p = placed.length - 1; p >= 0; p--) {
        if (placed[p].squares.some((i) => s.includes(i))) remove(p);
      }
      if (left(k) <= 0) {
        const p = placed.findIndex((piece) => piece.kind === k && !inSolution(piece));
        if (p >= 0) remove(p);
      }
      put(k, s.slice(), "hint");
    }

    function hint() {
      if (solved()) return say("Nothing left to hint: the board is solved.");
      // The next explained step the board does not show yet.
      for (const step of steps) {
        const p = at[step.square], kind = p >= 0 ? placed[p].kind : -1;
        const k = board.kinds.findIndex((x) => x.value === step.value);
        if (step.value === 0 || k < 0) {
          if (p < 0) continue;  // "empty": right already
          remove(p);
        } else if (kind === k) {
          continue;
        } else {
          const piece = board.solution.find(([j, s]) => j === k && s.includes(step.square));
          placeSolution(k, piece ? piece[1] : [step.square]);
        }
        moved();
        return say(step.text || ("Hint: " + where(step.square) + "."));
      }
      // Else: a piece that is no part of the solution comes off; else the solution's
      // next piece not on the board goes on.
      const wrong = placed.findIndex((piece) => !inSolution(piece));
      if (wrong >= 0) {
        const piece = placed[wrong];
        remove(wrong);
        moved();
        return say("Hint: " + (board.kinds[piece.kind].name || "the piece") + " at " + where(piece.squares[0]) + " is not where the solution has it; it is taken off.");
      }
      const next = board.solution.find(([k, s]) => !placed.some((piece) => piece.kind === k && same(piece.squares, s)));
      if (!next) return say("Nothing left to hint.");
      placeSolution(next[0], next[1]);
      moved();
      return say("Hint: " + (board.kinds[next[0]].name || "a piece") + " goes on " + where(Math.min(...next[1])) + ".");
    }

    function reveal() {
      placed = [];
      board.solution.forEach(([k, s]) => put(k, s.slice(), "revealed"));
      revealed = true;
      moved();
    }

    // A move of the player's (or a hint's): the board redrawn, the move recorded.
    function moved() {
      refresh();
      page.moved();
    }

    refresh();
    return {
      save() {
        return {placed: placed.map((piece) => [piece.kind, piece.squares.slice(), piece.how]),
                revealed: revealed};
      },
      load(state) {
        placed = (state.placed || []).map(([kind, cells, how]) => ({kind: kind, squares: cells.slice(), how: how || ""}));
        revealed = Boolean(state.revealed);
        refresh();
      },
      solved: solved,
      hint: hint,
      reveal: reveal,
    };
  };
})();
