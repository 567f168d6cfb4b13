// Shared helpers of the lobby and the table: fetch with JSON errors, element building,
// the seats this browser holds (tokens live in localStorage, per game).

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `HTTP ${response.status}`, field: null };
  }
  if (!response.ok) {
    const error = new Error(data.error || `HTTP ${response.status}`);
    error.status = response.status;
    error.field = data.field;
    throw error;
  }
  return data;
}

// A link the server wrote, as shown to be copied and sent: whole when the server knows
// its public address (dogfight serve --public-url), else put after this page's origin.
export function shownLink(link) {
  return /^https?:\/\//.test(link) ? link : location.origin + link;
}

// "1 counter", "2 counters": counts in words, never "counter(s)" (the Python side's
// words.terms.plural).
export function plural(n, word, many) {
  return `${n} ${n === 1 ? word : many || word + "s"}`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVGNS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child) node.append(child);
  }
  return node;
}

// --- seats held by this browser ---------------------------------------------------

function key(gameId) {
  return `dogfight:${gameId}`;
}

export function loadSeats(gameId) {
  try {
    return JSON.parse(localStorage.getItem(key(gameId))) || { seats: {}, active: null };
  } catch (e) {
    return { seats: {}, active: null };
  }
}

export function saveSeats(gameId, held) {
  localStorage.setItem(key(gameId), JSON.stringify(held));
}

// Take the seats a link carries in its fragment (#seat=ID&token=T or #seats=a:T,b:U).
export function seatsFromLink(gameId) {
  const held = loadSeats(gameId);
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("seat") && params.get("token")) {
    held.seats[params.get("seat")] = params.get("token");
    held.active = params.get("seat");
  }
  if (params.get("seats")) {
    let first = null;
    for (const pair of params.get("seats").split(",")) {
      const [id, token] = pair.split(":");
      if (id && token) {
        held.seats[id] = token;
        first = first || id;
      }
    }
    held.active = held.active && held.seats[held.active] && !params.get("seat") ? first : held.active || first;
    if (!params.get("seat")) held.active = first;
  }
  if (!held.active || !held.seats[held.active]) held.active = Object.keys(held.seats)[0] || null;
  saveSeats(gameId, held);
  return held;
}

// Why computer players' details the reader opened (by turn and vehicle): kept open when
// the log is drawn again.
const openWhy = new Set();

// An event of the game's log: a line of words, or for why a computer player chose its
// plan (plan_explained, logged once the turn is over) a collapsed detail, its summary
// and a line per plan it weighed, best first (the words are the server's).
export function logEntry(e) {
  if (e.kind !== "plan_explained" || !e.why) return el("div", { class: `log ${e.kind}`, text: e.text });
  const key = `${e.turn}:${e.vehicle}`;
  const box = el("details", { class: `log ${e.kind}`, "data-vehicle": e.vehicle, open: openWhy.has(key) },
    el("summary", { text: e.summary }),
    el("ol", {}, ...e.why.map((line) => el("li", { text: line }))));
  box.addEventListener("toggle", () => (box.open ? openWhy.add(key) : openWhy.delete(key)));
  return box;
}

// The game's log with the notes of the turn clocks that ran out (the summary's
// clock.ran_out, made by the server from stored rows): each note before its turn's first
// step, or at the end while its turn is not played yet. `entries(step)` is a step's
// log elements.
export function logWithClockNotes(game, steps, entries) {
  const notes = (game && game.clock && game.clock.ran_out) || [];
  const note = (n) => el("div", { class: "log clock_ran_out", text: n.text });
  const out = [];
  let i = 0;
  for (const s of steps) {
    while (i < notes.length && notes[i].turn <= s.turn) out.push(note(notes[i++]));
    out.push(...entries(s));
  }
  while (i < notes.length) out.push(note(notes[i++]));
  return out;
}
