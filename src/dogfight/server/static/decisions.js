// Engine decisions on the table page that reorder cards: after tailing (002, "Tailing"),
// the tailed plane's next card is shown to the tailing seat alone (the server sends a
// decision only to the seat that answers it), which may put its remaining planned cards
// in a new order — by dragging them, or with the ↑/↓ buttons (touch, keyboard) — and
// sends the order through the decisions endpoint every other decision uses.

import { el, plural } from "./common.js";
import { cardFace, cardName, pathAfter } from "./cards.js";

// The order being arranged, by decision id: a view arriving meanwhile (the other seat
// did something) redraws the panel without losing it.
const orders = new Map();

function move(list, from, to) {
  if (to < 0 || to >= list.length || from === to) return;
  const [card] = list.splice(from, 1);
  list.splice(to, 0, card);
}

// A card as the planning hand draws it: id, face, name.
function cardChip(card, id, catalog) {
  if (!card) return el("span", { class: "id", text: id });
  return el("span", { class: "card-chip" },
    el("span", { class: "id", text: id }), cardFace(card, catalog, false),
    el("span", { class: "name", text: cardName(card) }));
}

// The list of the remaining cards, in the order they will be flown from this phase on.
function orderList(d, ctx, redraw) {
  const order = orders.get(d.id);
  const list = el("ol", { class: "reorder", "data-order": d.vehicle });
  order.forEach((id, i) => {
    const item = el("li", {
      class: "reorder-card",
      draggable: "true",
      "data-card": id,
      ondragstart: (e) => {
        e.dataTransfer.setData("text/plain", String(i));
        e.dataTransfer.effectAllowed = "move";
        item.classList.add("dragging");
      },
      ondragend: () => item.classList.remove("dragging"),
      ondragover: (e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
      },
      ondrop: (e) => {
        e.preventDefault();
        move(order, Number(e.dataTransfer.getData("text/plain")), i);
        redraw();
      },
    },
    el("span", { class: "phase", text: `phase ${d.phase + i}` }),
    cardChip(ctx.card(d.vehicle, id), id, ctx.catalog),
    el("button", { class: "up", title: "fly it one phase earlier", "aria-label": `card ${id} earlier`, disabled: i === 0, onclick: () => { move(order, i, i - 1); redraw(`[data-order='${d.vehicle}'] [data-card='${id}'] .up`); } }, "↑"),
    el("button", { class: "down", title: "fly it one phase later", "aria-label": `card ${id} later`, disabled: i === order.length - 1, onclick: () => { move(order, i, i + 1); redraw(`[data-order='${d.vehicle}'] [data-card='${id}'] .down`); } }, "↓"));
    list.append(item);
  });
  return list;
}

// Draw the seat's tailing decisions into `box`; false when there is none. ctx: {catalog,
// card(vehicleId, cardId) -> the card's data, send(answers) -> Promise}.
export function renderTailing(box, stage, ctx) {
  const mine = (stage.decisions || []).filter((d) => d.kind === "tailing");
  if (!mine.length) return false;
  const panel = el("div", { id: "tailing", class: "decisions" });
  const redraw = (focus) => {
    renderPanel();
    if (focus) {
      const again = document.querySelector(focus);
      if (again && !again.disabled) again.focus();
    }
  };
  const renderPanel = () => {
    panel.replaceChildren();
    panel.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: you are tailing` }));
    for (const d of mine) {
      if (!orders.has(d.id)) orders.set(d.id, [...d.default]);
      const group = el("fieldset", { "data-decision": d.id }, el("legend", { text: `${d.vehicle} tails` }));
      for (const t of d.shown.tailed || []) {
        group.append(el("div", { class: "tailed-card", "data-tailed": t.vehicle },
          el("span", { text: `${t.vehicle} will fly, in phase ${t.phase}: ` }),
          cardChip(ctx.card(t.vehicle, t.card), t.card, ctx.catalog)));
      }
      group.append(el("p", { class: "muted", text: "Your remaining cards: drag them (or use ↑ ↓) into the order you will fly them." }));
      group.append(orderList(d, ctx, redraw));
      group.append(el("div", { class: "rule", text: d.rule }));
      panel.append(group);
    }
    if (ctx.changed) ctx.changed();
    const answers = () => Object.fromEntries(mine.map((d) => [d.id, [...orders.get(d.id)]]));
    panel.append(el("button", {
      id: "submit-reorder", class: "primary", text: "Fly in this order",
      onclick: (e) => {
        e.target.disabled = true;
        ctx.send(answers()).then(() => mine.forEach((d) => orders.delete(d.id)), () => { e.target.disabled = false; });
      },
    }));
    return panel;
  };
  box.append(renderPanel());
  return true;
}

// The moves the tailing seat can foresee, drawn as ghosts on the board: each tailed
// plane's revealed card, and its own next card in the order being arranged. ctx: {card,
// vehicle(id) -> the vehicle as the seat sees it, depth: the base's length}.
export function tailingGhosts(stage, ctx) {
  const out = [];
  for (const d of (stage.decisions || []).filter((x) => x.kind === "tailing")) {
    const moves = (d.shown.tailed || []).map((t) => [t.vehicle, t.card]);
    const order = orders.get(d.id) || d.default;
    if (order.length) moves.push([d.vehicle, order[0]]);
    for (const [vid, id] of moves) {
      const v = ctx.vehicle(vid);
      const card = ctx.card(vid, id);
      if (!v || !card) continue;
      const moved = pathAfter(v.pose, card, ctx.depth);
      out.push({ vehicle: v, pose: moved.pose, path: moved.points, label: id, final: true, preview: vid !== d.vehicle, tailing: true });
    }
  }
  return out;
}

// 000's Sniper: "the pilot draws two damage cards, chooses one to give to the opponent,
// reshuffles the other one" -- an engine decision shown to the firing seat alone, with the
// two cards' faces (words of dogfight/words/terms.py, only the icons that act in the game:
// none but jams with special damage off); `send(answers)` posts the choice.
export function renderSniper(box, stage, send) {
  const mine = (stage.decisions || []).filter((d) => d.kind === "sniper");
  if (!mine.length) return false;
  const panel = el("div", { id: "sniper", class: "decisions" });
  panel.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: your Sniper chooses` }));
  const answers = {};
  for (const d of mine) {
    answers[d.id] = [...d.default];
    const group = el("fieldset", { "data-decision": d.id }, el("legend", { text: `${d.vehicle} drew two damage cards: the one to give ${d.shown.target}` }));
    d.options.forEach((option, i) => {
      const input = el("input", { type: "radio", name: d.id, value: option, checked: d.default.includes(option), onchange: () => { answers[d.id] = [option]; } });
      group.append(el("label", { "data-sniper-card": option }, input, ` ${d.shown.faces[i]}`));
    });
    group.append(el("div", { class: "rule", text: `${d.rule} (the other is shuffled back)` }));
    panel.append(group);
  }
  panel.append(el("button", { id: "submit-sniper", class: "primary", text: "Give this card", onclick: (e) => { e.target.disabled = true; send(answers).catch(() => { e.target.disabled = false; }); } }));
  box.append(panel);
  return true;
}

// One option chosen among a few, asked of this seat alone in the middle of a phase: guns or
// rockets in the firing step (000: "may fire its machine guns or its rockets, but not both
// in the same phase"), a pilot's skill used now or kept, a bomber's loads dropped this
// phase. `send(answers)` posts them all.
const CHOICES = {
  rockets: {
    title: "guns or rockets",
    legend: (d) => `${d.vehicle}'s front guns reach ${d.shown.target} (${d.shown.range} range); ${plural(d.shown.rockets, "Rocket counter")} left${d.shown.following ? `, next maneuver: ${d.shown.following}` : ""}`,
    label: (o) => (o === "guns" ? "fire the machine guns" : `launch ${plural(Number(o.split(":")[1]), "rocket")}`),
    button: "Fire",
  },
  skill: {
    title: "a skill",
    legend: (d) => `${d.vehicle}'s ${String(d.shown.skill || "").replace(/_/g, " ")} is ready${d.shown.target ? ` (at ${d.shown.target})` : ""}`,
    label: (o) => (o === "use" ? "use it now" : "keep it for later"),
    button: "Decide",
  },
  bomb_drop: {
    title: "bombs",
    legend: (d) => `${d.vehicle} carries ${plural(d.shown.loads, "load")} of bombs: how many to drop this phase`,
    label: (o) => (o === "0" ? "drop none" : `drop ${o}`),
    button: "Drop",
  },
};

export function renderChoices(box, stage, send) {
  const mine = (stage.decisions || []).filter((d) => d.kind in CHOICES);
  if (!mine.length) return false;
  const panel = el("div", { id: "choices", class: "decisions" });
  panel.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: your choice` }));
  const answers = {};
  for (const d of mine) {
    const kind = CHOICES[d.kind];
    answers[d.id] = [...d.default];
    const group = el("fieldset", { "data-decision": d.id }, el("legend", { text: `${kind.title}: ${kind.legend(d)}` }));
    for (const option of d.options) {
      const input = el("input", { type: "radio", name: d.id, value: option, checked: d.default.includes(option), onchange: () => { answers[d.id] = [option]; } });
      group.append(el("label", { "data-choice": option }, input, ` ${kind.label(option)}`));
    }
    group.append(el("div", { class: "rule", text: d.rule }));
    panel.append(group);
  }
  const button = CHOICES[mine[0].kind].button;
  panel.append(el("button", { id: "submit-choices", class: "primary", text: button, onclick: (e) => { e.target.disabled = true; send(answers).catch(() => { e.target.disabled = false; }); } }));
  box.append(panel);
  return true;
}
