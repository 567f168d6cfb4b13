// The lobby: choose a preset or a custom setup, seats (per side or per vehicle, any of
// them a computer player), create the game and hand out the seats' private links.

import { api, el, loadSeats, saveSeats } from "./common.js";

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
    el("td", {}, el("select", { class: "v-type" }, types.map(([id, t]) => el("option", { value: id, selected: id === v.type, text: t.name })))),
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

// Seat labels as the server will make them (side names or vehicle ids).
function seatLabels() {
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
  if (seating() === "vehicle") return vehicles.map((v) => v.id);
  return [...new Set(vehicles.map((v) => v.side))].sort();
}

function renderSeats() {
  const box = $("seat-list");
  box.replaceChildren();
  for (const label of seatLabels()) {
    const select = el("select", { "data-seat": label },
      el("option", { value: "", text: "a person" }),
      catalog.bots.map((b) => el("option", { value: b, text: `computer: ${b}` })));
    box.append(el("div", {}, `${label}: `, select));
  }
  if (!catalog.bots.length) box.append(el("p", { class: "muted", text: "No computer player is available yet." }));
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
  saveSeats(gid, held);
  $("links").hidden = false;
  $("hotseat").href = made.hotseat_link;
  $("seat-links").replaceChildren(...made.seats.map((s) => el("li", {},
    el("b", { text: s.label }), ` (${s.vehicles.join(", ")}) `,
    s.computer ? `computer: ${s.computer}` : el("a", { href: s.link, class: "seat-link", "data-seat": s.id, text: location.origin + s.link }))));
}

async function start() {
  catalog = await api("GET", "/api/catalog");
  const box = $("presets");
  for (const [name, preset] of Object.entries(catalog.presets)) {
    const note = catalog.scenarios[name] ? ` — ${catalog.scenarios[name].note}` : "";
    box.append(el("div", {},
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
}

start().catch((e) => message(e.message));
