// The play page's shell: the puzzle chosen from those the page holds, and what every kind
// of board shares: undo and redo, a timer, progress saved in the browser, the message
// and status lines, the buttons. No network: everything is in this file.
//
// A board kind is a function in PuzzleEngine.kinds, (puzzle, page) => board, that draws
// the puzzle into page.element and returns the board, an object with
//   save()        its state as plain JSON (what the player did), and load(state) to go back
//                 to one (undo, redo, a reload, "start again" with the first save());
//   solved()      whether the board is solved (the timer stops);
//   hint(), reveal(), check()  (optional: their buttons show only when given);
//   pencil        (optional, true) it takes pencil marks: page.pencil() says when they are on;
//   mistakes      (optional, true) it can show mistakes: page.mistakes() says when asked;
//   fit()         (optional) sizes it to the window (called when the window is resized).
// The board calls page.moved() after each move the player makes (it is recorded for undo
// and saved), page.say(text) for a message (a hint's reason: it stays until the next move)
// and page.status(text) for the board's state ("3 squares to fill."). A puzzle's kind is
// its "board" field, else "grid" when it has a play grid, else "drawing".
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const kinds = {};
  const STORE = "puzzle-engine:";  // localStorage key prefix, then the puzzle's id

  function storage() {
    try {
      return window.localStorage;  // none on a page whose storage the browser refuses
    } catch (error) {
      return null;
    }
  }

  function clock(seconds) {
    const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    const two = (n) => String(n).padStart(2, "0");
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }

  function start() {
    const puzzles = JSON.parse($("puzzles").textContent);
    let puzzle = null, board = null, number = 0;
    let history = [], at = 0;        // states after each move; at: the one shown
    let elapsed = 0, since = null;   // seconds counted, and when the count last resumed
    let ticking = null;
    let message = "";

    function seconds() {
      return elapsed + (since === null ? 0 : (Date.now() - since) / 1000);
    }

    function tick() {
      $("timer").textContent = clock(seconds());
    }

    function run(on) {
      if (on && since === null) {
        since = Date.now();
        ticking = window.setInterval(tick, 250);
      } else if (!on && since !== null) {
        elapsed = seconds();
        since = null;
        window.clearInterval(ticking);
      }
      tick();
    }

    // The puzzle's id, else (a page made without ids) a digest of its board.
    function key() {
      if (puzzle.id) return STORE + puzzle.id;
      const text = JSON.stringify([puzzle.grid, puzzle.svg, puzzle.board, puzzle.caption]);
      let h = 0;
      for (let k = 0; k < text.length; k++) h = (Math.imul(h, 31) + text.charCodeAt(k)) | 0;
      return STORE + "board:" + (h >>> 0).toString(16);
    }

    function store() {
      const where = storage();
      if (!where || !board) return;
      try {
        // A board as it started (no move, every move undone, started again) keeps nothing.
        if (at === 0) where.removeItem(key());
        else where.setItem(key(), JSON.stringify({version: 1, state: history[at],
                                             seconds: seconds(), solved: board.solved()}));
      } catch (error) {
        // full or refused: progress is kept for this visit only
      }
    }

    function buttons() {
      $("undo").disabled = at === 0;
      $("redo").disabled = at >= history.length - 1;
    }

    // After a change of the board (a move, undo, redo): the timer runs until it is solved.
    function after() {
      run(!board.solved());
      buttons();
      store();
    }

    const page = {
      element: $("board"),
      moved() {
        history = history.slice(0, at + 1);
        history.push(board.save());
        at = history.length - 1;
        say("");
        after();
      },
      say,
      status(text) {
        $("status").textContent = text;
      },
      pencil: () => $("pencil").getAttribute("aria-pressed") === "true",
      mistakes: () => $("mistakes").checked,
    };

    function say(text) {
      message = text || "";
      $("message").textContent = message;
      $("message").hidden = !message;
    }

    function go(step) {
      if (!board || at + step < 0 || at + step >= history.length) return;
      at += step;
      board.load(history[at]);
      say(step < 0 ? "Undone." : "Redone.");
      after();
    }

    function show(n, fresh) {
      number = n;
      puzzle = puzzles[n];
      run(false);
      elapsed = 0;
      say("");
      page.status("");
      $("caption").textContent = puzzle.caption.join(" \u00b7 ");
      $("rules").textContent = puzzle.rules || "";
      const element = $("board");
      element.replaceChildren();
      element.className = "";
      element.removeAttribute("style");
      const kind = puzzle.board || (puzzle.grid ? "grid" : "drawing");
      const make = kinds[kind];
      board = make ? make(puzzle, page) : null;
      $("controls").hidden = !board;
      if (!board) {
        if (!make) say("This page cannot show a board of the kind '" + kind + "'.");
        return;
      }
      $("hint").hidden = !board.hint;
      $("reveal").hidden = !board.reveal;
      $("check").hidden = !board.check;
      $("pencil").hidden = !board.pencil;
      $("mistakes-label").hidden = !board.mistakes;
      history = [board.save()];
      at = 0;
      const where = storage();
      let saved = null;
      if (where && !fresh) {
        try {
          saved = JSON.parse(where.getItem(key()) || "null");
        } catch (error) {
          saved = null;
        }
      }
      if (fresh && where) where.removeItem(key());
      if (saved && saved.version === 1 && saved.state !== undefined) {
        try {
          board.load(saved.state);
          history.push(board.save());
          at = 1;
          elapsed = Number(saved.seconds) || 0;
          say("Your progress is restored (" + clock(elapsed) + "). \u201cStart again\u201d clears it.");
        } catch (error) {
          board.load(history[0]);
          history = history.slice(0, 1);
        }
      }
      after();
    }

    function undoKeys(event) {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const k = event.key.toLowerCase();
      if (k === "z" && !event.shiftKey) go(-1);
      else if (k === "y" || (k === "z" && event.shiftKey)) go(1);
      else return;
      event.preventDefault();
    }

    puzzles.forEach((p, n) => {
      const option = document.createElement("option");
      option.value = n;
      option.textContent = p.caption[0];
      $("choose").appendChild(option);
    });
    $("choose").hidden = puzzles.length < 2;
    $("choose").addEventListener("change", (e) => {
      store();  // the time on the puzzle left, since its last move
      show(Number(e.target.value), false);
    });
    $("undo").addEventListener("click", () => go(-1));
    $("redo").addEventListener("click", () => go(1));
    $("hint").addEventListener("click", () => board.hint());
    $("reveal").addEventListener("click", () => board.reveal());
    $("check").addEventListener("click", () => board.check());
    $("restart").addEventListener("click", () => show(number, true));
    $("pencil").addEventListener("click", () => {
      const on = !page.pencil();
      $("pencil").setAttribute("aria-pressed", String(on));
      document.body.classList.toggle("pencil", on);
    });
    $("mistakes").addEventListener("change", () => board && board.load(history[at]));
    document.addEventListener("keydown", undoKeys, true);
    document.addEventListener("visibilitychange", () => {
      if (board) run(!document.hidden && !board.solved());
      if (document.hidden) store();  // a phone may close a hidden page without pagehide
    });
    window.addEventListener("pagehide", store);
    window.addEventListener("resize", () => board && board.fit && board.fit());
    show(0, false);
  }

  // A puzzle without a play board: its drawing.
  kinds.drawing = function (puzzle, page) {
    page.element.className = "drawing";
    page.element.innerHTML = puzzle.svg || "";
    const rules = document.getElementById("rules");
    rules.textContent = (puzzle.rules ? puzzle.rules + " " : "") +
      "(This type of puzzle has no play board; here is its drawing.)";
    return null;
  };

  window.PuzzleEngine = {kinds, start, clock};
})();
