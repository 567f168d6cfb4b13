// One campaign: the next mission (started as an ordinary game), the roster with every
// pilot's record, and the missions flown. While a mission is being played the page
// polls the campaign: its result is written back as soon as the game is over.
import { api, el } from "/static/common.js";

const id = location.pathname.split("/").pop();
const message = document.getElementById("message");
let bots = [];
let current = null;

function show(error) {
  message.textContent = error ? String(error.message || error) : "";
}

function linkKey(number) {
  return `dogfight:campaign:${id}:${number}`;
}

async function startMission(data) {
  const computer = {};
  for (const side of data.sides) {
    const pick = document.getElementById(`bot-${side}`);
    if (pick && pick.value) computer[side] = pick.value;
  }
  try {
    const made = await api("POST", `/api/campaigns/${id}/next`, { computer });
    localStorage.setItem(linkKey(made.mission), JSON.stringify({ hotseat: made.hotseat_link, seats: made.seats }));
    await render();
  } catch (error) {
    show(error);
  }
}

function nextSection(data) {
  const box = document.getElementById("next");
  if (data.over) {
    box.replaceChildren(
      el("h2", {}, "The campaign is over"),
      el("p", { id: "winner" }, data.winner ? `${data.winner} win the campaign.` : "A draw."),
    );
    return;
  }
  const next = data.next;
  const parts = [el("h2", {}, `Mission ${next.number}: ${next.title}`)];
  if (next.game) {
    const saved = JSON.parse(localStorage.getItem(linkKey(next.number)) || "null");
    parts.push(el("p", {}, "Being played: "));
    if (saved) {
      parts.push(el("p", {}, el("a", { id: "play-mission", href: saved.hotseat }, "play every seat in this browser")));
      parts.push(
        el(
          "ul",
          { class: "links" },
          saved.seats.map((s) =>
            el("li", {}, `${s.label}${s.computer ? ` (computer: ${s.computer})` : ""}: `, el("a", { href: s.link }, "private link")),
          ),
        ),
      );
    } else {
      parts.push(el("p", { class: "muted" }, `game ${next.game}: its seats' links were shown to whoever started it.`));
    }
    parts.push(el("p", { class: "muted" }, "The result is written here when the game ends."));
    if (next.flights.length) {
      parts.push(el("ul", {}, next.flights.map((f) => el("li", {}, `${f.side}: ${f.pilot || "(no pilot)"} flies ${f.type}`))));
    }
  } else {
    parts.push(el("p", { class: "muted" }, next.scenario ? `Scenario ${next.scenario}.` : "A custom table."));
    for (const side of data.sides) {
      const pick = el("select", { id: `bot-${side}` }, el("option", { value: "" }, "a person"), bots.map((b) => el("option", { value: b }, b)));
      parts.push(el("p", {}, `${side}: `, pick));
    }
    parts.push(el("button", { class: "primary", id: "start-mission", onclick: () => startMission(data) }, "Start the mission"));
  }
  box.replaceChildren(...parts);
}

function roster(data) {
  const body = document.querySelector("#roster tbody");
  body.replaceChildren(
    ...data.pilots.map((p) =>
      el(
        "tr",
        { class: p.status, "data-pilot": p.name },
        el("td", { class: p.ace ? "ace" : "" }, p.name),
        el("td", {}, p.side),
        el("td", {}, p.status === "wounded" ? `wounded (${p.out_for} more)` : p.status),
        el("td", {}, p.missions),
        el("td", {}, p.victories),
        el("td", {}, p.damage_taken),
        el("td", {}, p.skills.map((s) => s.replaceAll("_", " ")).join(", ")),
      ),
    ),
  );
}

function history(data) {
  const list = document.getElementById("history");
  list.replaceChildren(
    ...data.history.map((e) =>
      el(
        "li",
        { "data-mission": e.number },
        el("strong", {}, e.title),
        ` — ${e.outcome} for ${data.sides[0]} (points: ${Object.entries(e.points).map(([s, n]) => `${s} ${n}`).join(", ")})`,
        e.events.length ? el("ul", {}, e.events.map((t) => el("li", {}, t))) : null,
      ),
    ),
  );
}

async function render() {
  const data = await api("GET", `/api/campaigns/${id}`);
  document.getElementById("title").textContent = `${data.title}: ${data.history.length} of at most ${data.max_missions} missions`;
  nextSection(data);
  roster(data);
  history(data);
  show(null);
  current = data;
  return data;
}

async function main() {
  const catalog = await api("GET", "/api/catalog");
  bots = catalog.bots || catalog.computer_players || [];
  await render();
  setInterval(async () => {
    if (!current || current.over || !current.next || !current.next.game) return;
    try {
      await render();
    } catch (error) {
      show(error);
    }
  }, 2000);
}

main().catch(show);
