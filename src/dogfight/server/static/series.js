// The match series pages: /series starts a series (a ready-made setup played N times by the
// same seats) or opens one; /series/<id> shows its table of results with the running
// totals, and starts the next game once the last is over. A game's seat links are shown
// only in the answer that made it, as in the lobby.
import { api, el, shownLink } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const seriesId = location.pathname.split("/").filter(Boolean)[1] || null;

function show(error) {
  $("message").textContent = error ? String(error.message || error) : "";
}

function sidesOf(catalog, preset) {
  const setup = catalog.presets[preset].setup;
  const vehicles = setup.scenario ? catalog.scenarios[setup.scenario].vehicles : setup.vehicles;
  return [...new Set(vehicles.map((v) => v.side))].sort();
}

function seatsChoice(catalog) {
  const box = $("seat-choices");
  box.replaceChildren(...sidesOf(catalog, $("preset").value).map((side) =>
    el("div", {}, `${side}: `, el("select", { "data-seat": side },
      el("option", { value: "", text: "a player in this browser" }),
      catalog.bots.map((b) => el("option", { value: b, text: `computer: ${b}` }))))));
}

function seatLinks(made) {
  if (!made || !made.seats) return [];
  return [el("h3", { text: `Game ${made.series.games.length}: seats` }),
    el("ul", { class: "links" }, made.seats.map((s) => el("li", {}, `${s.label}: `,
      s.computer ? `computer: ${s.computer}` : el("a", { href: s.link, class: "seat-link", "data-seat": s.id, text: shownLink(s.link) }))))];
}

async function listPage() {
  $("series-list").hidden = false;
  const catalog = await api("GET", "/api/catalog");
  $("preset").replaceChildren(...Object.entries(catalog.presets).map(([id, p]) => el("option", { value: id, text: p.title })));
  $("preset").onchange = () => seatsChoice(catalog);
  seatsChoice(catalog);
  $("start").onclick = async () => {
    const computer = {};
    for (const s of $("seat-choices").querySelectorAll("select")) if (s.value) computer[s.dataset.seat] = s.value;
    try {
      const made = await api("POST", "/api/series", { games: Number($("games").value), game: { preset: $("preset").value, computer } });
      sessionStorage.setItem(`series-${made.series.id}`, JSON.stringify(made));
      location.href = `/series/${made.series.id}`;
    } catch (error) {
      show(error);
    }
  };
  const data = await api("GET", "/api/series");
  $("stored").replaceChildren(...(data.series.length
    ? data.series.map((s) => el("li", {}, el("a", { href: `/series/${s.id}` }, s.title), ` (${s.id})`))
    : [el("li", { class: "muted" }, "none yet")]));
}

function renderSeries(s, made) {
  $("series-title").textContent = s.title;
  const scoring = s.scoring === "winner"
    ? "002: the winner scores +1 per enemy exited, +2 per enemy shot down, -1 per own shot down"
    : "003: both sides score each game (+1 per enemy exited, +2 per enemy shot down, -1 per own shot down)";
  const played = s.games.filter((g) => g.over).length;
  const lead = s.leader ? `${s.leader} lead` : "level";
  $("series-state").textContent = s.over
    ? `Series over after ${s.games_agreed} games: ${s.winner ? `${s.winner} win the series` : "level: nobody wins the series"}. ${scoring}; missions add their points.`
    : `${played} of ${s.games_agreed} games played; ${lead}. ${scoring}; missions add their points.`;
  const head = el("tr", {}, el("th", { text: "game" }), el("th", { text: "winner" }),
    s.sides.map((side) => el("th", { text: `${side} points` })), s.sides.map((side) => el("th", { text: `${side} total` })));
  $("results").tHead.replaceChildren(head);
  $("results").tBodies[0].replaceChildren(...s.games.map((g) => el("tr", { "data-game": g.number },
    el("td", {}, el("a", { href: g.link, text: `game ${g.number}` })),
    el("td", { class: "winner", text: g.over ? g.winner || "draw" : "playing" }),
    s.sides.map((side) => el("td", { class: "points", "data-side": side, text: g.over ? String(g.points[side] ?? 0) : "" })),
    s.sides.map((side) => el("td", { class: "total", "data-side": side, text: g.over ? String(g.totals[side] ?? 0) : "" })))));
  $("results").tFoot.replaceChildren(el("tr", { class: "totals" }, el("th", { text: "totals" }), el("th", { text: s.leader || "" }),
    s.sides.map(() => el("td", {})), s.sides.map((side) => el("th", { class: "grand-total", "data-side": side, text: String(s.totals[side] ?? 0) }))));
  $("next").hidden = !s.can_start_next;
  if (made) $("seats").replaceChildren(...seatLinks(made));
}

async function seriesPage() {
  $("series-one").hidden = false;
  const kept = sessionStorage.getItem(`series-${seriesId}`);
  let made = kept ? JSON.parse(kept) : null;
  const refresh = async () => {
    const s = await api("GET", `/api/series/${seriesId}`);
    renderSeries(s, made);
    const playing = s.games.some((g) => !g.over);
    if (playing) setTimeout(() => refresh().catch(show), 1000);
  };
  $("next").onclick = async () => {
    try {
      $("next").hidden = true;
      made = await api("POST", `/api/series/${seriesId}/next`, {});
      sessionStorage.setItem(`series-${seriesId}`, JSON.stringify(made));
      await refresh();
    } catch (error) {
      show(error);
    }
  };
  await refresh();
}

(seriesId ? seriesPage() : listPage()).catch(show);
