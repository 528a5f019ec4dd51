// The board kind "choice": a question (play.py's ChoiceBoard). The player chooses an
// option, or types the answer, and checks it; a hint rules out one wrong option (with no
// options: gives the answer's first character); the answer can be revealed.
// A kind is (puzzle, page) => board (core.js describes both); it registers itself with
// the page's shell (window.PuzzleEngine.kinds), or else where play.js finds it.
(function () {
  "use strict";
  const kinds = window.PuzzleEngine ? window.PuzzleEngine.kinds
    : (window.puzzleEngineBoards = window.puzzleEngineBoards || {});
  const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  function make(tag, className, text) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // An answer as compared: case and spacing aside; unordered, its comma-separated parts
  // in any order.
  function normalised(text, unordered) {
    const parts = unordered ? String(text).split(",") : [String(text)];
    const out = parts.map((part) => part.trim().toLowerCase().replace(/\s+/g, " ")).filter((p) => p);
    if (unordered) out.sort();
    return out.join(", ");
  }

  kinds.choice = function (puzzle, page) {
    const board = puzzle.grid;
    const element = page.element;
    const letter = (k) => LETTERS[k] || String(k + 1);
    let verdict = "";      // "right", "wrong" or "": what the last check found
    let checkedOption = -1;
    let revealed = false;
    const out = new Set();  // options ruled out by hints
    element.className = "choice";
    element.appendChild(make("p", "question", board.question));
    const form = make("div", "options");
    const radios = [];
    let box = null;
    if (board.options.length) {
      form.setAttribute("role", "radiogroup");
      board.options.forEach((text, k) => {
        const label = make("label", "option");
        const radio = make("input");
        radio.type = "radio";
        radio.name = "choice";
        radio.value = k;
        radio.addEventListener("change", () => {
          verdict = "";
          page.moved();
          draw();
        });
        label.append(radio, " " + letter(k) + ". " + text);
        radios.push(radio);
        form.appendChild(label);
      });
    } else {
      box = make("input", "answer");
      box.type = "text";
      box.autocomplete = "off";
      box.setAttribute("aria-label", "Your answer");
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter") check();
      });
      box.addEventListener("change", () => page.moved());
      form.appendChild(box);
    }
    // The shell's own Check button serves where there is one (core.js); else the board's.
    if (!document.getElementById("check")) {
      const button = make("button", "check", "Check");
      button.type = "button";
      button.addEventListener("click", check);
      form.appendChild(button);
    }
    element.appendChild(form);
    const answerText = board.options.length ? letter(board.answer) + ". " + board.options[board.answer] : board.answer;

    function chosen() {
      return radios.findIndex((radio) => radio.checked);
    }

    function draw() {
      radios.forEach((radio, k) => {
        const label = radio.parentElement;
        radio.disabled = out.has(k);
        label.classList.toggle("ruled-out", out.has(k));
        label.classList.toggle("right", (verdict === "right" || revealed) && k === board.answer && radio.checked);
        label.classList.toggle("wrong", verdict === "wrong" && k === checkedOption && radio.checked);
      });
      if (box) {
        box.classList.toggle("right", verdict === "right" || revealed);
        box.classList.toggle("wrong", verdict === "wrong");
      }
      page.status(revealed ? "The answer is " + answerText + "." : verdict === "right" ? "Right! Solved."
        : board.options.length ? "Choose an option, then check it." : "Type your answer, then check it.");
    }

    function check() {
      if (box) {
        if (!box.value.trim()) return page.say("Type an answer first.");
        verdict = normalised(box.value, board.unordered) === normalised(board.answer, board.unordered) ? "right" : "wrong";
      } else {
        checkedOption = chosen();
        if (checkedOption < 0) return page.say("Choose an option first.");
        verdict = checkedOption === board.answer ? "right" : "wrong";
      }
      page.moved();
      draw();
      if (verdict === "wrong") page.say(box ? "Not that: try again." : "Not that one: try again.");
      return undefined;
    }

    draw();
    return {
      save() {
        return {choice: chosen(), typed: box ? box.value : "", out: [...out], verdict: verdict,
                checked: checkedOption, revealed: revealed};
      },
      load(state) {
        radios.forEach((radio, k) => (radio.checked = k === state.choice));
        if (box) box.value = state.typed || "";
        out.clear();
        (state.out || []).forEach((k) => out.add(k));
        verdict = state.verdict || "";
        checkedOption = state.checked === undefined ? -1 : state.checked;
        revealed = Boolean(state.revealed);
        draw();
      },
      solved: () => verdict === "right" || revealed,
      check: check,
      hint() {
        if (box) return page.say("Hint: the answer starts with '" + String(board.answer).trim()[0] + "'.");
        const k = radios.findIndex((radio, j) => j !== board.answer && !out.has(j));
        if (k < 0) return page.say("Nothing left to hint: only the answer is left.");
        out.add(k);
        radios[k].checked = false;
        page.moved();
        draw();
        return page.say("Hint: it is not " + letter(k) + ".");
      },
      reveal() {
        revealed = true;
        if (box) box.value = board.answer;
        else radios[board.answer].checked = true;
        page.moved();
        draw();
      },
    };
  };
})();
