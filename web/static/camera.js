// The camera view: the latest annotated frame, refreshed about twice a second, and the
// calibration form for the mat's zones. The console's token comes in the page's link
// (?token=) or from the console opened before in this tab.
(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  if (params.get("token")) sessionStorage.setItem("console-token", params.get("token"));
  const token = sessionStorage.getItem("console-token") || "";
  const auth = { "Authorization": "Bearer " + token };
  const $ = (id) => document.getElementById(id);
  const fields = ["centre", "active_depth", "near"];
  $("back").href = "/console?token=" + encodeURIComponent(token);

  let shown = null;
  async function refresh() {
    try {
      const response = await fetch("/api/console/camera.jpg", { headers: auth, cache: "no-store" });
      if (response.ok) {
        const url = URL.createObjectURL(await response.blob());
        $("frame").src = url;
        if (shown) URL.revokeObjectURL(shown);
        shown = url;
        $("frame").hidden = false;
        $("frame-note").hidden = true;
        $("live").textContent = "live";
        $("live").className = "live on";
      } else {
        const body = await response.json().catch(() => ({}));
        $("frame-note").textContent = body.error || ("the camera answered " + response.status);
        $("frame-note").hidden = false;
        $("live").textContent = "no frame";
        $("live").className = "live off";
      }
    } catch (error) {
      $("live").textContent = "offline";
      $("live").className = "live off";
    }
    setTimeout(refresh, 500);
  }

  function showZones(zones) {
    for (const name of fields) {
      $(name).value = zones[name];
      $(name + "-out").textContent = Number(zones[name]).toFixed(2);
    }
    $("a_at_bottom").checked = zones.a_at_bottom;
  }

  async function loadZones() {
    const response = await fetch("/api/console/layout", { headers: auth });
    const body = await response.json().catch(() => ({}));
    if (response.ok) showZones(body);
    else $("zones-reply").textContent = body.error || "the zones cannot be read";
  }

  for (const name of fields) {
    $(name).addEventListener("input", () => { $(name + "-out").textContent = Number($(name).value).toFixed(2); });
  }
  $("zones").addEventListener("submit", async (event) => {
    event.preventDefault();
    const change = { a_at_bottom: $("a_at_bottom").checked };
    for (const name of fields) change[name] = Number($(name).value);
    const response = await fetch("/api/console/layout", {
      method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify(change),
    });
    const body = await response.json().catch(() => ({}));
    $("zones-reply").className = "reply " + (response.ok ? "ok" : "err");
    $("zones-reply").textContent = response.ok ? "Saved: the mirror places the next picture with these zones."
      : (body.error || "not saved");
    if (response.ok) showZones(body);
  });

  // The mat's corners, tapped on the picture: fractions of it, top-left first, clockwise.
  const CORNERS = ["top-left", "top-right", "bottom-right", "bottom-left"];
  let tapped = null;
  function tapSay(text, ok) {
    $("tap-reply").className = "reply" + (ok === undefined ? "" : ok ? " ok" : " err");
    $("tap-reply").textContent = text;
  }
  function clearDots() { for (const dot of document.querySelectorAll(".tap-dot")) dot.remove(); }
  function askNext() {
    tapSay("Tap the mat's " + CORNERS[tapped.length] + " corner (" + (tapped.length + 1) + " of 4).");
  }
  $("tap-start").addEventListener("click", () => {
    tapped = [];
    clearDots();
    $("tap-area").classList.add("tapping");
    askNext();
  });
  $("frame").addEventListener("click", async (event) => {
    if (tapped === null) return;
    const box = $("frame").getBoundingClientRect();
    const point = [(event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height];
    tapped.push(point);
    const dot = document.createElement("span");
    dot.className = "tap-dot";
    dot.textContent = String(tapped.length);
    dot.style.left = (100 * point[0]) + "%";
    dot.style.top = (100 * point[1]) + "%";
    $("tap-area").appendChild(dot);
    if (tapped.length < 4) { askNext(); return; }
    const corners = tapped;
    tapped = null;
    $("tap-area").classList.remove("tapping");
    const response = await fetch("/api/console/corners", {
      method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ corners }),
    });
    const body = await response.json().catch(() => ({}));
    if (response.ok) tapSay("Saved: the mat is placed by these corners; its zones are drawn where they lie.", true);
    else { clearDots(); tapSay((body.error || "not saved") + " Tap the corners again.", false); }
  });
  $("tap-forget").addEventListener("click", async () => {
    tapped = null;
    clearDots();
    $("tap-area").classList.remove("tapping");
    const response = await fetch("/api/console/corners", { method: "DELETE", headers: auth });
    tapSay(response.ok ? "Forgotten: cards are placed in the picture again (or by the mat's markers)."
      : "the corners could not be forgotten", response.ok);
  });

  loadZones();
  refresh();
})();
