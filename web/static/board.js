// Draws a board (see web/board.py) and follows a Server-Sent Events stream.
// Shared by the scoreboard and the console. Text goes in with textContent only:
// card names come from outside, and are never markup.
"use strict";

const TA = (() => {
  const TYPES = ["grass", "fire", "water", "lightning", "psychic", "fighting", "darkness", "metal",
    "fairy", "dragon", "colorless"];
  const LETTER = { grass: "G", fire: "R", water: "W", lightning: "L", psychic: "P", fighting: "F",
    darkness: "D", metal: "M", fairy: "Y", dragon: "N", colorless: "C" };

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function energyChip(name) {
    const word = String(name).split(" ")[0].toLowerCase();
    const basic = TYPES.includes(word) && /^\w+ Energy$/.test(name);
    const chip = el("span", "energy" + (basic ? " e-" + word : ""), basic ? LETTER[word] : name);
    chip.title = name;
    return chip;
  }

  function pokemon(mon, active) {
    const box = el("div", "mon" + (active ? " active" : ""));
    box.dataset.testid = active ? "active" : "benched";
    const top = el("div", "mon-top");
    top.append(el("span", "name", mon.name));
    for (const condition of mon.conditions) top.append(el("span", "cond", condition));
    const hp = el("span", "hp");
    if (mon.hp) {
      hp.append(String(mon.hp_left));
      hp.append(el("small", "", " / " + mon.hp + " HP"));
    } else if (mon.damage) {
      hp.append(el("small", "", mon.damage + " damage"));
    }
    top.append(hp);
    box.append(top);
    if (mon.hp) {
      const share = Math.max(0, Math.min(1, mon.hp_left / mon.hp));
      const bar = el("div", "hpbar" + (share <= 0.25 ? " low" : share <= 0.5 ? " mid" : ""));
      const fill = el("span");
      fill.style.width = (share * 100).toFixed(1) + "%";
      bar.append(fill);
      box.append(bar);
    }
    if (mon.energy.length || mon.tool) {
      const extras = el("div", "extras");
      for (const energy of mon.energy) extras.append(energyChip(energy));
      if (mon.tool) extras.append(el("span", "tool", mon.tool));
      box.append(extras);
    }
    return box;
  }

  function side(player, data, current) {
    const box = el("section", "side" + (current ? " current" : ""));
    box.dataset.player = player;
    box.dataset.testid = "side-" + player;
    const head = el("div", "side-head");
    head.append(el("span", "player", "Player " + player));
    if (current) head.append(el("span", "to-play", "to play"));
    const prizes = el("span", "prizes");
    prizes.title = "Prize cards left";
    prizes.dataset.testid = "prizes-" + player;
    const total = Math.max(6, data.prizes);
    for (let i = 0; i < total; i++) prizes.append(el("span", "prize" + (i < data.prizes ? "" : " taken")));
    prizes.append(el("span", "", " " + data.prizes));
    head.append(prizes);
    box.append(head);
    box.append(el("div", "counts",
      `Hand ${data.hand} · Deck ${data.deck} · Discard ${data.discard}` + (data.lost_zone ? ` · Lost ${data.lost_zone}` : "")));
    if (current) {
      const flags = el("div", "flags");
      flags.dataset.testid = "flags";
      flags.append(el("span", "", "This turn:"));
      for (const [key, label] of [["energy", "Energy"], ["supporter", "Supporter"], ["retreat", "Retreat"], ["stadium", "Stadium"]]) {
        const used = data.flags[key];
        flags.append(el("span", "flag" + (used ? " used" : ""), label + (used ? " ✓" : "")));
      }
      box.append(flags);
    }
    box.append(data.active ? pokemon(data.active, true) : el("div", "empty", "No Active Pokémon"));
    const bench = el("div", "bench");
    bench.append(el("div", "bench-label", `Bench (${data.bench.length})`));
    for (const mon of data.bench) bench.append(pokemon(mon, false));
    box.append(bench);
    return box;
  }

  function turnText(board) {
    if (board.result) {
      const winner = board.result.winner;
      return winner === "A" || winner === "B" ? `Player ${winner} wins` : "Game over: " + winner;
    }
    return `Turn ${board.turn} · Player ${board.current}` + (board.phase && board.phase !== "main" ? ` · ${board.phase}` : "");
  }

  function renderBoard(board, root) {
    root.replaceChildren();
    const players = Object.keys(board.players);
    // the player to move at the bottom, nearer the thumb; the opponent on top
    players.sort((a, b) => (a === board.current) - (b === board.current));
    for (const player of players) root.append(side(player, board.players[player], player === board.current && !board.result));
  }

  // The round clock counts down here between messages; each message sets it anew.
  let clockState = null;
  let clockSet = 0;
  function setClock(clock, node) {
    clockState = clock;
    clockSet = performance.now();
    node.hidden = !clock;
    tickClock(node);
  }
  function tickClock(node) {
    if (!clockState) return;
    let left = clockState.remaining - (clockState.running ? (performance.now() - clockSet) / 1000 : 0);
    left = Math.max(0, left);
    const m = Math.floor(left / 60), s = Math.floor(left % 60);
    node.textContent = clockState.called ? "Time" : `${m}:${String(s).padStart(2, "0")}` + (clockState.running ? "" : " paused");
    node.classList.toggle("low", left < 300);
  }

  function renderLog(list, lines, keep) {
    for (const [, line, kind] of lines) {
      const item = el("li", kind === "refusal" ? "refusal" : "", line);
      list.prepend(item);
    }
    while (list.children.length > keep) list.lastChild.remove();
  }

  // Follow a stream. The browser reconnects by itself after a drop, sending the last
  // id it saw (Last-Event-ID): the server resumes after it.
  function follow(url, onMessage, status) {
    const state = { lastSeq: null, messages: 0, source: null };
    function open() {
      const source = new EventSource(url);
      state.source = source;
      source.onopen = () => { status.textContent = "live"; status.className = "live on"; };
      source.onerror = () => { status.textContent = "reconnecting"; status.className = "live off"; };
      source.onmessage = (event) => {
        const message = JSON.parse(event.data);
        state.lastSeq = message.seq;
        state.messages += 1;
        onMessage(message);
      };
    }
    state.close = () => state.source && state.source.close();
    state.open = open;
    open();
    return state;
  }

  return { el, renderBoard, renderLog, setClock, tickClock, turnText, follow };
})();
