// The watch page (issue 32 item 4): a spectator's read-only table. It holds the game's
// watch token (from the link's #token=), opens the spectators' WebSocket and draws what
// every seat sees in common — no hand, no plan, no submit. A game watched one turn behind
// is shown as the server sends it: the steps of turn N once turn N+1 is resolved.

import { api, el, logEntry, logWithClockNotes } from "./common.js";
import { Board } from "./board.js";
import { movePoints } from "./cards.js";

const gameId = location.pathname.split("/").filter(Boolean)[1];
const watchToken = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);

let board = null;
let steps = [];
let shown = null; // the last view drawn (the zoom buttons frame its vehicles)

function message(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = kind;
}

function draw(data) {
  shown = data;
  const last = steps[steps.length - 1];
  const events = last ? last.events : [];
  const shots = [];
  for (const e of events) {
    if (e.kind === "fired") shots.push({ origin: e.origin, point: e.point });
    if (e.kind === "heat_ray" && e.origin && e.point) shots.push({ origin: e.origin, point: e.point, heat: true });
  }
  const sides = {};
  for (const v of data.state.vehicles) sides[v.id] = v.side;
  const paths = events.filter((e) => e.kind === "moved").map((e) => ({ side: sides[e.vehicle], points: movePoints(e) }));
  board.draw(data.state, { paths, shots, mine: new Set() });
  const game = data.game;
  $("title").textContent = game.title;
  const behind = data.delay ? " (one turn behind)" : "";
  $("status").textContent = game.over ? "Game over" : `Turn ${game.turn}${behind}`;
  $("stage").dataset.steps = String(steps.length);
  $("stage").replaceChildren(
    el("p", { text: game.over ? "The game is over." : `Waiting for: ${(game.waiting_for || []).join(", ") || "—"}` }),
  );
  const box = $("log-entries");
  box.replaceChildren(
    ...logWithClockNotes(game, steps, (s) =>
      s.events.filter((e) => e.kind !== "phase_started").map(logEntry),
    ),
  );
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/watch/ws`);
  ws.onopen = () => {
    ws.send(JSON.stringify({ token: watchToken, since: steps.length }));
    $("connection").textContent = "live";
    $("connection").className = "live";
  };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "error") {
      message(data.error, "error");
      return;
    }
    if (data.type !== "watch") return;
    steps = steps.slice(0, data.since).concat(data.steps);
    draw(data);
  };
  ws.onclose = (event) => {
    $("connection").textContent = "disconnected";
    $("connection").className = "down";
    if (event.code >= 4400 && event.code < 4500) return; // refused: the message says why
    setTimeout(connect, 1000);
  };
}

// A large table leaves the bases small: as on the table page, zoom onto the vehicles in
// play (a base at least 44 px long) or back to the whole table; wheel, pinch and drag too.
$("zoom-fight").addEventListener("click", () => {
  if (!shown) return;
  board.zoomTo(shown.state.vehicles.filter((v) => v.pose && !v.eliminated).map((v) => v.pose));
});
$("zoom-all").addEventListener("click", () => board.zoomTo([]));

async function start() {
  board = new Board($("board"), await api("GET", "/api/catalog"));
  connect();
}

start().catch((e) => message(e.message, "error"));
