// The lobby: choose a preset or a custom setup, seats (per side or per vehicle, any of
// them a computer player), create the game and hand out the seats' private links.

import { api, el, loadSeats, saveSeats, shownLink } from "./common.js";

const $ = (id) => document.getElementById(id);
let catalog = null;
let jsonEdited = false;

function message(text, kind = "error") {
  $("message").textContent = text || "";
  $("message").className = text ? kind : "";
}

function chosenPreset() {
  const checked = document.querySelector('input[name="preset"]:checked');
  return checked ? checked.value : "duel";
}

function seating() {
  return document.querySelector('input[name="seating"]:checked').value;
}

function vehicleRow(v) {
  const types = [...Object.entries(catalog.airplanes), ...Object.entries(catalog.tripods)];
  const row = el("tr", {},
    el("td", {}, el("input", { class: "v-id", value: v.id, size: 10 })),
    el("td", {}, el("select", { class: "v-type", "aria-label": "type" }, types.map(([id, t]) => el("option", { value: id, selected: id === v.type, text: t.name })))),
    el("td", {}, el("input", { class: "v-side", value: v.side || "", size: 8 })),
    el("td", {}, el("input", { class: "v-x", type: "number", value: v.pose.x, step: "0.5" })),
    el("td", {}, el("input", { class: "v-y", type: "number", value: v.pose.y, step: "0.5" })),
    el("td", {}, el("input", { class: "v-h", type: "number", value: v.pose.heading, step: "15" })),
    el("td", {}, el("button", { text: "✕", onclick: () => { row.remove(); formChanged(); } })));
  row.addEventListener("input", formChanged);
  row.addEventListener("change", formChanged);
  return row;
}

function loadForm(setup) {
  const body = $("vehicles").querySelector("tbody");
  body.replaceChildren(...(setup.vehicles || []).filter((v) => v.type && v.side).map(vehicleRow));
  if (setup.table) {
    $("table-w").value = setup.table.width;
    $("table-h").value = setup.table.height;
  }
  $("ruleset").value = setup.ruleset || "wog";
  renderSwitches(setup.switches || {});
  jsonEdited = false;
  $("situation").value = JSON.stringify(setup, null, 2);
}

function renderSwitches(current) {
  const box = $("switches");
  box.replaceChildren();
  const defaults = catalog.rulesets[$("ruleset").value].switches;
  for (const [name, value] of Object.entries(defaults)) {
    const id = `sw-${name}`;
    // a checkbox or a choice generated from the ruleset's switch, with its explanation
    const spec = (catalog.switches || {})[name] || { kind: typeof value === "boolean" ? "bool" : "text", help: "" };
    const now = name in current ? current[name] : value;
    let input;
    if (spec.kind === "bool") {
      input = el("input", { type: "checkbox", id, checked: now, "data-switch": name });
    } else if (spec.kind === "choice") {
      const options = spec.optional ? [["", "(the ruleset's default)"]] : [];
      for (const c of spec.choices) options.push([c, c.replaceAll("_", " ")]);
      input = el("select", { id, "data-switch": name },
        options.map(([v, text]) => el("option", { value: v, selected: v === (now ?? ""), text })));
    } else {
      input = el("input", { id, value: now, size: 18, "data-switch": name });
    }
    input.addEventListener("change", formChanged);
    box.append(el("div", { class: "switch", "data-house-rule": name },
      el("label", { for: id }, input, ` ${name.replaceAll("_", " ")}`),
      spec.help ? el("div", { class: "muted switch-help", text: spec.help }) : null));
  }
}

function formSetup() {
  const vehicles = [...$("vehicles").querySelectorAll("tbody tr")].map((row) => ({
    id: row.querySelector(".v-id").value.trim(),
    type: row.querySelector(".v-type").value,
    side: row.querySelector(".v-side").value.trim(),
    pose: { x: Number(row.querySelector(".v-x").value), y: Number(row.querySelector(".v-y").value), heading: Number(row.querySelector(".v-h").value) },
  }));
  const ruleset = $("ruleset").value;
  const defaults = catalog.rulesets[ruleset].switches;
  const switches = {};
  for (const input of $("switches").querySelectorAll("[data-switch]")) {
    const name = input.dataset.switch;
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (value === "" && input.tagName === "SELECT") value = null;
    if (value !== defaults[name]) switches[name] = value;
  }
  const setup = { ruleset, table: { width: Number($("table-w").value), height: Number($("table-h").value) }, vehicles };
  if (Object.keys(switches).length) setup.switches = switches;
  return setup;
}

function formChanged() {
  if (!jsonEdited) $("situation").value = JSON.stringify(formSetup(), null, 2);
  renderSeats();
}

function currentSetup() {
  const preset = chosenPreset();
  if (preset !== "custom") return catalog.presets[preset].setup;
  return JSON.parse($("situation").value);
}

// Each vehicle's kind as the computer players name what they fly: "airplane", "tripod"
// or "automated" (001's Automated Tripod). A preset says it; a custom setup is read here.
function vehicleKinds(setup) {
  const preset = chosenPreset();
  if (preset !== "custom") return catalog.presets[preset].kinds;
  const scenario = setup.scenario && catalog.scenarios[setup.scenario];
  const automated = new Set(scenario ? scenario.vehicles.filter((v) => v.automated).map((v) => v.id) : []);
  const kinds = {};
  for (const v of setup.vehicles || []) {
    kinds[v.id] = automated.has(v.id) ? "automated" : catalog.tripods[v.type] ? "tripod" : "airplane";
  }
  return kinds;
}

// Seats as the server will make them (side names or vehicle ids), with their vehicles'
// kinds.
function seatsOfSetup() {
  let setup;
  try {
    setup = currentSetup();
  } catch (e) {
    return [];
  }
  let vehicles = (setup.vehicles || []).map((v) => ({ id: v.id, side: v.side }));
  if (setup.scenario && catalog.scenarios[setup.scenario]) {
    const sides = Object.fromEntries(catalog.scenarios[setup.scenario].vehicles.map((v) => [v.id, v.side]));
    vehicles = vehicles.map((v) => ({ id: v.id, side: v.side || sides[v.id] }));
  }
  const kinds = vehicleKinds(setup);
  const of = (ids) => new Set(ids.map((id) => kinds[id] || "airplane"));
  if (seating() === "vehicle") return vehicles.map((v) => ({ label: v.id, kinds: of([v.id]) }));
  const sides = [...new Set(vehicles.map((v) => v.side))].sort();
  return sides.map((side) => ({ label: side, kinds: of(vehicles.filter((v) => v.side === side).map((v) => v.id)) }));
}

// The computer players that fly every kind of a seat's vehicles.
function botsFor(kinds) {
  return catalog.bots.filter((b) => [...kinds].every((k) => (catalog.bot_flies[b] || []).includes(k)));
}

function renderSeats() {
  const box = $("seat-list");
  box.replaceChildren();
  for (const { label, kinds } of seatsOfSetup()) {
    if (kinds.size === 1 && kinds.has("automated")) {
      // 001's Automated Tripod plays itself: no person, no other computer player
      box.append(el("div", { "data-automated": label }, `${label}: `,
        el("span", { class: "muted", text: "the Automated Tripod (001) plays it" })));
      continue;
    }
    const select = el("select", { "data-seat": label, "aria-label": `who plays ${label}` },
      el("option", { value: "", text: "a person" }),
      botsFor(kinds).map((b) => el("option", { value: b, text: `computer: ${b}` })));
    box.append(el("div", {}, `${label}: `, select));
  }
  if (!catalog.bots.length) box.append(el("p", { class: "muted", text: "No computer player is available yet." }));
}

// --- this browser's games ---------------------------------------------------------------

// The games this browser holds a seat of (their links are kept here), with where each
// stands: whose turn it is, or how it ended.
async function renderMyGames() {
  const ids = Object.keys(localStorage)
    .filter((k) => /^dogfight:[^:]+$/.test(k))
    .map((k) => k.slice("dogfight:".length));
  const box = $("my-games");
  if (!ids.length) {
    box.hidden = true;
    return;
  }
  const rows = [];
  for (const gid of ids) {
    const held = loadSeats(gid);
    if (!Object.keys(held.seats).length) continue;
    let game;
    try {
      game = await api("GET", `/api/games/${gid}`);
    } catch (e) {
      continue; // a game this server no longer has
    }
    rows.push({ gid, held, game });
  }
  rows.sort((a, b) => Number(a.game.over) - Number(b.game.over));
  const list = $("my-games-list");
  list.replaceChildren(...rows.map(({ gid, held, game }) => {
    const label = (id) => (game.seats.find((s) => s.id === id) || { label: id }).label;
    const mine = Object.keys(held.seats);
    const waiting = game.waiting_for || [];
    let where;
    if (game.over) {
      const r = game.result || {};
      where = `over: ${r.heading || (r.winner ? `${r.winner} won` : "a draw")}`;
    } else if (waiting.some((id) => mine.includes(id))) {
      where = `turn ${game.turn}: your turn (${waiting.filter((id) => mine.includes(id)).map(label).join(", ")})`;
    } else {
      where = `turn ${game.turn}: waiting for ${waiting.map(label).join(", ") || "the computer players"}`;
    }
    return el("li", { "data-game": gid, class: game.over ? "finished" : "ongoing" },
      el("a", { href: `/play/${gid}`, text: game.title }), ` — ${where} · your seats: ${mine.map(label).join(", ")}`);
  }));
  box.hidden = !rows.length;
}

async function create() {
  message("");
  const body = { seating: seating() };
  const preset = chosenPreset();
  try {
    if (preset === "custom") body.situation = JSON.parse($("situation").value);
    else body.preset = preset;
  } catch (e) {
    message(`The situation JSON does not parse: ${e.message}`);
    return;
  }
  const computer = {};
  for (const select of $("seat-list").querySelectorAll("select")) if (select.value) computer[select.dataset.seat] = select.value;
  if (Object.keys(computer).length) body.computer = computer;
  if ($("clock").value !== "0") body.clock = Number($("clock").value);
  if ($("analysis").checked) {
    body.analysis = true;
    if ($("seed").value !== "") body.seed = Number($("seed").value);
  }
  let made;
  try {
    made = await api("POST", "/api/games", body);
  } catch (e) {
    message(`${e.message}${e.field ? ` (${e.field})` : ""}`);
    return;
  }
  const gid = made.game.id;
  const held = loadSeats(gid);
  for (const s of made.seats) if (!s.computer) held.seats[s.id] = s.token;
  held.active = made.seats.find((s) => !s.computer)?.id || null;
  held.watch = made.watch_link; // shown again in the table's seat tools
  saveSeats(gid, held);
  $("links").hidden = false;
  $("loopback-note").hidden = !catalog.loopback;
  $("hotseat").href = made.hotseat_link;
  $("watch-link").href = made.watch_link;
  $("watch-link").textContent = shownLink(made.watch_link);
  $("seat-links").replaceChildren(...made.seats.map((s) => el("li", {},
    el("b", { text: s.label }), ` (${s.vehicles.join(", ")}) `,
    s.computer ? `computer: ${s.computer}` : el("a", { href: s.link, class: "seat-link", "data-seat": s.id, text: shownLink(s.link) }))));
}

async function start() {
  catalog = await api("GET", "/api/catalog");
  const box = $("presets");
  for (const [name, preset] of Object.entries(catalog.presets)) {
    const note = ` — ${preset.description}`;
    box.append(el("div", { "data-preset": name },
      el("label", {}, el("input", { type: "radio", name: "preset", value: name, checked: name === "duel" }), ` ${preset.title}`),
      el("span", { class: "muted", text: note }), " ",
      el("button", { class: "copy", "data-copy": name, text: "copy into custom", onclick: () => { $("preset-custom").checked = true; $("custom").hidden = false; loadForm(preset.setup); renderSeats(); } })));
  }
  for (const name of Object.keys(catalog.rulesets)) $("ruleset").append(el("option", { value: name, text: `${name}: ${catalog.rulesets[name].title}` }));
  loadForm(catalog.presets.duel.setup);
  document.querySelectorAll('input[name="preset"]').forEach((r) => r.addEventListener("change", () => { $("custom").hidden = chosenPreset() !== "custom"; renderSeats(); }));
  document.querySelectorAll('input[name="seating"]').forEach((r) => r.addEventListener("change", renderSeats));
  $("ruleset").addEventListener("change", () => { renderSwitches({}); formChanged(); });
  $("analysis").addEventListener("change", () => { $("seed").disabled = !$("analysis").checked; });
  $("table-w").addEventListener("input", formChanged);
  $("table-h").addEventListener("input", formChanged);
  $("situation").addEventListener("input", () => { jsonEdited = true; renderSeats(); });
  $("add-vehicle").addEventListener("click", () => {
    $("vehicles").querySelector("tbody").append(vehicleRow({ id: `plane-${Date.now() % 1000}`, type: "spad-xiii", side: "allies", pose: { x: 45, y: 45, heading: 90 } }));
    formChanged();
  });
  $("create").addEventListener("click", create);
  renderSeats();
  renderMyGames().catch(() => {});
}

start().catch((e) => message(e.message));
