// A stored game on the scoreboard, one entry at a time: reads
// /api/records/games/N/replay?at=E and draws the board after entry E. Read-only.
"use strict";

(() => {
  const game = Number(location.pathname.split("/").filter(Boolean).pop());
  const $ = (id) => document.getElementById(id);
  const state = { at: null, last: null };

  async function show(at) {
    const query = at === null ? "" : "?at=" + at;
    const response = await fetch(`/api/records/games/${game}/replay${query}`);
    const data = await response.json();
    if (!response.ok) { $("turn").textContent = data.error || response.statusText; return; }
    state.at = data.seq;
    state.last = data.last;
    TA.renderBoard(data.board, $("board"));
    $("turn").textContent = TA.turnText(data.board);
    $("position").textContent = `${data.seq} / ${data.last}`;
    $("entry").textContent = data.seq ? `Entry ${data.seq} (${data.kind})` : "The setup";
    $("lines").replaceChildren(...(data.lines.length ? data.lines : ["(nothing a spectator sees)"])
      .map((line) => TA.el("li", "", line)));
    $("result").hidden = !data.board.result;
    if (data.board.result) $("result").textContent = TA.turnText(data.board);
    $("first").disabled = $("back").disabled = data.seq === 0;
    $("forward").disabled = $("last").disabled = data.seq === data.last;
    history.replaceState(null, "", `${location.pathname}?at=${data.seq}`);
  }

  $("first").onclick = () => show(0);
  $("back").onclick = () => show(Math.max(0, state.at - 1));
  $("forward").onclick = () => show(Math.min(state.last, state.at + 1));
  $("last").onclick = () => show(null);
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft" && state.at > 0) show(state.at - 1);
    if (event.key === "ArrowRight" && state.at < state.last) show(state.at + 1);
  });
  const start = new URLSearchParams(location.search).get("at");
  window.replay = state;
  show(start === null ? 0 : Number(start));
})();
