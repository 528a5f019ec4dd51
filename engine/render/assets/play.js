// The play page: one board at a time, chosen from the puzzles the page holds. A person
// types symbols into the open squares; squares in conflict by the board's rule are
// highlighted; a hint reveals one square (the next explained step, when the page holds
// steps); the solution can be revealed whole. No network: everything is in this file.
(function () {
  "use strict";
  const puzzles = JSON.parse(document.getElementById("puzzles").textContent);
  const ownRules = window.puzzleEngineRules || [];
  const $ = (id) => document.getElementById(id);
  let grid = null;     // the board's PlayGrid, as JSON
  let steps = [];      // explained steps {square, value, text}, when the page holds them
  let values = [];     // the board as filled in: 0 empty, -1 blocked
  let cells = [];      // the square elements
  let revealed = false;
  let ruleFailed = "";  // why the board's own rule (rule "script") found no conflicts
  // A board of another kind than a grid (a puzzle's "board": "choice", "pieces"; the
  // assets board-KIND.js) plays itself: kinds[KIND](puzzle, page) draws it and gives the
  // board whose hint() and reveal() the buttons call. A hint's reason (page.say) stays
  // on the status line until the next move; the board's state (page.status) then shows.
  const kinds = window.puzzleEngineBoards || {};
  let own = null;
  let boardStatus = "", message = "";
  const page = {
    element: null,
    say(text) {
      message = text || "";
      say(message || boardStatus);
    },
    status(text) {
      boardStatus = text || "";
      if (!message) say(boardStatus);
    },
    moved() {
      page.say("");
    },
  };

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
      const rule = ownRules[grid.script];
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
    return v >= 1 && v <= grid.rows * grid.cols ? v : -1;
  }

  function where(i) {
    return "row " + (Math.floor(i / grid.cols) + 1) + ", column " + (i % grid.cols + 1);
  }

  function squares(count) {
    return count + (count === 1 ? " square" : " squares");
  }

  function say(text) {
    $("status").textContent = text;
  }

  function thick(i, j) {
    if (grid.regions && grid.regions[i] !== grid.regions[j]) return true;
    return grid.rule === "region-size" && values[i] > 0 && values[j] > 0 && values[i] !== values[j];
  }

  // Conflicts, mistakes (when asked for), region borders and the verdict, after a change.
  function update() {
    ruleFailed = "";
    const conflicts = new Set(RULES[grid.rule](values));
    const mistakes = $("mistakes").checked;
    cells.forEach((cell, i) => {
      cell.classList.toggle("conflict", conflicts.has(i));
      cell.classList.toggle("wrong", mistakes && grid.cells[i] === 0 && values[i] > 0 &&
                            values[i] !== grid.solution[i]);
      const c = i % grid.cols;
      cell.classList.toggle("thick-right", c < grid.cols - 1 && thick(i, i + 1));
      cell.classList.toggle("thick-bottom", i + grid.cols < values.length && thick(i, i + grid.cols));
    });
    const open = values.filter((v, i) => grid.cells[i] === 0 && v === 0).length;
    const right = values.every((v, i) => grid.cells[i] !== 0 || v === grid.solution[i]);
    if (open === 0 && right) say(revealed ? "The solution is shown." : "Solved!");
    else if (open === 0) say("Every square is filled, but something is wrong.");
    else if (conflicts.size) say(squares(conflicts.size) + " in conflict.");
    else if (!$("status").dataset.keep) {
      say((ruleFailed ? "This puzzle's own rule failed (" + ruleFailed + "), so conflicts are not shown; " : "") +
          squares(open) + " to fill.");
    }
    delete $("status").dataset.keep;
  }

  function setSquare(i, v, how) {
    values[i] = v;
    const input = cells[i].querySelector("input");
    input.value = symbol(v);
    cells[i].classList.remove("hint", "revealed");
    if (how) cells[i].classList.add(how);
  }

  function typed(event) {
    const input = event.target, i = Number(input.dataset.square);
    let text = input.value;
    if (grid.symbols && text.length > 1) {
      // Typing over a symbol: the key typed counts, wherever the caret stood.
      text = (event.data || text).slice(-1);
    }
    const v = valueOf(text);
    if (v < 0) {
      input.value = symbol(values[i]);
      say("'" + text.trim() + "' is not a symbol of this puzzle.");
      $("status").dataset.keep = "1";
      update();
      return;
    }
    input.value = grid.symbols ? symbol(v) : text.trim();
    values[i] = v;
    cells[i].classList.remove("hint", "revealed");
    update();
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

  // One square: the next explained step not yet filled in right, when the page holds
  // steps; else the first square filled in wrong, else the first empty one.
  function hint() {
    const open = (i) => grid.cells[i] === 0 && values[i] !== grid.solution[i];
    const step = steps.find((s) => open(s.square));
    let i = step ? step.square : values.findIndex((v, k) => open(k) && v > 0);
    if (i < 0) i = values.findIndex((v, k) => open(k));
    if (i < 0) {
      say("Nothing left to hint: the board is solved.");
      return;
    }
    setSquare(i, grid.solution[i], "hint");
    say(step && step.text ? step.text : "Hint: " + where(i) + " is " + symbol(grid.solution[i]) + ".");
    $("status").dataset.keep = "1";
    update();
  }

  function reveal() {
    revealed = true;
    values.forEach((v, i) => {
      if (grid.cells[i] === 0 && v !== grid.solution[i]) setSquare(i, grid.solution[i], "revealed");
    });
    update();
  }

  function show(n) {
    const puzzle = puzzles[n];
    $("caption").textContent = puzzle.caption.join(" \u00b7 ");
    const board = $("board");
    board.replaceChildren();
    grid = puzzle.grid;
    steps = puzzle.steps || [];
    revealed = false;
    $("controls").hidden = !grid;
    if (!grid) {
      $("rules").textContent = (puzzle.rules ? puzzle.rules + " " : "") +
        "(This type of puzzle has no play board; here is its drawing.)";
      board.className = "drawing";
      board.innerHTML = puzzle.svg;
      say("");
      return;
    }
    $("rules").textContent = grid.rules || puzzle.rules || "";
    own = null;
    const kind = puzzle.board || "grid";
    $("mistakes").parentElement.hidden = kind !== "grid";
    if (kind !== "grid") {
      if (!kinds[kind]) {
        say("This page cannot play a board of the kind '" + kind + "'.");
        return;
      }
      board.className = "";
      board.removeAttribute("style");
      page.element = board;
      message = boardStatus = "";
      own = kinds[kind](puzzle, page);
      return;
    }
    board.className = "board";
    board.style.gridTemplateColumns = "repeat(" + grid.cols + ", var(--cell))";
    values = grid.cells.slice();
    cells = grid.cells.map((given, i) => {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.square = i;
      if (given < 0) {
        cell.classList.add("blocked");
      } else if (given > 0) {
        cell.classList.add("given");
        cell.textContent = symbol(given);
      } else {
        const input = document.createElement("input");
        input.dataset.square = i;
        input.autocomplete = "off";
        input.setAttribute("aria-label", where(i));
        if (!grid.symbols) input.inputMode = "numeric";
        input.addEventListener("input", typed);
        input.addEventListener("keydown", moved);
        input.addEventListener("focus", entered);
        input.addEventListener("click", entered);
        cell.appendChild(input);
      }
      board.appendChild(cell);
      return cell;
    });
    board.classList.toggle("long", !grid.symbols && grid.rows * grid.cols > 9);
    update();
  }

  puzzles.forEach((p, n) => {
    const option = document.createElement("option");
    option.value = n;
    option.textContent = p.caption[0];
    $("choose").appendChild(option);
  });
  $("choose").hidden = puzzles.length < 2;
  $("choose").addEventListener("change", (e) => show(Number(e.target.value)));
  $("hint").addEventListener("click", () => (own ? own.hint() : hint()));
  $("reveal").addEventListener("click", () => (own ? own.reveal() : reveal()));
  $("restart").addEventListener("click", () => show(Number($("choose").value || 0)));
  $("mistakes").addEventListener("change", () => own || update());
  show(0);
})();
