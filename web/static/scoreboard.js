// The spectators' scoreboard: draws each message of the public stream. It can change
// nothing: it only reads /api/stream.
"use strict";

(() => {
  const boardNode = document.getElementById("board");
  const log = document.getElementById("log");
  const turn = document.getElementById("turn");
  const clock = document.getElementById("clock");
  const result = document.getElementById("result");
  const waiting = document.getElementById("waiting");

  function show(message) {
    const board = message.board;
    if (!board) {  // one of a burst: the board comes with the burst's last message
      TA.renderLog(log, message.lines.map((line) => [message.seq, line]), 12);
      return;
    }
    TA.renderBoard(board, boardNode);
    turn.textContent = TA.turnText(board);
    TA.setClock(board.clock, clock);
    result.hidden = !board.result;
    if (board.result) result.textContent = TA.turnText(board);
    waiting.hidden = !board.waiting;
    waiting.textContent = board.waiting ? "Waiting for the judge or a coin flip…" : "";
    if (message.reset) {
      log.replaceChildren();
      TA.renderLog(log, message.recent.map(([seq, line]) => [seq, line]), 12);
    } else {
      TA.renderLog(log, message.lines.map((line) => [message.seq, line]), 12);
    }
  }

  window.scoreboard = TA.follow("/api/stream", show, document.getElementById("live"));
  setInterval(() => TA.tickClock(clock), 1000);
})();
