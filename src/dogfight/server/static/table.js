// The table page: one seat at a time (hot-seat: several seats of this browser take turns
// behind a curtain). The page keeps only the active seat's view: switching seats drops it
// and asks the server for the other seat's own view.

import { api, el, loadSeats, plural, logEntry, logWithClockNotes, saveSeats, seatsFromLink, shownLink } from "./common.js";
import { Board, along, lerpAngle } from "./board.js";
import { bombsOf, drawBombs, dropSelect, extraActions, isBomber, renderInvasionDecisions, withDrops } from "./invasion.js";
import { cardFace, cardName, cardTitle, movePoints, pathAfter, speedClass } from "./cards.js";
import { renderActionTokens, tokenStrip } from "./tokens.js";
import { drawTargets, missionLines } from "./missions.js";
import { renderChoices, renderSniper, renderTailing, tailingGhosts } from "./decisions.js";
import { reminderForm } from "./reminders.js";

const gameId = location.pathname.split("/").filter(Boolean)[1];
const replayMode = location.pathname.startsWith("/replay/");
const speedParam = new URLSearchParams(location.search).get("speed");
const SPEED = speedParam === null ? 1 : Number(speedParam);

const $ = (id) => document.getElementById(id);

let catalog = null;
let board = null;
let held = null; // {seats: {id: token}, active}
let view = null; // the active seat's view
let steps = []; // the active seat's steps (visible events)
let socket = null;
let drafts = {}; // vehicle id -> {cards: [], fire: [], rear_fire: [], rockets: [], actions: []}
let checks = {}; // vehicle id -> answer of /check
let animating = false;
let shown = null; // what the board shows: {state, poses, paths, shots}
let curtainFor = null;
let curtainAction = null; // what the curtain's button does: take a seat
let revealed = null; // what the public reveal playing shows ("Turn 2, phase 1 revealed")

function token() {
  return held.seats[held.active];
}

function seenKey() {
  return `dogfight:${gameId}:${held.active}:seen`;
}

function seen() {
  return Number(localStorage.getItem(seenKey()) || 0);
}

function markSeen(n) {
  localStorage.setItem(seenKey(), String(n));
}

function markSeenBy(seat, n) {
  localStorage.setItem(`dogfight:${gameId}:${seat}:seen`, String(n));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms * (SPEED > 0 ? 1 / SPEED : 0)));
}

function message(text, kind = "info") {
  const box = $("message");
  box.textContent = text || "";
  box.className = text ? kind : "";
}

// An answer to a seat's input (plans, targets, decisions) whose step the referee could
// not resolve: 202, the input stored and the game failed (docs/web.md, "Failed games");
// said here, as the closed WebSocket says it. True when it was such an answer.
function storedButFailed(answer) {
  if (!answer || !answer.stored || !answer.failed) return false;
  message(`Your input was stored, but ${answer.error}`, "error");
  return true;
}

// --- start ---------------------------------------------------------------------------

async function start() {
  catalog = await api("GET", "/api/catalog");
  board = new Board($("board"), catalog);
  held = seatsFromLink(gameId);
  if (!held.active) {
    $("stage").replaceChildren(el("p", { class: "error", text: "This browser holds no seat of this game: open your seat's private link." }));
    return;
  }
  if (replayMode) {
    await startReplay();
    return;
  }
  connect();
}

function connect() {
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/ws`);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ seat: held.active, token: token(), since: 0 }));
    $("connection").textContent = "live";
    $("connection").className = "live";
  };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "error") {
      message(`${data.error}`, "error");
      return;
    }
    if (data.type === "view") receive(data);
    if (data.type === "update") receiveUpdate(data);
  };
  ws.onclose = (event) => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "down";
    if (event.code >= 4400 && event.code < 4500) return;
    setTimeout(() => {
      if (socket === ws) connect();
    }, 1000);
  };
}

// --- receiving views ---------------------------------------------------------------------

function receive(data) {
  if (data.seat.id !== held.active) return;
  if (data.since === 0) {
    steps = data.steps;
    catchUp();
  } else steps = steps.concat(data.steps.filter((s) => s.index > steps.length));
  const previous = view;
  view = data;
  renderHeader();
  let fresh = steps.filter((s) => s.index > seen());
  if (fresh.length && !animating && hotseat()) {
    if (fresh.some((s) => s.events.some(isPublic))) {
      showReveal(fresh, previous);
      return;
    }
    // nothing to watch (the plans are in, a decision was taken): no reveal, and the seat
    // at the controls goes on when it is awaited again (no curtain: it sees only its own)
    for (const id of Object.keys(held.seats)) markSeenBy(id, fresh[fresh.length - 1].index);
    fresh = [];
  }
  renderLog();
  if (fresh.length && !animating) {
    // a page opened, reloaded or reconnected shows the table as it stands at once: the
    // player may plan while the last steps play (in play, the stage follows the steps)
    if (data.since === 0) renderAll();
    animate(fresh, previous);
  } else if (!animating) {
    renderAll();
  }
}

// A page opened, reloaded or reconnected shows the table as it stands and animates at
// most the last turn this seat has not seen: the earlier steps count as seen (the replay
// slider has them), so a game reopened at turn 15 does not replay from turn 1.
function catchUp() {
  if (!steps.length) return;
  const lastTurn = steps[steps.length - 1].turn;
  let before = 0;
  for (const s of steps) if (s.turn < lastTurn) before = s.index;
  if (seen() < before) markSeen(before);
}

// An update: the table and the steps are as last received, only the summary, the seat
// and its stage changed (a plan is in, who is awaited).
function receiveUpdate(data) {
  if (!view || data.seat.id !== held.active) return;
  view = { ...view, game: data.game, seat: data.seat, stage: data.stage };
  renderHeader();
  if (!animating) renderAll();
}

function hotseat() {
  return Object.keys(held.seats).length > 1;
}

// Hot-seat: a reveal everybody may watch plays at once — nobody's secret stays on screen
// (the console, the log and the plans are cleared first), so it needs no curtain of its
// own; the curtain comes after it, for the seat awaited next (docs/web.md, "Hot-seat").
function showReveal(fresh, previous) {
  document.body.classList.add("public");
  $("stage").replaceChildren();
  $("stage").dataset.stage = "reveal";
  $("console").replaceChildren();
  $("seat-tools").replaceChildren();
  $("log-entries").replaceChildren();
  const first = fresh[0];
  revealed = first.phase === 0 ? `Turn ${first.turn} revealed` : `Turn ${first.turn}, phase ${first.phase} revealed`;
  animate(fresh, previous, true);
}

async function animate(fresh, previous, publicReveal = false) {
  animating = true;
  const state = view.state;
  // start every vehicle at the start of its first move in the fresh steps
  const poses = {};
  for (const v of state.vehicles) poses[v.id] = v.pose;
  const firstMove = {};
  for (const s of fresh) {
    for (const e of s.events) {
      if (e.kind === "moved" && !firstMove[e.vehicle]) firstMove[e.vehicle] = e.start;
    }
  }
  Object.assign(poses, firstMove);
  for (const s of fresh) {
    $("status").textContent = s.phase === 0 ? `Turn ${s.turn}: plans revealed` : `Turn ${s.turn}, phase ${s.phase}`;
    const moves = s.events.filter((e) => e.kind === "moved");
    const shots = [];
    if (moves.length && SPEED > 0) {
      const frames = 24;
      const lines = moves.map(movePoints);
      for (let f = 1; f <= frames; f++) {
        const t = f / frames;
        for (const [i, m] of moves.entries()) {
          const [x, y] = along(lines[i], t);
          poses[m.vehicle] = { x, y, heading: lerpAngle(m.start.heading, m.end.heading, t) };
        }
        drawBoard({ poses: { ...poses }, paths: pathsOf([s]) });
        await sleep(25);
      }
    }
    for (const m of moves) poses[m.vehicle] = m.end;
    for (const e of s.events) {
      if (e.kind === "fired") shots.push({ origin: e.origin, point: e.point });
      if (e.kind === "heat_ray" && e.origin && e.point) shots.push({ origin: e.origin, point: e.point, heat: true });
    }
    drawBoard({ poses: { ...poses }, paths: pathsOf([s]), shots, bombs: bombsOf(s.events) });
    if (shots.length) await sleep(700);
    else await sleep(250);
    markSeen(s.index);
    if (publicReveal) for (const id of Object.keys(held.seats)) markSeenBy(id, s.index);
    if (publicReveal) renderPublicLog(s);
  }
  animating = false;
  if (!publicReveal && rendered === view) {
    // the stage was shown while the steps played (a page opened late): keep what the
    // player has started there, bring the board and the header up to date
    renderHeader();
    renderBoard();
    maybeCurtain();
    return;
  }
  if (publicReveal) {
    document.body.classList.remove("public");
    const next = nextSeat(view.stage.waiting_for || []);
    if (next) {
      // everybody watched: whoever is awaited next (this seat too) gets the device behind a curtain
      showCurtain(next, revealed);
      return;
    }
    if (view.stage.kind !== "over") {
      // only seats elsewhere are awaited: the seat at the controls gets the device back
      // behind a curtain, not its console in front of everybody who watched
      showCurtain(held.active, revealed);
      return;
    }
  }
  renderAll();
}

// The public events: what a reveal shows every seat (a step without any has nothing to watch).
const PUBLIC = ["moved", "fired", "heat_ray", "left_area", "eliminated", "game_over", "cloud_placed"];

function isPublic(e) {
  return PUBLIC.includes(e.kind);
}

// During a public reveal the log tells only what every seat may know: moves and shots,
// not the damage cards a seat drew.
function renderPublicLog(s) {
  const box = $("log-entries");
  box.append(el("h4", { text: s.phase === 0 ? `Turn ${s.turn}` : `Turn ${s.turn}, phase ${s.phase}` }));
  for (const e of s.events) {
    if (isPublic(e)) {
      box.append(el("div", { class: `log ${e.kind}`, text: e.text }));
    }
  }
}

function pathsOf(someSteps) {
  const out = [];
  const sides = {};
  for (const v of (view ? view.state.vehicles : [])) sides[v.id] = v.side;
  for (const s of someSteps) {
    for (const e of s.events) {
      if (e.kind === "moved") {
        out.push({ vehicle: e.vehicle, side: sides[e.vehicle], points: movePoints(e) });
      }
    }
  }
  return out;
}

function lastTurnPaths() {
  const last = steps.filter((s) => s.phase > 0);
  if (!last.length) return [];
  const turn = last[last.length - 1].turn;
  return pathsOf(last.filter((s) => s.turn === turn));
}

function drawBoard(extra = {}) {
  const stage = view.stage;
  let state = view.state;
  if (stage.kind === "targets" && stage.preview && !animating) state = stage.preview.state;
  shown = { state, ...extra };
  const exits = ((view.briefing && view.briefing.exits) || []).map((e) => ({ ...e, text: `${e.side} exit` }));
  // as printed, no firing reach is shown before the reveal (001: no measurement)
  board.noReach = asPrinted() && view.stage.kind === "planning";
  board.draw(state, { mine: new Set(view.seat.vehicles), exits, ...extra });
  drawBombs(board, extra.bombs);
  drawTargets(board, state);
}

// --- rendering ------------------------------------------------------------------------

let rendered = null; // the view the stage and the console were last rendered from

function renderAll() {
  if (!view) return;
  rendered = view;
  renderHeader();
  renderBoard();
  renderBriefing();
  renderConsole();
  renderSeatTools();
  renderStage();
  renderLog();
  maybeCurtain();
}

// The board as the view stands: the last turn's paths, the planning ghosts or the targets'
// preview.
function renderBoard() {
  const stage = view.stage;
  let ghosts = stage.kind === "planning" && !stage.submitted ? ghostList() : [];
  let paths = lastTurnPaths();
  let shots = [];
  if (stage.kind === "targets" && stage.preview) {
    paths = pathsOf([{ events: stage.preview.events }]);
  }
  if (stage.kind === "targets") ghosts = tailingGhosts(stage, decisionContext());
  drawBoard({ paths, ghosts, shots });
}

// The game's turn clock (summary.clock: hours, and when the turn runs out, UTC), as
// "Turn clock: 24 h — 5 h 12 min left"; hidden in a game without one. Redrawn every minute.
function renderClock() {
  const box = $("turn-clock");
  const clock = view && view.game.clock;
  box.hidden = !clock;
  if (!clock) return;
  let text = `Turn clock: ${clock.hours} h`;
  if (clock.ends && view.game.stage !== "over") {
    const ends = Date.parse(clock.ends);
    const mins = Math.max(0, Math.floor((ends - Date.now()) / 60000));
    text += mins > 0 ? ` — ${Math.floor(mins / 60)} h ${mins % 60} min left` : " — ran out";
    box.title = `this turn's time runs out at ${new Date(ends).toUTCString()}`;
  }
  box.textContent = text;
}
setInterval(() => { if (view) renderClock(); }, 60000);

function renderHeader() {
  const g = view.game;
  $("title").textContent = g.analysis ? `${g.title} — open analysis game, seed ${g.seed}: the damage cards can be predicted` : g.title;
  $("seat-label").textContent = `${view.seat.label} (${view.seat.vehicles.join(", ")})`;
  const status =
    g.stage === "over"
      ? "Game over"
      : g.stage === "planning"
        ? `Turn ${g.turn}: planning`
        : (view.stage.decisions || []).length
          ? `Turn ${g.turn}, phase ${g.phase + 1}: your decision`
          : `Turn ${g.turn}, phase ${g.phase + 1}: choosing targets`;
  if (!animating) $("status").textContent = status;
  renderClock();
  const measuring = $("measuring");
  measuring.hidden = !view.state.switches;
  measuring.textContent = asPrinted() ? "no measuring while planning (as printed)" : "previews on";
  measuring.title = asPrinted()
    ? "001: \"Players are never allowed to take any kind of measurement during the game, apart from those required to check firing, tailing, and such.\""
    : "House rule: the cards' ghosts, the bases' reach and distances are shown while planning.";
  const switcher = $("seat-switch");
  switcher.replaceChildren();
  const mine = Object.keys(held.seats);
  if (mine.length > 1) {
    for (const id of mine) {
      const seat = g.seats.find((s) => s.id === id);
      switcher.append(
        el("button", {
          class: id === held.active ? "active" : "",
          "data-seat": id,
          onclick: () => askSwitch(id),
          text: seat ? seat.label : id,
        }),
      );
    }
  }
  $("auto-fire").checked = view.seat.auto_fire;
  $("replay-link").href = `/replay/${gameId}`;
}

function renderConsole() {
  const box = $("console");
  box.replaceChildren(el("h2", { text: "Your console" }));
  for (const v of view.state.vehicles) {
    if (!view.seat.vehicles.includes(v.id)) continue;
    const rows = [];
    rows.push(el("div", { class: "damage", text: `Damage ${v.damage ?? "?"} / ${v.resistance ?? "?"}` }));
    if (v.damage_cards && v.damage_cards.length) {
      rows.push(el("div", { class: "cards" }, v.damage_cards.map(damageChip)));
    }
    const lasting = lastingIcons(v);
    if (lasting.length) rows.push(el("div", { class: "lasting" }, lasting));
    if (view.state.switches && !view.state.switches.standard_rules && !view.state.switches.special_damage) {
      rows.push(el("div", { class: "switch-off muted", "data-switch": "standard_rules", text: "Special damage is off (basic rules): a damage card counts its value; only jams and explosions act." }));
    }
    if (v.energy !== undefined) rows.push(el("div", { text: `Energy ${v.energy} / ${v.energy_rating}${v.toppled ? `, toppled (${v.toppled})` : ""}${v.cooling ? ", heat-ray cooling" : ""}` }));

    if (v.rockets) rows.push(el("div", { text: `Rockets: ${v.rockets}` }));
    if (v.previous) rows.push(el("div", { class: "muted", text: `Last card: ${v.previous.symbol}${v.previous.steep ? " (steep)" : ""}` }));
    box.append(el("div", { class: `vehicle-console${v.eliminated ? " out" : ""}`, "data-console": v.id },
      el("h3", {}, swatch(v), `${v.id} — ${nameOf(v.type)}${v.eliminated ? ` (out: ${outWords(v.eliminated)})` : ""}`), rows));
  }
  const specials = [];
  for (const s of steps) for (const e of s.events) if (e.kind === "special_damage" && e.announced) specials.push(e);
  const others = view.state.vehicles.filter((v) => !view.seat.vehicles.includes(v.id));
  if (others.length) {
    box.append(el("h2", { text: "Across the table" }));
    for (const v of others) {
      const mine = specials.filter((e) => e.vehicle === v.id).map((e) => e.special.replaceAll("_", " "));
      const parts = [`${v.id} — ${nameOf(v.type)}`];
      if (v.eliminated) parts.push(`out: ${outWords(v.eliminated)}`);
      if (Object.keys(v.jams).length) parts.push("jammed");
      if (v.energy !== undefined) parts.push(`Energy ${v.energy}`);
      if (mine.length) parts.push(`announced: ${mine.join(", ")}`);
      box.append(el("div", { class: "other", "data-console": v.id }, swatch(v), parts.join(" · ")));
    }
  }
}

// The seats this browser holds: each one's private link again (to send to a player
// later), and handing the seat at the controls to a computer player — or back.
function renderSeatTools() {
  const box = $("seat-tools");
  const details = el("details", { open: box.querySelector("details[open]") ? true : undefined },
    el("summary", { text: "Seats and links" }));
  const links = el("ul", { class: "links" });
  for (const [id, tok] of Object.entries(held.seats)) {
    const seat = view.game.seats.find((x) => x.id === id);
    const link = shownLink(`${catalog.public_url || ""}/play/${gameId}#seat=${encodeURIComponent(id)}&token=${encodeURIComponent(tok)}`);
    links.append(el("li", {}, el("b", { text: seat ? seat.label : id }), " ", el("a", { href: link, class: "seat-link", "data-seat": id, text: link })));
  }
  details.append(el("p", { class: "muted", text: "Each seat's private link (whoever opens it plays that seat):" }), links);
  if (held.watch) {
    const watch = shownLink(held.watch);
    details.append(el("p", { class: "muted" }, "Spectators' watch link (no seat's secrets): ",
      el("a", { href: watch, id: "watch-link", text: watch })));
  }
  if (view.stage.kind !== "over") {
    const current = view.seat.computer;
    if (current) {
      details.append(el("p", {}, `${view.seat.label} is played by the computer (${current}). `,
        el("button", { id: "take-back", onclick: () => handTo(null), text: "Take it back" })));
    } else {
      // only the computer players that fly this seat's vehicles (a person's seat holds no
      // automated tripod: 001's Automated Tripod always plays itself)
      const kinds = new Set(view.seat.vehicles.map((vid) => {
        const v = view.state.vehicles.find((x) => x.id === vid);
        return v && catalog.tripods[v.type] ? "tripod" : "airplane";
      }));
      const able = catalog.bots.filter((b) => [...kinds].every((k) => (catalog.bot_flies[b] || []).includes(k)));
      const select = el("select", { id: "hand-to", "aria-label": "computer player" }, able.map((b) => el("option", { value: b, text: b })));
      details.append(el("p", {}, `Hand ${view.seat.label} to a computer player: `, select, " ",
        el("button", { id: "hand-over", onclick: () => handTo(select.value), text: "Hand over" })));
      details.append(reminderForm(gameId, held.active, token));
    }
  }
  box.replaceChildren(details);
}

async function handTo(bot) {
  try {
    await api("POST", `/api/games/${gameId}/seats/${held.active}/computer`, { bot }, token());
    message(bot ? `${view.seat.label} is now played by the computer (${bot}).` : `${view.seat.label} is yours again.`);
  } catch (e) {
    message(e.message, "error");
  }
}

// The scenario at the table: forces, objectives, exit edges, and every victory
// condition in the rule's words with what its side still needs now.
function renderBriefing() {
  const box = $("briefing");
  const b = view.briefing;
  box.hidden = !b;
  if (!b) return;
  const open = box.querySelector("details") ? box.querySelector("details").open : true;
  const details = el("details", { open });
  details.append(el("summary", {}, el("strong", { text: `Scenario: ${b.title}` })));
  if (b.note) details.append(el("p", { class: "muted", text: b.note }));
  for (const side of b.sides) {
    const forces = side.vehicles.map((v) => `${v.id} (${nameOf(v.type)}${v.in_play ? "" : `, out: ${outWords(v.out || "")}`})`);
    if (side.reserves.length) forces.push(`to come: ${side.reserves.join(", ")}`);
    details.append(el("div", { class: "force", "data-side": side.name }, el("strong", { text: `${side.name}` }), ` — from the ${side.edge} edge: ${forces.join(", ") || "none"}`));
  }
  if (b.objectives.length) {
    const gone = b.objectives.filter((o) => o.destroyed).length;
    const drained = b.objectives.filter((o) => o.drained).length;
    details.append(el("div", { class: "objectives-state", text: `Objectives: ${b.objectives.length} on the table, ${gone} destroyed, ${drained} drained` }));
  }
  details.append(...missionLines(b));
  for (const e of b.exits) {
    details.append(el("div", { class: "exit-edge", "data-exit": e.edge, text: `Exit: the ${e.side} win by leaving the table across the ${e.edge} edge (drawn on the table)` }));
  }
  details.append(el("h4", { text: "Victory" }));
  const list = el("ul", { class: "victory" });
  for (const w of b.victory) {
    list.append(el("li", {}, el("strong", { text: `${w.side}${w.level ? ` (${w.level})` : ""}: ` }), w.text,
      el("div", { class: "needs", text: w.needs === "met" ? "met" : `needs now: ${w.needs}` })));
  }
  details.append(list);
  box.replaceChildren(details);
}

// Icons of the special damage, with the rule (specials.toml) in the tooltip.
const ICONS = {
  jammed: "⛓", wounded_pilot: "✚", rudder_left: "⟲", rudder_right: "⟳", engine: "⚙", smoke: "💨",
  fire: "🔥", circuits: "⚡", gyroscope: "🧭", reverse_destroyed: "⛔", smoke_generator: "🏭",
  toppled: "⤓", batteries: "🔋", explosion: "💥", energy: "⚡",
};
// The lasting status counters as the engine keeps them, and the special that sets each.
const STATUS = {
  fire: ["fire", (n) => `on fire: ${plural(n, "counter")} left`],
  smoke: ["smoke", (n) => `smoke trail: ${plural(n, "counter")} left`],
  wounded: ["wounded_pilot", (n) => `pilot wounded${n > 1 ? ` ×${n}` : ""}`],
  engine: ["engine", () => "engine damaged"],
  rudder_left: ["rudder_left", (n) => `left rudder jammed (until turn ${n})`],
  rudder_right: ["rudder_right", (n) => `right rudder jammed (until turn ${n})`],
  gyroscope: ["gyroscope", (n) => `gyroscope hit (until turn ${n})`],
  reverse_destroyed: ["reverse_destroyed", () => "reverse destroyed"],
  smoke_generator: ["smoke_generator", () => "smoke generator destroyed"],
};

function icon(special, label, rule) {
  return el("span", { class: "icon", "data-special": special, title: rule ? `${label} — ${rule}` : label }, `${ICONS[special] || "•"} ${label}`);
}

function lastingIcons(v) {
  const out = [];
  for (const [key, n] of Object.entries(v.status || {})) {
    const [special, words] = STATUS[key] || [key, () => key.replaceAll("_", " ")];
    const spec = catalog.specials[special];
    out.push(icon(special, words(n), spec && spec.description));
  }
  for (const [weapon, n] of Object.entries(v.jams || {})) {
    const spec = catalog.specials.jammed;
    out.push(icon("jammed", `${weapon} guns jammed: ${plural(n, "maneuver")} left`, spec && spec.description));
  }
  return out;
}

// A held damage card by its value and icons (deck:id is how the engine names it).
// Why a vehicle is out of the game, in the words of dogfight/wording.py.
function outWords(reason) {
  return (catalog.words && catalog.words.out[reason]) || reason.replaceAll("_", " ");
}

function damageChip(code) {
  const [deck, id] = code.split(":");
  const card = (catalog.damage_cards[deck] || {})[id];
  if (!card) return el("span", { class: "dcard", text: code });
  const parts = [card.explosion ? ICONS.explosion : String(card.value)];
  // with special damage off, a card is its value and a jam a jam (docs/rulings.md R23):
  // its other icons mean nothing here (the Sniper's faces say the same, words/terms.py)
  const sw = view.state.switches || {};
  const specials = sw.standard_rules || sw.special_damage ? card.specials : card.specials.filter((sp) => sp === "jammed");
  for (const sp of specials) parts.push(ICONS[sp] || sp);
  if (card.energy) parts.push(ICONS.energy);
  const words = [card.explosion ? "explosion" : `${card.value} damage`, ...specials.map((sp) => sp.replaceAll("_", " "))];
  return el("span", { class: "dcard", "data-card": code, title: `deck ${deck}: ${words.join(", ")}` }, parts.join(" "));
}

function nameOf(type) {
  return (catalog.airplanes[type] || catalog.tripods[type] || { name: type }).name;
}

function renderLog() {
  const box = $("log-entries");
  box.replaceChildren(
    ...logWithClockNotes(view && view.game, steps, (s) => [
      el("h4", { text: s.phase === 0 ? `Turn ${s.turn}` : `Turn ${s.turn}, phase ${s.phase}` }),
      ...s.events
        .filter((e) => e.kind !== "turn_started" && e.kind !== "phase_started")
        .map(logEntry),
    ]),
  );
  box.scrollTop = box.scrollHeight;
}

// --- stages ---------------------------------------------------------------------------

function renderStage() {
  const box = $("stage");
  box.replaceChildren();
  const stage = view.stage;
  box.dataset.stage = [held.active, stage.kind, stage.turn || "", stage.phase || "", stage.submitted ? "in" : ""].join("-");
  const names = (ids) => ids.map((id) => (view.game.seats.find((s) => s.id === id) || { label: id }).label).join(", ");
  if (stage.kind === "over") {
    renderEnd(box);
    return;
  }
  if (stage.kind === "planning") {
    if (stage.submitted) {
      box.append(el("p", { class: "waiting", text: `Turn ${stage.turn}: your plans are in. Waiting for ${names(stage.waiting_for) || "the table"}…` }));
      for (const [vid, plan] of Object.entries(stage.my_plans || {})) {
        box.append(el("div", { class: "muted", text: `${vid}: cards ${plan.cards.join(", ")}` }));
      }
      return;
    }
    renderPlanning(box, stage);
    return;
  }
  if (stage.kind === "targets") {
    const send = async (answers) => {
      try {
        storedButFailed(await api("POST", `/api/games/${gameId}/seats/${held.active}/decisions?answer=update`, { turn: stage.turn, phase: stage.phase, answers }, token()));
      } catch (err) {
        message(`Refused: ${err.message}`, "error");
        throw err;
      }
    };
    const ctx = decisionContext();
    // the board's ghosts follow the order being arranged
    ctx.changed = () => { if (!animating) drawBoard({ paths: lastTurnPaths(), ghosts: tailingGhosts(stage, ctx) }); };
    const tailing = renderTailing(box, stage, { ...ctx, send });
    const model = (vid) => { const v = ctx.vehicle(vid); return v ? catalog.tripods[v.type] : undefined; };
    const tokens = renderActionTokens(box, stage, { model, send });
    const sniper = renderSniper(box, stage, send);
    const choices = renderChoices(box, stage, send); // guns or rockets, a skill, bombs
    if (renderInvasionDecisions(box, stage, send) || tailing || tokens || sniper || choices) {
      focusQuestion(box);
      return;
    }
    if (stage.questions.length) {
      renderQuestions(box, stage);
      focusQuestion(box);
    } else {
      box.append(el("p", { class: "waiting", text: `Turn ${stage.turn}, phase ${stage.phase}: waiting for ${names(stage.waiting_for)} to choose (a target, an action token)…` }));
    }
  }
}

// What decisions.js needs of the table: cards by vehicle and id, vehicles as this seat
// sees them, the base's length (the cards are measured from the nose).
function decisionContext() {
  const vehicle = (vid) => view.state.vehicles.find((x) => x.id === vid);
  const card = (vid, id) => {
    const v = vehicle(vid);
    return v ? deckData(v).cards.find((c) => c.id === id) : undefined;
  };
  return { catalog, card, vehicle, depth: catalog.constants.airplane_base.length };
}

function renderEnd(box) {
  const result = view.game.result || {};
  const ending = view.ending || {};
  // the words of the game's one judgement come from the server (briefing.ending)
  const winner = ending.heading || (result.winner ? `${result.winner} win` : "A draw");
  const scores = Object.entries(result.scores || {}).map(([s, p]) => `${s} ${p >= 0 ? "+" : ""}${p}`).join(", ");
  const how = Object.entries(ending.how || {}).map(([side, lines]) =>
    el("li", {}, el("strong", { text: `${side}: ` }), lines.length ? lines.join("; ") : "no points"));
  box.append(
    el("div", { id: "end-screen", class: "end" },
      el("h2", { text: "Game over" }),
      el("p", { class: "winner", text: winner }),
      ending.reason ? el("p", { class: "reason", text: `Why: ${ending.reason}` }) : null,
      scores ? el("p", { class: "scores", text: `Match points: ${scores}` }) : null,
      how.length ? el("ul", { class: "score-how" }, how) : null,
      el("a", { href: `/replay/${gameId}`, text: "Step through the replay" }),
      " · ",
      el("a", { href: "/", text: "Lobby" }),
      " · ",
      el("button", { id: "rematch", class: "primary", onclick: rematch, text: "Rematch" }),
      el("div", { id: "rematch-links" })),
  );
}

// The same setup, seats and computer players again, with a new seed. This browser keeps
// the new game's seats; a hot-seat table goes straight to it, a table of friends gets the
// links to hand out (each opens their own).
async function rematch(e) {
  e.target.disabled = true;
  let made;
  try {
    made = await api("POST", `/api/games/${gameId}/seats/${held.active}/rematch`, undefined, token());
  } catch (err) {
    message(`Refused: ${err.message}`, "error");
    e.target.disabled = false;
    return;
  }
  const gid = made.game.id;
  const again = loadSeats(gid);
  const people = made.seats.filter((s) => !s.computer);
  for (const s of people) again.seats[s.id] = s.token;
  again.active = people.find((s) => s.id === held.active)?.id || people[0]?.id || null;
  again.watch = made.watch_link;
  saveSeats(gid, again);
  if (hotseat()) {
    location.href = made.hotseat_link;
    return;
  }
  $("rematch-links").replaceChildren(
    el("p", { text: "A new game: send each player their own link." }),
    el("ul", { class: "links" }, made.seats.map((s) => el("li", {},
      el("b", { text: s.label }), " ",
      s.computer ? `computer: ${s.computer}` : el("a", { href: s.link, class: "seat-link", "data-seat": s.id, text: shownLink(s.link) })))));
}

function emptyDraft(v) {
  const speeds = ww2(v) ? catalog.airplanes[v.type].speeds : [];
  const speed = speeds.includes(3) ? 3 : speeds[0];
  return { cards: [], fire: ["auto", "auto", "auto"], rear_fire: ["auto", "auto", "auto"], rockets: [0, 0, 0], actions: [null, null, null], speed };
}

// A WW2 airplane plans one card and a speed marker per Earthling turn (001, Tripods in WW2).
function ww2(v) {
  return !(v.type in catalog.tripods) && catalog.airplanes[v.type].era === "ww2";
}

function deckOf(v) {
  if (v.type in catalog.tripods) return catalog.tripod_decks[catalog.tripods[v.type].deck].cards;
  const deck = catalog.maneuver_decks[catalog.airplanes[v.type].deck];
  const altitude = view.state.switches ? view.state.switches.altitude_cards : false;
  return deck.cards.filter((c) => altitude || (c.symbol !== "climb" && c.symbol !== "dive"));
}

function needed(v) {
  if (ww2(v)) return 1;
  // a tripod's own view says how many (fewer when toppled, or when its damage leaves fewer: SR10)
  if (v.type in catalog.tripods) return v.cards_to_plan ?? 3 - (v.toppled || 0);
  return 3;
}

function renderPlanning(box, stage) {
  box.append(el("h2", { text: stage.earthling ? `Turn ${stage.turn}, Earthling turn before phase ${stage.phase}: a new card and speed` : `Turn ${stage.turn}: plan your maneuvers` }));
  const enemies = view.state.vehicles.filter((o) => !view.seat.vehicles.includes(o.id) && !o.eliminated);
  for (const vid of stage.to_plan) {
    const v = view.state.vehicles.find((x) => x.id === vid);
    if (!drafts[vid]) drafts[vid] = emptyDraft(v);
    const draft = drafts[vid];
    const check = checks[vid] || { problems: [], refusal: null, ghosts: [] };
    const tripod = v.type in catalog.tripods;
    const panel = el("div", { class: "plan", "data-plan": vid });
    panel.append(el("h3", {}, swatch(v), `${vid} — ${nameOf(v.type)}`));
    const hand = el("div", { class: "hand" });
    for (const card of deckOf(v)) {
      const used = draft.cards.includes(card.id);
      hand.append(
        el("button", {
          class: `card ${card.symbol}${card.steep ? " steep" : ""}`,
          "data-card": card.id,
          disabled: used || draft.cards.length >= needed(v),
          title: cardTitle(card, deckData(v)),
          onclick: () => {
            draft.cards.push(card.id);
            changedDraft(vid);
          },
          onmouseenter: () => previewCard(v, card),
          onmouseleave: () => previewCard(null),
        }, el("span", { class: "id", text: card.id }), cardFace(card, catalog, tripod),
        el("span", { class: "name", text: cardName(card) }),
        el("span", { class: `speed ${speedClass(card)}`, text: speedClass(card) })),
      );
    }
    panel.append(hand);
    const slots = el("div", { class: "slots" });
    // a WW2 airplane's one slot is the action phase it is planned for
    const at = ww2(v) ? (stage.phase || 1) - 1 : 0;
    const offset = ww2(v) ? at : 3 - needed(v);
    if (ww2(v)) {
      const speeds = catalog.airplanes[v.type].speeds;
      panel.append(el("label", { class: "speed" }, "speed marker ",
        el("select", { "data-speed": vid, "aria-label": `${vid}: speed marker`, onchange: (e) => { draft.speed = Number(e.target.value); changedDraft(vid); } },
          speeds.map((s) => el("option", { value: s, selected: draft.speed === s, text: String(s) })))));
    }
    for (let i = ww2(v) ? at : 0; i < (ww2(v) ? at + 1 : 3); i++) {
      const cardIndex = i - offset;
      const cardId = cardIndex >= 0 ? draft.cards[cardIndex] : undefined;
      const problem = check.problems.find((p) => p.index === cardIndex);
      const ghost = check.ghosts[cardIndex];
      const slot = el("div", { class: `slot${problem ? " illegal" : ""}`, "data-slot": i });
      slot.append(el("div", { class: "slot-head", text: `Phase ${i + 1}` }));
      if (cardIndex < 0) {
        // the first phases without a card: toppled, or (ruling SR10) too few cards its damage allows
        const down = i < (v.toppled || 0);
        slot.append(el("div", { class: "muted", text: down ? "lying down" : "standing still: no card left to plan (ruling SR10)" }));
      } else if (cardId !== undefined) {
        slot.append(el("button", { class: "chosen", title: "take the card back", onclick: () => { draft.cards.splice(cardIndex); changedDraft(vid); } }, `card ${cardId} ✕`));
      } else {
        slot.append(el("div", { class: "muted", text: "choose a card" }));
      }
      if (problem) slot.append(el("div", { class: "rule", text: `${problem.rule.replaceAll("_", " ")}: ${problem.text}` }));
      for (const w of (check.warnings || []).filter((x) => x.index === cardIndex)) {
        slot.classList.add("warned");
        slot.append(el("div", { class: "warning", "data-warning": w.kind, text: `⚠ ${w.text}` }));
      }
      if (ghost && ghost.note) slot.append(el("div", { class: "note", text: ghost.note }));
      if (!tripod) {
        slot.append(fireSelect("front", draft.fire, i, enemies));
        if (catalog.airplanes[v.type].firepower.length > 1) slot.append(fireSelect("rear", draft.rear_fire, i, enemies));
        if (catalog.airplanes[v.type].rockets && v.rockets > 0 && view.state.switches && view.state.switches.standard_rules) {
          const sel = el("select", { "data-rockets": i, "aria-label": `rockets, phase ${i + 1}`, onchange: (e) => { draft.rockets[i] = Number(e.target.value); changedDraft(vid); } },
            [0, 1, 2].filter((n) => n <= v.rockets).map((n) => el("option", { value: n, selected: draft.rockets[i] === n, text: n ? `launch ${plural(n, "rocket")}` : "guns" })));
          slot.append(sel);
        }
        if (isBomber(v)) slot.append(dropSelect(v, draft, i, () => changedDraft(vid)));
      } else if (cardIndex >= 0 && view.state.switches && view.state.switches.actions_at_planning) {
        // the house rule; as printed, the token is asked at the start of each phase
        slot.append(actionSelect(v, draft, i));
      }
      slots.append(slot);
    }
    panel.append(slots);
    if (check.refusal) panel.append(el("div", { class: "refusal", text: check.refusal }));
    box.append(panel);
  }
  const ready = stage.to_plan.every((vid) => {
    const v = view.state.vehicles.find((x) => x.id === vid);
    return drafts[vid] && drafts[vid].cards.length === needed(v) && !(checks[vid] && checks[vid].refusal);
  });
  box.append(el("button", { id: "submit-plans", class: "primary", disabled: !ready, onclick: askSubmit, text: "Submit plans" }));
}

// The vehicle's colour by its name (set through the CSSOM: no inline style attribute).
function swatch(v) {
  const node = el("span", { class: "swatch", "data-colour": board.vehicleColour(v) }, "■ ");
  node.style.color = board.vehicleColour(v);
  return node;
}

function planWarnings() {
  const out = [];
  for (const vid of view.stage.to_plan) for (const w of (checks[vid] && checks[vid].warnings) || []) out.push(w);
  return out;
}

// Submit, or first ask: a plan with a warning is never sent silently.
async function askSubmit() {
  $("submit-plans").disabled = true;
  if (checking) await checking;
  const found = planWarnings();
  if (!found.length) {
    submitPlans();
    return;
  }
  // a modal dialog: in view whatever the page's scroll, the focus in it, Escape = back
  const back = () => { box.close(); box.remove(); $("submit-plans").disabled = false; $("submit-plans").focus(); };
  const box = el("dialog", { id: "confirm-submit", class: "confirm", "aria-labelledby": "confirm-title" },
    el("h3", { id: "confirm-title", text: "Submit these plans anyway?" }),
    el("ul", {}, found.map((w) => el("li", { text: w.text }))),
    el("button", { id: "submit-anyway", class: "primary", onclick: () => { box.close(); box.remove(); submitPlans(); }, text: "Submit anyway" }),
    " ",
    el("button", { id: "submit-back", onclick: back, text: "Change my plans" }));
  box.addEventListener("cancel", (e) => { e.preventDefault(); back(); });
  $("submit-plans").disabled = true;
  document.body.append(box);
  box.showModal();
  $("submit-anyway").focus();
}

// A question the table asks this seat (targets, a decision) is brought into view and
// given the focus when it is first asked, not at every re-render of the same stage.
let asked = null;
function focusQuestion(box) {
  const first = box.querySelector("fieldset input, [data-decision] button, [data-decision] select, #submit-targets, button.primary");
  if (!first || box.dataset.stage === asked) return;
  asked = box.dataset.stage;
  box.scrollIntoView({ block: "nearest" });
  first.focus({ preventScroll: true });
}

function deckData(v) {
  if (v.type in catalog.tripods) return catalog.tripod_decks[catalog.tripods[v.type].deck];
  return catalog.maneuver_decks[catalog.airplanes[v.type].deck];
}

// Pointing at a card draws its ghost from where the plan so far leaves the vehicle.
// 001 as printed (the `previews` switch): nothing is measured while planning.
function asPrinted() {
  return Boolean(view && view.state.switches && view.state.switches.previews === "as_printed");
}

function previewCard(v, card) {
  if (!view || view.stage.kind !== "planning" || animating || asPrinted()) return;
  const ghosts = ghostList();
  if (v && card) {
    const check = checks[v.id] || { ghosts: [] };
    const known = (check.ghosts || []).filter((g) => g.pose);
    const chosen = (drafts[v.id] || { cards: [] }).cards.length;
    const from = known.length === chosen && known.length ? known[known.length - 1].pose : chosen ? null : v.pose;
    if (from) {
      const tripod = v.type in catalog.tripods;
      const depth = tripod ? Math.sqrt(3) * catalog.constants.tripods.base_side : catalog.constants.airplane_base.length;
      // a tripod after a reverse card walks backwards (the card laid at its rear)
      const cards = drafts[v.id] ? drafts[v.id].cards : [];
      const last = cards.length ? deckData(v).cards.find((c) => c.id === cards[cards.length - 1]) : null;
      const backward = tripod && (last ? last.symbol === "reverse" : Boolean(v.reverse));
      const start = backward ? { ...from, heading: from.heading + 180 } : from;
      const moved = pathAfter(start, card, depth);
      const pose = backward ? { ...moved.pose, heading: moved.pose.heading + 180 } : moved.pose;
      ghosts.push({ vehicle: v, pose, path: moved.points, label: "?", final: false, preview: true });
    }
  }
  drawBoard({ paths: lastTurnPaths(), ghosts });
}

function fireSelect(weapon, list, i, enemies) {
  return el("select", { "data-fire": `${weapon}-${i}`, title: `${weapon} guns`, "aria-label": `${weapon} guns, phase ${i + 1}`, onchange: (e) => { list[i] = e.target.value; } },
    el("option", { value: "auto", selected: list[i] === "auto", text: `${weapon}: fire at will` }),
    el("option", { value: "none", selected: list[i] === "none", text: `${weapon}: hold fire` }),
    enemies.map((o) => el("option", { value: o.id, selected: list[i] === o.id, text: `${weapon}: at ${o.id}` })));
}

function actionSelect(v, draft, i) {
  const t = catalog.tripods[v.type];
  const options = [["", "no action token"], ...extraActions(view.state)];
  for (const p of t.projectors) options.push([JSON.stringify({ token: "heat_ray", projector: p }), `heat-ray ${p}`]);
  // Standard Rules: black smoke from a smoke projector; the engine places the cloud as
  // near the nearest enemy airplane as the ruler allows (docs/rulings.md SR9).
  if (view.state.switches && view.state.switches.standard_rules) {
    for (const p of t.smoke_projectors || []) {
      options.push([JSON.stringify({ token: "black_smoke", projector: p }), `black smoke ${p}`]);
    }
  }
  options.push([JSON.stringify({ token: "recharge" }), "recharge"]);
  for (const o of view.state.objectives || []) {
    if (!o.destroyed) {
      options.push([JSON.stringify({ token: "recharge", objective: o.id }), `recharge from ${o.id}`]);
      options.push([JSON.stringify({ token: "destroy_objective", objective: o.id }), `destroy ${o.id}`]);
    }
  }
  for (let n = 1; n <= t.facing_limit; n++) {
    options.push([JSON.stringify({ token: "change_facing", sides: n }), `turn ${plural(n, "side")} left`]);
    options.push([JSON.stringify({ token: "change_facing", sides: -n }), `turn ${plural(n, "side")} right`]);
  }
  const current = draft.actions[i] ? JSON.stringify(draft.actions[i]) : "";
  const select = el("select", { "data-action": i, onchange: (e) => { draft.actions[i] = e.target.value ? JSON.parse(e.target.value) : null; changedDraft(draft === drafts[v.id] ? v.id : null); } },
    options.map(([value, text]) => el("option", { value, selected: value === current, text })));
  return el("div", { class: "action-choice" }, tokenStrip(options, current, t, select), select);
}

let checkTimer = null;
let checking = null; // the /check in flight (Submit waits for it: no warning is skipped)
function changedDraft(vid) {
  renderStage();
  clearTimeout(checkTimer);
  checking = new Promise((resolve) => {
    checkTimer = setTimeout(() => runChecks().finally(resolve), 30);
  });
}

async function runChecks() {
  if (!view || view.stage.kind !== "planning") return;
  const body = {};
  for (const vid of view.stage.to_plan) if (drafts[vid]) body[vid] = draftPlan(vid);
  try {
    const answer = await api("POST", `/api/games/${gameId}/seats/${held.active}/check`, { plans: body }, token());
    checks = answer.plans;
  } catch (e) {
    message(e.message, "error");
  }
  if (!animating) renderAll();
}

function draftPlan(vid) {
  const d = drafts[vid];
  const v = view.state.vehicles.find((x) => x.id === vid);
  if (v.type in catalog.tripods) {
    return { cards: d.cards, actions: d.actions };
  }
  const plan = { cards: d.cards, fire: d.fire };
  if (ww2(v)) plan.speeds = [d.speed];
  if (catalog.airplanes[v.type].firepower.length > 1) plan.rear_fire = d.rear_fire;
  if (d.rockets.some((n) => n)) plan.rockets = d.rockets;
  return withDrops(plan, d);
}

function ghostList() {
  const out = [];
  for (const [vid, check] of Object.entries(checks)) {
    const v = view.state.vehicles.find((x) => x.id === vid);
    if (!v) continue;
    const warned = new Set((check.warnings || []).map((w) => w.index));
    check.ghosts.forEach((g, i) => {
      if (g.pose) out.push({ vehicle: v, pose: g.pose, path: g.path, label: String(g.phase || i + 1), final: i === check.ghosts.length - 1, warned: warned.has(i) });
    });
  }
  return out;
}

async function submitPlans() {
  const stage = view.stage;
  const plans = {};
  for (const vid of stage.to_plan) plans[vid] = draftPlan(vid);
  $("submit-plans").disabled = true;
  try {
    const body = { turn: stage.turn, plans };
    if (stage.earthling) body.phase = stage.phase;
    // answered with the seat's update only (so are targets and decisions): the new view
    // comes over the WebSocket, as every seat's does
    const answer = await api("POST", `/api/games/${gameId}/seats/${held.active}/plans?answer=update`, body, token());
    drafts = {};
    checks = {};
    if (!storedButFailed(answer)) message("");
  } catch (e) {
    message(`Refused: ${e.message}`, "error");
    $("submit-plans").disabled = false;
  }
}

function renderQuestions(box, stage) {
  box.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: choose your targets` }));
  box.append(el("p", { class: "muted", text: "The movement is done (drawn on the table); several enemies are in reach." }));
  const form = el("div", { class: "questions" });
  const answers = {};
  for (const q of stage.questions) {
    const name = `q-${q.vehicle}-${q.weapon}`;
    answers[q.vehicle] = answers[q.vehicle] || {};
    // the plan's choice is pre-selected when it is one of the answers
    const preset = q.options.includes(q.planned) || q.planned === "none" ? q.planned : q.options[0];
    answers[q.vehicle][q.weapon] = preset;
    const group = el("fieldset", { "data-question": `${q.vehicle}-${q.weapon}` }, el("legend", { text: `${q.vehicle}, ${q.weapon} guns` }));
    // a heat-ray cannot hold fire (000: "Firing is mandatory")
    const hold = q.weapon === "heat_ray" ? [] : [["none", "hold fire"]];
    const choices = [...q.options.map((o, i) => [o, i === 0 ? `${o} (nearest)` : o]), ...hold];
    for (const [value, text] of choices) {
      group.append(el("label", {}, el("input", { type: "radio", name, value, checked: value === preset, onchange: () => { answers[q.vehicle][q.weapon] = value; } }), ` ${text}`));
    }
    form.append(group);
  }
  box.append(form);
  box.append(el("button", {
    id: "submit-targets", class: "primary", text: "Fire",
    onclick: async (e) => {
      e.target.disabled = true;
      try {
        storedButFailed(await api("POST", `/api/games/${gameId}/seats/${held.active}/targets?answer=update`, { turn: stage.turn, phase: stage.phase, fire: answers }, token()));
      } catch (err) {
        message(`Refused: ${err.message}`, "error");
        e.target.disabled = false;
      }
    },
  }));
}

// --- hot-seat -------------------------------------------------------------------------

function maybeCurtain() {
  if (Object.keys(held.seats).length < 2 || animating) return;
  const waiting = view.stage.waiting_for || [];
  if (waiting.includes(held.active)) return;
  const next = nextSeat(waiting);
  if (next) showCurtain(next);
}

// Which of this browser's awaited seats gets the device next. When several are awaited at
// once (the plans, the tripods' action tokens) their order is free, and it is chosen so
// that the seat answering last is the one asked next, on the same screen: the seat that
// plans last goes on to its first action tokens, and under 001's secret action cards the
// reveal asks the directions in initiative order, highest first — so the seat of the
// tripod with the highest initiative chooses its tokens last (and goes on to its
// direction) and plans first; a seat without a tripod (no tokens) plans first of all.
function nextSeat(waiting) {
  const mine = Object.keys(held.seats).filter((id) => waiting.includes(id));
  if (mine.length < 2) return mine[0];
  const planning = view.game.stage === "planning";
  const key = (id) => {
    const top = topInitiative(id);
    if (!planning) return top;
    return top === NO_TRIPOD ? -100 : -top;
  };
  // the lowest key first; a stable sort: seats ranked alike keep this browser's order
  return [...mine].sort((a, b) => key(a) - key(b))[0];
}

const NO_TRIPOD = -2; // a seat without a standing tripod (001's table gives 0 and up, -1 none)

// The highest 001 initiative among the seat's standing tripods (the model's INITIATIVE
// for its pilot, human or Martian), from the public table.
function topInitiative(id) {
  const seat = view.game.seats.find((s) => s.id === id);
  let top = NO_TRIPOD;
  for (const vid of (seat && seat.vehicles) || []) {
    const v = view.state.vehicles.find((x) => x.id === vid);
    const model = v && !v.eliminated ? catalog.tripods[v.type] : null;
    if (!model) continue;
    const table = model.initiative;
    top = Math.max(top, table ? table[v.pilot === "martian" ? "martian" : "human"] : -1);
  }
  return top;
}

function askSwitch(id) {
  if (id === held.active) return;
  showCurtain(id);
}

// ``after``: the reveal everybody just watched, said on the curtain that follows it.
function showCurtain(id, after = null) {
  curtainFor = id;
  const seat = view && view.game.seats.find((x) => x.id === id);
  const label = seat ? `${seat.label} (${seat.vehicles.join(", ")})` : id;
  // drop the current seat's view before anyone else looks at the screen
  view = null;
  steps = [];
  drafts = {};
  checks = {};
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
  $("stage").replaceChildren();
  $("stage").dataset.stage = "curtain";
  $("console").replaceChildren();
  $("seat-tools").replaceChildren();
  $("log-entries").replaceChildren();
  $("board").replaceChildren();
  $("curtain-text").textContent = after ? `${after}. Pass the device to ${label}.` : `Pass the device to ${label}.`;
  $("curtain-go").textContent = "I am ready";
  $("curtain").dataset.kind = "seat";
  if (after) $("curtain").dataset.after = "reveal";
  else delete $("curtain").dataset.after;
  curtainAction = takeSeat;
  $("curtain").hidden = false;
}

function takeSeat() {
  held.active = curtainFor;
  saveSeats(gameId, held);
  curtainFor = null;
  connect();
}

function leaveCurtain() {
  $("curtain").hidden = true;
  const action = curtainAction;
  curtainAction = null;
  if (action) action();
}

// --- replay ---------------------------------------------------------------------------

async function startReplay() {
  document.body.classList.add("replay");
  const data = await api("GET", `/api/games/${gameId}/seats/${held.active}/replay`, undefined, token());
  const frames = data.frames;
  $("title").textContent = `${data.game.title} — replay`;
  // a failed game's replay: the steps up to the failure, and the failure said
  if (data.failed) message(`This game failed: ${data.error}`, "error");
  $("seat-label").textContent = `as seen by ${held.active}`;
  $("replay-bar").hidden = false;
  const slider = $("replay-slider");
  slider.max = frames.length - 1;
  const show = (i) => {
    const f = frames[i];
    slider.value = i;
    $("status").textContent = i === 0 ? "The table as set up" : f.phase === 0 ? `Turn ${f.turn}: plans revealed` : `Turn ${f.turn}, phase ${f.phase}`;
    $("replay-pos").textContent = `step ${i} / ${frames.length - 1}`;
    const shots = [];
    for (const e of f.events) {
      if (e.kind === "fired") shots.push({ origin: e.origin, point: e.point });
      if (e.kind === "heat_ray" && e.origin && e.point) shots.push({ origin: e.origin, point: e.point, heat: true });
    }
    const sides = {};
    for (const v of f.state.vehicles) sides[v.id] = v.side;
    const paths = f.events.filter((e) => e.kind === "moved").map((e) => ({ side: sides[e.vehicle], points: movePoints(e) }));
    board.draw(f.state, { paths, shots, mine: new Set() });
    const box = $("log-entries");
    // a turn's first step shows the notes of the clocks that ran out in that turn
    const first = i > 0 && frames[i - 1].turn !== f.turn;
    const game = { clock: { ran_out: ((data.game.clock || {}).ran_out || []).filter((n) => n.turn === f.turn) } };
    box.replaceChildren(...logWithClockNotes(first ? game : null, [f], (s) =>
      s.events.filter((e) => e.kind !== "phase_started").map((e) => el("div", { class: `log ${e.kind}`, text: e.text }))));
  };
  $("replay-prev").onclick = () => show(Math.max(0, Number(slider.value) - 1));
  $("replay-next").onclick = () => show(Math.min(frames.length - 1, Number(slider.value) + 1));
  slider.oninput = () => show(Number(slider.value));
  show(0);
}

// --- wiring -----------------------------------------------------------------------------

$("curtain-go").addEventListener("click", leaveCurtain);
$("zoom-mine").addEventListener("click", () => {
  if (!view) return;
  const mine = new Set(view.seat.vehicles);
  board.zoomTo(view.state.vehicles.filter((v) => mine.has(v.id) && v.pose).map((v) => v.pose));
});
$("zoom-all").addEventListener("click", () => board.zoomTo([]));
$("auto-fire").addEventListener("change", async (e) => {
  try {
    await api("POST", `/api/games/${gameId}/seats/${held.active}/settings`, { auto_fire: e.target.checked }, token());
  } catch (err) {
    message(err.message, "error");
  }
});
start().catch((e) => message(e.message, "error"));
