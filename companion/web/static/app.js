// The phone view: draws the companion's view document (GET /api/view, then one Server-Sent
// Event per change). Everything is built with textContent: nothing from the table is ever HTML.
"use strict";

const PLAYERS = ["p1", "p2"];
const COLORS = "ROYGPK";
const state = { view: null, language: "en", side: localStorage.getItem("side") || "p1", token: localStorage.getItem("token") || "" };
let strings = {};  // msgid -> translation, from the companion's gettext catalog (GET /api/strings)

function $(id) { return document.getElementById(id); }

// The message in the page's language, its {names} filled in from values.
function tr(msgid, values) {
  const text = strings[msgid] || msgid;
  return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

function title(player) { return player === "p1" ? tr("Player 1") : tr("Player 2"); }

function chip(letter, count, names) {
  return el("span", { class: `chip c-${letter}`, title: tr(names[letter]), "data-color": letter },
            count > 1 ? `${tr(names[letter])} \u00d7${count}` : tr(names[letter]));
}

function chips(counts, names) {
  const box = el("span", { class: "chips" });
  for (const letter of Object.keys(names)) if (counts[letter]) box.append(chip(letter, counts[letter], names));
  if (!box.childElementCount) box.append(el("span", { class: "muted" }, tr("empty")));
  return box;
}

// What the player to act does now on a mountains table (the OLED's headlines).
const MOUNTAINS_STEPS = { start: "{player} START CARD", draw: "{player} DRAW TO 6", play: "{player} TO PLAY",
                          discard: "{player} DISCARD" };

function instruction(view) {
  const m = view.model;
  if (m.camera !== "ok") return m.camera === "lost" ? tr("Camera lost: check its cable") : tr("No camera found");
  if (m.board !== "ok") return tr("Mat not in view: keep its corners visible");
  if (m.phase === "setup" && m.mountains) return tr("Deal 6 to each hand,") + " " + tr("lay the start cards.");
  if (m.phase === "setup") return tr("Deal: two cards into each mountain");
  if (m.phase === "over") {
    const o = m.over;
    const who = o.winner === "draw" ? tr("A draw") : tr(o.unknown ? "{player} leads" : "{player} wins", { player: title(o.winner) });
    return tr("Game over: {result} {one}\u2013{two}", { result: who, one: o.scores[0], two: o.scores[1] });
  }
  if (m.phase === "destruction") {
    const d = m.destruction;
    if (d.refill) return tr("Refill mandala {n}: {count} card(s) into its mountain", { n: d.mandala.slice(1), count: d.refill });
    return tr("{player} claims a color from mandala {n}", { player: title(d.picker), n: d.mandala.slice(1) });
  }
  if (m.phase === "discard-confirm") return tr("{player}: how many cards discarded? ({count}?)", { player: title(m.discard.player), count: m.discard.asked });
  if (m.mountains && m.phase === "play") return tr(MOUNTAINS_STEPS[m.mountains.step], { player: title(m.turn) });
  if (m.draw) return tr("{player}: draw {count}", { player: title(m.turn), count: m.draw });
  return tr("{player} to play", { player: title(m.turn) });
}

function drawStatus(view) {
  const m = view.model;
  $("phase").textContent = m.phase;
  $("instruction").textContent = instruction(view);
  const final = view.final;
  $("turn").textContent = final ? title(final.turn) : title(m.turn);
  $("turn").dataset.player = final ? final.turn : m.turn;
  $("deck").textContent = final ? final.deck : m.deck;
  $("discard").textContent = final ? final.discard : "-";
}

// A warning in the page's language (the view words it in each), or as the companion sent it.
function words(w) {
  const texts = (w.texts && w.texts[state.language]) || {};
  return { title: texts.title || w.title || w.reason, what: texts.what || w.message, fix: texts.fix || w.fix };
}

function drawWarnings(view) {
  const list = $("warnings");
  list.replaceChildren();
  view.model.warnings.forEach((w, index) => {
    const shown = words(w);
    const item = el("li", { "data-reason": w.reason },
      el("div", { class: "title" }, shown.title), el("div", {}, shown.what), el("div", { class: "fix" }, shown.fix));
    if (state.paired) {
      const accept = el("button", { type: "button" }, tr("Accept as it lies"));
      accept.addEventListener("click", () => control("accept", { warning: index }));
      item.append(accept);
    }
    list.append(item);
  });
  $("warnings-box").hidden = view.model.warnings.length === 0;
  const warned = $("warned");
  warned.replaceChildren(...view.warnings_seen.map(
    (w) => { const shown = words(w); return el("li", { "data-reason": w.reason }, `${tr("frame {n}", { n: w.frame })}: ${shown.title} \u2013 ${shown.what} ${shown.fix}`); }));
}

function riverTable(player, names) {
  const table = el("table", { class: "river" },
    el("tr", {}, el("th", {}, tr("Space")), el("th", {}, tr("Color")), el("th", { class: "n" }, tr("Value")),
       el("th", { class: "n" }, tr("Cup cards")), el("th", { class: "n" }, tr("Points"))));
  for (const s of player.river) {
    table.append(el("tr", { "data-space": s.space }, el("td", {}, s.space), el("td", {}, chip(s.color, 1, names)),
      el("td", { class: "n" }, s.value), el("td", { class: "n" }, s.cup_cards), el("td", { class: "n" }, s.points)));
  }
  if (!player.river.length) table.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, tr("river empty: cup cards score nothing yet"))));
  return table;
}

function drawPlayers(view) {
  const box = $("players");
  box.replaceChildren();
  box.className = "players";
  if (view.model.mountains) {
    drawMountains(view, box);
    return;
  }
  if (!view.players) {
    box.append(el("p", { class: "muted" }, tr("No game yet: the companion waits for the deal.")));
    return;
  }
  // The other player on top, me at the bottom, as we sit.
  const order = state.side === "p1" ? ["p2", "p1"] : ["p1", "p2"];
  for (const name of order) {
    const p = view.players[name];
    const cup = p.cup;
    const unseen = cup.unseen ? " " + tr("+ {count} unseen cup card(s)", { count: cup.unseen }) : "";
    box.append(el("article", { class: `player${name === state.side ? " me" : ""}`, id: `player-${name}` },
      el("h2", {}, title(name), name === state.side ? " " + tr("(you)") : ""),
      el("div", {}, el("span", { class: "score", id: `score-${name}` }, p.score), " " + tr("points"), unseen),
      el("div", { class: "muted" }, tr("hand {hand} \u00b7 cup {cup}", { hand: p.hand, cup: cup.size })),
      el("h3", {}, tr("River and score")), riverTable(p, view.colors),
      el("h3", {}, tr("Cup: known cards")), chips(cup.known, view.colors),
      el("div", { class: "muted" }, `${cup.unseen} unseen` + (cup.unscored ? `, ${cup.unscored} of a color not in the river (0 points)` : ""))));
  }
}

function counted(letters) {
  const counts = {};
  for (const letter of letters) counts[letter] = (counts[letter] || 0) + 1;
  return counts;
}

// A mountains table: what its OLED shows (round, scores with gold, hands, each mountain, each score pile).
function drawMountains(view, box) {
  const m = view.model.mountains;
  const names = { ...view.colors, A: "gold" };
  box.append(el("p", { id: "round" }, tr("round {round}  deck {count}", { round: m.round, count: view.model.deck })));
  if (m.round_end) {
    box.append(el("p", { id: "round-end" }, tr("ROUND {round} SCORED", { round: m.round_end.round }) + ": " +
      tr("gold P1 +{one}  P2 +{two}", { one: m.round_end.gold[0], two: m.round_end.gold[1] })));
  }
  const order = state.side === "p1" ? ["p2", "p1"] : ["p1", "p2"];
  for (const name of order) {
    const i = PLAYERS.indexOf(name);
    box.append(el("article", { class: `player${name === state.side ? " me" : ""}`, id: `player-${name}` },
      el("h2", {}, title(name), name === state.side ? " " + tr("(you)") : ""),
      el("div", {}, el("span", { class: "score", id: `score-${name}` }, m.scores[i]), " " + tr("points"),
        m.gold[i] ? tr(" ({count} gold)", { count: m.gold[i] }) : ""),
      el("div", { class: "muted" }, tr("hand {hand}", { hand: m.hands[i] })),
      el("h3", {}, tr("Mountain")), chips(counted(m.mountains[i]), names),
      el("h3", {}, tr("Score pile")), chips(counted(m.piles[i]), names)));
  }
}

function drawMandalas(view) {
  const box = $("mandalas");
  box.replaceChildren();
  if (!view.mandalas) return;
  const other = state.side === "p1" ? "p2" : "p1";
  for (const [name, m] of Object.entries(view.mandalas)) {
    const worth = el("div", { class: "muted" }, "Worth per cup card: " + Object.keys(m.colors).map(
      (c) => `${view.colors[c]} ${m.worth[state.side][c]} (you) / ${m.worth[other][c]}`).join(", "));
    box.append(el("article", { class: `mandala${m.destroying ? " destroying" : ""}`, id: `mandala-${name}` },
      el("h3", {}, tr("Mandala {n}", { n: name.slice(1) }), m.destroying ? " \u2013 " + tr("being destroyed") : ""),
      el("div", {}, tr("{player}'s field", { player: title(other) })), chips(m.fields[other], view.colors),
      el("div", {}, tr("Mountain")), chips(m.mountain, view.colors),
      el("div", {}, tr("Your field")), chips(m.fields[state.side], view.colors),
      Object.keys(m.colors).length ? worth : null));
  }
}

function drawSheet(view) {
  const over = view.model.over;
  $("sheet-box").hidden = !over;
  if (!over || !view.players) return;
  const reason = over.end_reason === "deck" ? "the deck ran out" : over.end_reason === "river" ? "a river is full" : "";
  const who = over.winner === "draw" ? "A draw." : `${title(over.winner)} ${over.unknown ? "leads (cup cards still to reveal)" : "wins"}.`;
  $("result").textContent = `${who} ${over.tie_break ? "Equal points: fewer cup cards wins. " : ""}${reason ? "The game ended: " + reason + "." : ""}`;
  const sheet = $("sheet");
  sheet.replaceChildren();
  for (const name of PLAYERS) {
    const p = view.players[name];
    sheet.append(el("h3", {}, `${title(name)}: ${p.score} points, ${p.cup.size} cup cards`), riverTable(p, view.colors));
  }
}

// A history line in the page's language: each sentence's template translated, and its words too
// (a color, "Player 1"); card ids and numbers have no translation and stay as they are.
function sentence(s) {
  const values = {};
  for (const [name, value] of Object.entries(s.values)) values[name] = strings[value] || value;
  return tr(s.template, values);
}

function drawHistory(view) {
  $("history").replaceChildren(...view.history.slice().reverse().map(
    (h) => el("li", { value: h.n, title: h.event },
      (h.sentences ? h.sentences.map(sentence).join(" ") : h.text) + (h.forced ? " " + tr("(by the players' word)") : ""))));
}

function draw() {
  const view = state.view;
  if (!view) return;
  drawStatus(view); drawWarnings(view); drawPlayers(view); drawMandalas(view); drawSheet(view); drawHistory(view);
  document.body.dataset.seq = String(state.seq || 0);
}

async function loadGames() {
  try {
    const answer = await fetch("/api/games");
    if (!answer.ok) return;
    const games = (await answer.json()).games.slice().reverse();
    $("games").replaceChildren(...games.map((g) => {
      const result = g.finished ? (g.result && g.result.winner ? `winner ${g.result.winner} (${g.result.scores.p1}\u2013${g.result.scores.p2})` : "stopped") : "in progress";
      return el("li", {}, `#${g.id} ${g.started.slice(0, 16).replace("T", " ")} \u00b7 ${g.entries} entries \u00b7 ${result} \u00b7 `,
        el("a", { href: `/api/games/${g.id}/record`, download: `mandala-game-${g.id}.jsonl` }, "download record"));
    }));
  } catch (error) { /* the list waits for the next change */ }
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("open", () => { $("link").textContent = "live"; $("link").dataset.state = "live"; });
  source.addEventListener("error", () => { $("link").textContent = "reconnecting"; $("link").dataset.state = "lost"; });
  source.addEventListener("view", (event) => {
    const before = state.view;
    state.view = JSON.parse(event.data);
    state.seq = Number(event.lastEventId);
    draw();
    if (!before || before.game_id !== state.view.game_id || (before.history.length !== state.view.history.length)) loadGames();
  });
}

// -- controls: only after pairing -----------------------------------------------------------

async function post(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const answer = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await answer.json(); } catch (error) { /* no body */ }
  return { ok: answer.ok, status: answer.status, data };
}

async function control(action, body) {
  const result = await post(`/api/control/${action}`, body);
  if (result.status === 403) { setPaired(false); }
  $("control-result").textContent = result.ok ? `sent: ${result.data.sent}` : result.data.error || `refused (${result.status})`;
}

function setPaired(paired) {
  state.paired = paired;
  if (!paired) { state.token = ""; localStorage.removeItem("token"); }
  $("controls").hidden = !paired;
  $("pair-row").hidden = paired;
  $("controls-note").textContent = paired ? "This phone is paired: its controls act on the game like the buttons." :
    "Read-only. To undo, accept a warning, confirm a discard or start a new game from this phone, pair it with the code the companion shows.";
  draw();
}

async function checkPairing() {
  const headers = state.token ? { Authorization: `Bearer ${state.token}` } : {};
  try {
    const answer = await fetch("/api/pair/status", { headers });
    const data = await answer.json();
    if (!data.controls) { $("controls-box").hidden = true; return; }
    setPaired(Boolean(data.paired));
  } catch (error) { setPaired(false); }
}

function setup() {
  $("language").addEventListener("change", () => { localStorage.setItem("language", $("language").value); loadStrings(); });
  $("side").value = state.side;
  $("side").addEventListener("change", () => { state.side = $("side").value; localStorage.setItem("side", state.side); draw(); });
  if (localStorage.getItem("flipped") === "1") document.body.classList.add("flipped");
  $("flip").addEventListener("click", () => {
    document.body.classList.toggle("flipped");
    localStorage.setItem("flipped", document.body.classList.contains("flipped") ? "1" : "0");
  });
  $("pair").addEventListener("click", async () => {
    const result = await post("/api/pair");
    $("control-result").textContent = result.ok ? `Type the code the companion shows (${result.data.seconds} s).` : result.data.error;
    $("pair-form").hidden = !result.ok;
  });
  $("pair-send").addEventListener("click", async () => {
    const result = await post("/api/pair/confirm", { code: $("code").value.replace(/\s/g, "") });
    if (result.ok) { state.token = result.data.token; localStorage.setItem("token", state.token); $("pair-form").hidden = true; }
    $("control-result").textContent = result.ok ? "Paired." : result.data.error;
    setPaired(result.ok);
  });
  for (const button of document.querySelectorAll("[data-control]")) {
    button.addEventListener("click", () => {
      if (button.dataset.ask && !window.confirm(button.dataset.ask)) return;
      const body = button.dataset.control === "confirm" && $("count").value ? { count: Number($("count").value) } : {};
      control(button.dataset.control, body);
    });
  }
  loadStrings().finally(() => { checkPairing(); connect(); loadGames(); });
}

async function loadStrings() {
  const chosen = localStorage.getItem("language") || "";
  try {
    const answer = await fetch("/api/strings" + (chosen ? `?language=${encodeURIComponent(chosen)}` : ""));
    const data = await answer.json();
    strings = data.strings;
    state.language = data.language;
    document.documentElement.lang = data.language;
    document.documentElement.dir = data.rtl ? "rtl" : "ltr";
    $("language").value = data.language;
  } catch (error) { strings = {}; }
  for (const node of document.querySelectorAll("[data-tr]")) {
    node.dataset.tr = node.dataset.tr || node.textContent.trim();
    node.textContent = tr(node.dataset.tr);
  }
  draw();
}

document.addEventListener("DOMContentLoaded", setup);
