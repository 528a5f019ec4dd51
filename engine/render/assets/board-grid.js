// The board kind "grid": a puzzle's PlayGrid, rows x cols squares to fill in with its
// symbols. Squares in conflict by the board's rule are highlighted; pencil marks note a
// square's candidates; a hint fixes a square filled in wrong, else fills in the next
// explained step (when the page holds steps), else the first empty square; the solution
// can be revealed whole.
(function () {
  "use strict";
  const ownRules = () => window.puzzleEngineRules || [];
  const MAX_CELL = 42;  // px: the largest square (2.6rem); smaller where the window is narrow
  const EDGE = 6;       // px: the board's outer border, both sides

  window.PuzzleEngine.kinds.grid = function (puzzle, page) {
    const grid = puzzle.grid;
    // The explained steps, up to the first whose value is not this board's solution's
    // (a puzzle with several solutions: the explainer's may differ past some point).
    const given = puzzle.steps || [];
    const cut = given.findIndex((s) => s.value !== grid.solution[s.square]);
    const steps = cut < 0 ? given : given.slice(0, cut);
    const n = grid.rows * grid.cols;
    const top = Math.max(1, ...grid.solution);
    // Values the board's symbols write: the symbols up to the largest answer.
    const used = grid.symbols ? grid.symbols.slice(0, top) : null;
    let values = grid.cells.slice();          // 0 empty, -1 blocked
    let marks = grid.cells.map(() => []);     // pencil marks: candidate values per square
    let how = grid.cells.map(() => "");       // "hint" or "revealed": how a square was filled
    let revealed = false;
    let ruleFailed = "";
    const element = page.element;
    element.className = "board";

    function neighbours(i) {
      const r = Math.floor(i / grid.cols), c = i % grid.cols, out = [];
      if (r > 0) out.push(i - grid.cols);
      if (r < grid.rows - 1) out.push(i + grid.cols);
      if (c > 0) out.push(i - 1);
      if (c < grid.cols - 1) out.push(i + 1);
      return out;
    }

    // Each rule returns the squares in conflict.
    const RULES = {
      "all-different": function (vals) {
        const bad = new Set();
        for (const unit of grid.units) {
          const seen = new Map();
          for (const i of unit) {
            if (vals[i] > 0) {
              if (!seen.has(vals[i])) seen.set(vals[i], []);
              seen.get(vals[i]).push(i);
            }
          }
          for (const squares of seen.values()) {
            if (squares.length > 1) squares.forEach((i) => bad.add(i));
          }
        }
        return [...bad];
      },
      "region-size": function (vals) {
        const bad = [], done = new Array(vals.length).fill(false);
        for (let start = 0; start < vals.length; start++) {
          if (done[start] || vals[start] <= 0) continue;
          const region = [start], todo = [start];
          let open = false;
          done[start] = true;
          while (todo.length) {
            const i = todo.pop();
            for (const j of neighbours(i)) {
              if (vals[j] === 0) open = true;
              if (!done[j] && vals[j] === vals[start]) {
                done[j] = true;
                region.push(j);
                todo.push(j);
              }
            }
          }
          if (region.length > vals[start] || (region.length < vals[start] && !open)) {
            bad.push(...region);
          }
        }
        return bad;
      },
      "solution": function (vals) {
        return vals.flatMap((v, i) => (v > 0 && grid.cells[i] === 0 && v !== grid.solution[i] ? [i] : []));
      },
      "script": function (vals) {
        const rule = ownRules()[grid.script];
        if (typeof rule !== "function") {
          ruleFailed = "it did not load";
          return [];
        }
        try {
          const out = rule(vals.slice(), grid);
          if (!Array.isArray(out)) throw new TypeError("it returned " + typeof out + ", not a list");
          return out.filter((i) => Number.isInteger(i) && i >= 0 && i < vals.length);
        } catch (error) {
          ruleFailed = String(error && error.message || error);
          return [];
        }
      },
    };

    function symbol(v) {
      if (v <= 0) return "";
      return grid.symbols ? grid.symbols[v - 1] : String(v);
    }

    // The value of what was typed: 0 for nothing, -1 for what is no symbol of the board.
    function valueOf(text) {
      text = text.trim();
      if (!text) return 0;
      if (grid.symbols) {
        const i = grid.symbols.findIndex((s) => s.toUpperCase() === text.toUpperCase());
        return i >= 0 ? i + 1 : -1;
      }
      if (!/^[0-9]+$/.test(text)) return -1;
      const v = parseInt(text, 10);
      return v >= 1 && v <= n ? v : -1;
    }

    function where(i) {
      return "row " + (Math.floor(i / grid.cols) + 1) + ", column " + (i % grid.cols + 1);
    }

    function squares(count) {
      return count + (count === 1 ? " square" : " squares");
    }

    function thick(i, j) {
      if (grid.regions && grid.regions[i] !== grid.regions[j]) return true;
      return grid.rule === "region-size" && values[i] > 0 && values[j] > 0 && values[i] !== values[j];
    }

    const open = (i) => grid.cells[i] === 0;
    const right = () => values.every((v, i) => !open(i) || v === grid.solution[i]);

    // The board as the state says: symbols, marks, conflicts, mistakes (when asked for),
    // region borders and the status line.
    function draw() {
      ruleFailed = "";
      const conflicts = new Set(RULES[grid.rule](values));
      const mistakes = page.mistakes();
      cells.forEach((cell, i) => {
        if (open(i)) {
          const input = cell.querySelector("input");
          if (input.value !== symbol(values[i])) input.value = symbol(values[i]);
          const list = values[i] > 0 ? [] : marks[i];
          const box = cell.querySelector(".marks");
          box.textContent = grid.symbols ? "" : list.join(" ");
          if (grid.symbols) {
            box.replaceChildren(...used.map((s, k) => {
              const span = document.createElement("span");
              span.textContent = list.includes(k + 1) ? s : "";
              return span;
            }));
          }
          cell.classList.toggle("hint", how[i] === "hint");
          cell.classList.toggle("revealed", how[i] === "revealed");
        }
        cell.classList.toggle("conflict", conflicts.has(i));
        cell.classList.toggle("wrong", mistakes && open(i) && values[i] > 0 &&
                              values[i] !== grid.solution[i]);
        const c = i % grid.cols;
        cell.classList.toggle("thick-right", c < grid.cols - 1 && thick(i, i + 1));
        cell.classList.toggle("thick-bottom", i + grid.cols < n && thick(i, i + grid.cols));
      });
      const empty = values.filter((v, i) => open(i) && v === 0).length;
      let text;
      if (empty === 0 && right()) text = revealed ? "The solution is shown." : "Solved!";
      else if (empty === 0) text = "Every square is filled, but something is wrong.";
      else if (conflicts.size) text = squares(conflicts.size) + " in conflict.";
      else {
        text = (ruleFailed ? "This puzzle's own rule failed (" + ruleFailed +
                "), so conflicts are not shown; " : "") + squares(empty) + " to fill.";
      }
      page.status(text);
    }

    function setSquare(i, v, kind) {
      values[i] = v;
      how[i] = kind || "";
    }

    function typed(event) {
      const input = event.target, i = Number(input.dataset.square);
      let text = input.value;
      if (grid.symbols && text.length > 1) {
        // Typing over a symbol: the key typed counts, wherever the caret stood.
        text = (event.data || text).slice(-1);
      }
      if (page.pencil()) {
        // A pencil mark: the symbol typed is noted as a candidate, or taken off again.
        const key = (event.data || text).trim().slice(-1);
        const mark = valueOf(key);
        input.value = symbol(values[i]);
        if (mark < 0) page.say("'" + key + "' is not a symbol of this puzzle.");
        if (mark <= 0) return;
        const list = marks[i];
        marks[i] = list.includes(mark) ? list.filter((m) => m !== mark)
          : [...list, mark].sort((a, b) => a - b);
        draw();
        page.moved();
        return;
      }
      const v = valueOf(text);
      if (v < 0) {
        input.value = symbol(values[i]);
        page.say("'" + text.trim() + "' is not a symbol of this puzzle.");
        return;
      }
      if (!grid.symbols) {
        input.value = text.trim();  // a number being typed, digit by digit
        if (v === values[i]) return;
      }
      setSquare(i, v, "");
      if (grid.symbols) input.value = symbol(v);
      draw();
      page.moved();
    }

    // Arrow keys move to the next open square in their direction, within the row or the
    // column: at the board's edge they stop (no wrapping to the next row).
    function moved(event) {
      const step = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]}[event.key];
      if (step === undefined) return;
      event.preventDefault();
      const from = Number(event.target.dataset.square);
      let r = Math.floor(from / grid.cols) + step[0], c = from % grid.cols + step[1];
      while (r >= 0 && r < grid.rows && c >= 0 && c < grid.cols) {
        const input = cells[r * grid.cols + c].querySelector("input");
        if (input) {
          input.focus();
          return;
        }
        r += step[0];
        c += step[1];
      }
    }

    // A square's contents are selected when it is entered (by a key or a click), so that
    // a key typed replaces them.
    function entered(event) {
      event.target.select();
    }

    // The squares fit the window: as large as MAX_CELL, smaller where it is narrow.
    function fit() {
      const style = window.getComputedStyle(element.parentElement);
      const room = element.parentElement.clientWidth - parseFloat(style.paddingLeft) -
        parseFloat(style.paddingRight) - EDGE;
      const cell = Math.max(12, Math.min(MAX_CELL, Math.floor(room / grid.cols)));
      element.style.setProperty("--cell", cell + "px");
    }

    element.style.gridTemplateColumns = "repeat(" + grid.cols + ", var(--cell))";
    const digits = (used || []).every((s) => /^[0-9]$/.test(s));
    const cells = grid.cells.map((given, i) => {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.square = i;
      if (given < 0) {
        cell.classList.add("blocked");
      } else if (given > 0) {
        cell.classList.add("given");
        cell.textContent = symbol(given);
      } else {
        const box = document.createElement("div");
        box.className = "marks";
        box.setAttribute("aria-hidden", "true");
        if (grid.symbols) box.style.setProperty("--side", Math.ceil(Math.sqrt(used.length)));
        cell.appendChild(box);
        const input = document.createElement("input");
        input.dataset.square = i;
        input.autocomplete = "off";
        input.setAttribute("autocapitalize", "off");
        input.setAttribute("aria-label", where(i));
        // The right keyboard: a number pad where the symbols are digits.
        if (digits) input.inputMode = "numeric";
        input.addEventListener("input", typed);
        input.addEventListener("keydown", moved);
        input.addEventListener("focus", entered);
        input.addEventListener("click", entered);
        cell.appendChild(input);
      }
      element.appendChild(cell);
      return cell;
    });
    // Shaded squares (a light background) and labels (a small text in a square's top
    // left corner), both fixed by the puzzle; a label's text is set as text, never HTML.
    for (const i of grid.shaded || []) cells[i].classList.add("shaded");
    for (const [i, text] of grid.labels || []) {
      const label = document.createElement("span");
      label.className = "label";
      label.setAttribute("aria-hidden", "true");
      label.textContent = text;
      cells[i].classList.add("labelled");
      cells[i].appendChild(label);
    }
    element.classList.toggle("long", !grid.symbols && top > 9);  // two-digit numbers
    fit();

    function hint() {
      // A square filled in wrong first: the next step's reason may rest on it.
      let i = values.findIndex((v, k) => open(k) && v > 0 && v !== grid.solution[k]);
      let text = "";
      if (i >= 0) {
        text = "Hint: " + where(i) + " was wrong; it is " + symbol(grid.solution[i]) + ".";
      } else {
        const step = steps.find((s) => open(s.square) && values[s.square] !== grid.solution[s.square]);
        i = step ? step.square : values.findIndex((v, k) => open(k) && v === 0);
        if (i < 0) {
          page.say("Nothing left to hint: the board is solved.");
          return;
        }
        text = step && step.text ? step.text
          : "Hint: " + where(i) + " is " + symbol(grid.solution[i]) + ".";
      }
      setSquare(i, grid.solution[i], "hint");
      draw();
      page.moved();
      page.say(text);
    }

    function reveal() {
      revealed = true;
      values.forEach((v, i) => {
        if (open(i) && v !== grid.solution[i]) setSquare(i, grid.solution[i], "revealed");
      });
      draw();
      page.moved();
    }

    draw();
    return {
      pencil: true,
      mistakes: true,
      fit,
      hint,
      reveal,
      save: () => ({values: values.slice(), marks: marks.map((m) => m.slice()),
                    how: how.slice(), revealed}),
      load(state) {
        if (!state || !Array.isArray(state.values) || state.values.length !== n) {
          throw new Error("not a state of this board");
        }
        // Only open squares take a saved value; givens and walls stay as they are.
        values = grid.cells.map((given, i) => (open(i) ? Number(state.values[i]) || 0 : given));
        marks = grid.cells.map((_, i) => (Array.isArray(state.marks && state.marks[i])
          ? state.marks[i].filter(Number.isInteger) : []));
        how = grid.cells.map((_, i) => (state.how && ["hint", "revealed"].includes(state.how[i])
          ? state.how[i] : ""));
        revealed = Boolean(state.revealed);
        draw();
      },
      solved: () => right(),
    };
  };
})();
