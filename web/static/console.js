// The judge's console: answers the table's questions and sends commands, with the
// console's token. The token comes in the page's link (?token=); it is kept for this
// tab only and taken out of the address bar, so a shared screen does not show it.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  if (params.get("token")) {
    sessionStorage.setItem("console-token", params.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  const token = sessionStorage.getItem("console-token") || "";
  const $ = (id) => document.getElementById(id);
  const replyNode = $("reply");

  async function send(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Authorization": "Bearer " + token },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (_) { data = { error: response.statusText }; }
    showReply(response.ok ? data : { error: data.error || response.statusText, status: response.status });
    return data;
  }

  function showReply(reply) {
    replyNode.replaceChildren();
    if (reply.error) {
      replyNode.append(TA.el("p", "err", reply.error));
    } else if (reply.accepted) {
      replyNode.append(TA.el("p", "ok", `Accepted (entry ${reply.seq}).`));
    } else if (reply.alert) {
      replyNode.append(refusalCard(reply.alert));
    } else if (reply.questions && reply.questions.length) {
      replyNode.append(TA.el("p", "", "The table asks: " + reply.questions.map((q) => q.text).join("; ")));
    } else {
      replyNode.append(TA.el("p", "ok", `Recorded (entry ${reply.seq}).`));
    }
  }

  function refusalCard(alert) {
    const card = TA.el("div", "refusal-card");
    card.dataset.testid = "refusal";
    const head = TA.el("div");
    head.append(TA.el("code", "", alert.reason), " ", alert.message);
    card.append(head, TA.el("div", "cite", alert.citation || "no rulebook line"));
    return card;
  }

  function showQuestions(questions) {
    const box = $("questions");
    box.replaceChildren();
    if (!questions.length) { box.append(TA.el("p", "empty", "No question is waiting.")); return; }
    for (const question of questions) {
      const card = TA.el("div", "question");
      card.dataset.testid = "question";
      card.dataset.question = question.id;
      card.append(TA.el("p", "", `#${question.id} ${question.text}`));
      if (question.kind === "choice") {
        // the camera's (or the table's) readings: each option says what it would record
        card.append(TA.el("p", "asked-by", `asked by the ${question.asked_by}`));
        for (const name of question.shows || []) {
          // what the camera saw of each card the question is about (none: no such card in sight)
          const picture = document.createElement("img");
          picture.className = "seen-card";
          picture.dataset.testid = "seen-card";
          picture.alt = `the camera's picture of ${name}`;
          picture.src = "/api/console/camera/card.jpg?name=" + encodeURIComponent(name)
            + "&token=" + encodeURIComponent(token);
          picture.onerror = () => picture.remove();
          card.append(picture);
        }
        for (const answer of question.answers) {
          const row = TA.el("div", "option");
          row.dataset.testid = "option";
          const button = TA.el("button", answer === question.answers[0] ? "primary" : "", answer);
          button.dataset.answer = answer;
          button.onclick = () => send(`/api/console/questions/${question.id}/answer`, { answer });
          row.append(button, TA.el("span", "does", describe(question.options[answer])));
          card.append(row);
        }
        box.append(card);
        continue;
      }
      for (const answer of question.answers) {
        const button = TA.el("button", "", answer);
        button.dataset.answer = answer;
        button.onclick = () => send(`/api/console/questions/${question.id}/answer`, { answer });
        card.append(button);
      }
      if (question.kind === "coin") {
        const flip = TA.el("button", "primary", "Flip for me");
        flip.dataset.testid = "flip";
        flip.onclick = () => send(`/api/console/questions/${question.id}/flip`);
        card.append(flip);
      }
      box.append(card);
    }
  }

  // What an option of a question would record, in a few words.
  function describe(action) {
    if (!action) return "records nothing: it did not happen";
    const rest = Object.entries(action).filter(([key]) => key !== "type" && key !== "player")
      .map(([key, value]) => `${key} ${typeof value === "object" ? JSON.stringify(value) : value}`);
    return "records " + String(action.type).replace(/_/g, " ") + (rest.length ? ": " + rest.join(", ") : "");
  }

  async function read(path) {
    const response = await fetch(path, { headers: { "Authorization": "Bearer " + token } });
    return response.ok ? response.json() : null;
  }

  // -- declaring an attack: the Active's attacks and the Pokémon it may also hit --
  let attackKey = null;
  async function refreshAttack() {
    const form = await read("/api/console/attack");
    if (!form) return;
    const key = JSON.stringify([form.player, form.attacker, form.attacks, form.targets.map((t) => t.target + t.name)]);
    if (key === attackKey) return;  // the same form: keep what the judge typed
    attackKey = key;
    $("attacker").textContent = form.attacker
      ? `${form.attacker.name}, Player ${form.player}'s Active Pokémon` : `Player ${form.player} has no Active Pokémon`;
    $("attacker").className = form.attacker ? "" : "empty";
    $("attack-name").replaceChildren(...form.attacks.map((attack) => {
      const option = TA.el("option", "", `${attack.name} · ${attack.cost.join(" + ") || "free"} · ${attack.damage || "no damage"}`);
      option.value = attack.name;
      return option;
    }));
    $("declare").disabled = !form.attacks.length;
    if (!$("mod-on").options.length) {
      $("mod-on").replaceChildren(...form.modifiers.on.map((on) => TA.el("option", "", on)));
      $("mod-by").replaceChildren(...form.modifiers.by.map((by) => TA.el("option", "", by)));
    }
    $("attack-targets").replaceChildren(...form.targets.map((target) => {
      const row = TA.el("label", "row target");
      const amount = TA.el("input");
      amount.type = "number"; amount.min = "0"; amount.step = "10"; amount.placeholder = "damage";
      amount.dataset.target = target.target;
      row.append(TA.el("span", "", `${target.name} (${target.target}, ${target.hp_left} HP left)`), amount);
      return row;
    }));
  }

  function declaredAttack() {
    const action = { type: "attack", attack: $("attack-name").value };
    if ($("attack-base").value !== "") action.base = Number($("attack-base").value);
    const amount = Number($("mod-amount").value || 0);
    if (amount) action.modifiers = [{ on: $("mod-on").value, by: $("mod-by").value, amount }];
    const targets = [...$("attack-targets").querySelectorAll("input[data-target]")]
      .filter((input) => Number(input.value) > 0)
      .map((input) => ({ target: input.dataset.target, amount: Number(input.value) }));
    if (targets.length) action.targets = targets;
    return action;
  }

  // -- Pokémon Checkup, one step at a time --
  async function refreshCheckup() {
    const state = await read("/api/console/checkup");
    if (!state) return;
    $("checkup-plan").replaceChildren(...(state.plan.length
      ? state.plan.map((step) => TA.el("li", "", `${step.condition}: Player ${step.player}'s ${step.name}`))
      : [TA.el("li", "empty", "No Special Condition to check.")]));
    const asking = $("checkup-asking");
    asking.replaceChildren();
    if (state.asking) {
      const card = TA.el("div", "question");
      card.dataset.testid = "checkup-step";
      for (const flip of state.flipped) card.append(TA.el("p", "ok", `${flip.purpose}: ${flip.result} ✓`));
      card.append(TA.el("p", "", `Now: flip a coin for ${state.asking.purpose.replace(/-/g, " ")}`));
      for (const answer of state.asking.answers) {
        const button = TA.el("button", "", answer);
        button.dataset.answer = answer;
        button.onclick = () => send(`/api/console/questions/${state.asking.id}/answer`, { answer });
        card.append(button);
      }
      const flip = TA.el("button", "primary", "Flip for me");
      flip.onclick = () => send(`/api/console/questions/${state.asking.id}/flip`);
      card.append(flip);
      asking.append(card);
    }
    $("end-turn").disabled = Boolean(state.asking);
    const last = $("checkup-last");
    last.replaceChildren();
    if (state.last) {
      last.append(TA.el("h3", "", `Last Checkup (entry ${state.last.seq})`));
      const list = TA.el("ol", "steps-list");
      list.append(...(state.last.steps.length ? state.last.steps.map((step) => TA.el("li", "", step))
        : [TA.el("li", "empty", "Nothing to check.")]));
      last.append(list);
    }
  }

  function refreshForms() { refreshAttack(); refreshCheckup(); }

  function show(message) {
    const board = message.board;
    if (board) {  // one of a burst has none: the burst's last message brings it
      TA.renderBoard(board, $("board"));
      $("turn").textContent = TA.turnText(board);
      TA.setClock(board.clock, $("clock"));
      $("clock-panel").hidden = !board.clock;
      $("result").hidden = !board.result;
      if (board.result) $("result").textContent = TA.turnText(board);
      showQuestions(message.questions || []);
      refreshForms();
    }
    const lines = message.reset ? message.recent : message.lines.map((line) => [message.seq, line]);
    if (message.reset) $("log").replaceChildren();
    TA.renderLog($("log"), lines.map(([seq, line]) => [seq, `${seq}. ${line}`, line.startsWith("Refused") ? "refusal" : ""]), 40);
    if (message.alert) {
      const refusals = $("refusals");
      if (refusals.querySelector(".empty")) refusals.replaceChildren();
      refusals.prepend(refusalCard(message.alert));
    }
  }

  $("propose").onclick = () => {
    let action;
    try { action = JSON.parse($("action").value); } catch (error) {
      showReply({ error: "the action is not JSON: " + error.message });
      return;
    }
    send("/api/console/actions", { action, source: $("source").value });
  };
  for (const button of document.querySelectorAll("[data-preset]")) {
    button.onclick = () => { $("action").value = button.dataset.preset; $("action").focus(); };
  }
  $("declare").onclick = () => send("/api/console/actions", { action: declaredAttack(), source: "console" });
  $("end-turn").onclick = () => send("/api/console/actions", { action: { type: "end_turn" }, source: "console" });
  $("rewind").onclick = () => send("/api/console/rewind", { to: Number($("rewind-to").value), reason: $("rewind-reason").value });
  $("penalty").onclick = () => send("/api/console/penalties", {
    player: $("penalty-player").value, kind: $("penalty-kind").value, reason: $("penalty-reason").value });
  for (const button of document.querySelectorAll("[data-clock]")) {
    button.onclick = () => send("/api/console/clock", { do: button.dataset.clock });
  }

  $("pair").onclick = async () => {
    const image = $("pairing");
    if (!image.hidden) { image.hidden = true; return; }
    const response = await fetch("/api/console/pairing.svg", { headers: { "Authorization": "Bearer " + token } });
    if (!response.ok) { showReply({ error: "no QR code: " + response.statusText }); return; }
    image.src = URL.createObjectURL(await response.blob());
    image.hidden = false;
  };

  window.consoleView = TA.follow("/api/console/stream?token=" + encodeURIComponent(token), show, $("live"));
  setInterval(() => TA.tickClock($("clock")), 1000);
})();
