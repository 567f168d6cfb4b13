// 001's Invasion on the table page: the blank action card where tripods' action cards are
// secret (tripods of two sides, or bombers in play), the bombers' drops, the bomb cards on
// the board, and the decisions of the Invasion rules (a direction at the reveal, the
// bomber's choice of half).

import { el, plural } from "./common.js";

// Extra action-card choices for a tripod: 001's blank card, "to pretend he is executing an
// action when he is not".
export function extraActions(state) {
  return state.action_cards ? [[JSON.stringify({ token: "blank" }), "blank card (bluff: no action)"]] : [];
}

// The loads a bomber drops before phase i's maneuvers are revealed (001). Loads already
// planned for other phases are not offered again; the engine refuses a drop right after an
// Immelmann with the rule quoted.
export function dropSelect(v, draft, i, changed) {
  if (!draft.drop) draft.drop = [0, 0, 0];
  const others = draft.drop.reduce((a, n, j) => (j === i ? a : a + n), 0);
  const left = Math.max(0, (v.bombs || 0) - others);
  const options = [];
  for (let n = 0; n <= left; n++) options.push(el("option", { value: n, selected: draft.drop[i] === n, text: n ? `drop ${plural(n, "load")} of bombs` : "keep the bombs" }));
  return el("select", { "data-drop": i, title: "bombs", "aria-label": `bombs, phase ${i + 1}`, onchange: (e) => { draft.drop[i] = Number(e.target.value); changed(); } }, options);
}

export function isBomber(v) {
  return (v.bombs || 0) > 0;
}

export function withDrops(plan, draft) {
  if (draft.drop && draft.drop.some((n) => n)) plan.drop = draft.drop;
  return plan;
}

// Bomb cards laid after movement (001): the card's outline and its dot, drawn over the
// board's top layer after Board.draw (board.Y flips table y).
export function bombsOf(events) {
  return events.filter((e) => e.kind === "bomb_card_placed").map((e) => ({ corners: e.corners, dot: [e.pose.x, e.pose.y], bomber: e.bomber }));
}

export function drawBombs(board, bombs) {
  if (!bombs || !bombs.length || !board.overLayer) return;
  const NS = "http://www.w3.org/2000/svg";
  const make = (name, attrs) => {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  for (const b of bombs) {
    const g = make("g", { class: "bomb-card", "data-bomber": b.bomber });
    g.append(make("polygon", { points: b.corners.map(([x, y]) => `${x},${board.Y(y)}`).join(" "), fill: "#3b3b8f", "fill-opacity": "0.2", stroke: "#3b3b8f", "stroke-width": "0.3" }));
    g.append(make("circle", { cx: b.dot[0], cy: board.Y(b.dot[1]), r: "0.6", fill: "#3b3b8f" }));
    board.overLayer.append(g);
  }
}

// The bomber's choice (001: "he assigns his choice of half of them to the tripod"): an
// engine decision shown to the bomber's seat only; `send(answers)` posts them.
function renderBombPicks(box, stage, send) {
  const picks = (stage.decisions || []).filter((d) => d.kind.startsWith("bomb_pick"));
  if (!picks.length) return false;
  box.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: your bombs hit` }));
  const answers = {};
  const form = el("div", { class: "questions" });
  for (const d of picks) {
    answers[d.id] = [...d.default];
    const group = el("fieldset", { "data-decision": d.id }, el("legend", { text: `${d.vehicle}: assign ${d.count} of these C cards to ${d.shown.target}` }));
    for (const option of d.options) {
      const input = el("input", { type: "checkbox", value: option, checked: d.default.includes(option), onchange: (e) => {
        const list = answers[d.id];
        if (e.target.checked) list.push(option);
        else list.splice(list.indexOf(option), 1);
      } });
      group.append(el("label", {}, input, ` ${option.split(":")[1]}`));
    }
    group.append(el("div", { class: "rule", text: d.rule }));
    form.append(group);
  }
  box.append(form);
  box.append(el("button", { id: "submit-decisions", class: "primary", text: "Assign", onclick: (e) => { e.target.disabled = true; send(answers).catch(() => { e.target.disabled = false; }); } }));
  return true;
}

// The reveal of secret action cards (001: "When it's time to act, the player controlling a
// tripod shows its action card and, if required, places the action token to specify its
// facing change or fire direction"): an engine decision shown to the tripod's seat only,
// with the cards shown before it; one radio group per tripod, the written direction
// preselected.
const TURNS = { "+1": "1 side to the left", "-1": "1 side to the right", "+2": "2 sides to the left", "-2": "2 sides to the right", "+3": "3 sides to the left", "-3": "3 sides to the right" };

function renderDirections(box, stage, send) {
  const mine = (stage.decisions || []).filter((d) => d.kind === "action_direction");
  if (!mine.length) return false;
  const panel = el("div", { id: "reveal", class: "decisions" });
  panel.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: your action card is shown` }));
  const answers = {};
  for (const d of mine) {
    answers[d.id] = [...d.default];
    const turning = d.shown.card === "change_facing";
    const group = el("fieldset", { "data-decision": d.id }, el("legend", { text: `${d.vehicle} shows its ${turning ? "change of facing" : "heat-ray"} card: place the action token` }));
    const before = d.shown.revealed || [];
    group.append(el("ul", { class: "revealed" }, before.length
      ? before.map((r) => el("li", { "data-revealed": r.vehicle, text: `#${r.order} ${r.vehicle}: ${r.card === "none" ? "no action card" : `${r.card.replaceAll("_", " ")} card`}${r.detail ? ` (${r.detail})` : ""}` }))
      : [el("li", { class: "muted", text: "No card was shown before yours." })]));
    for (const option of d.options) {
      const input = el("input", { type: "radio", name: d.id, value: option, checked: d.default.includes(option), onchange: () => { answers[d.id] = [option]; } });
      group.append(el("label", { "data-direction": option }, input, ` ${turning ? TURNS[option] || option : `${option} projector`}`));
    }
    group.append(el("div", { class: "rule", text: d.rule }));
    panel.append(group);
  }
  panel.append(el("button", { id: "submit-directions", class: "primary", text: "Place the token", onclick: (e) => { e.target.disabled = true; send(answers).catch(() => { e.target.disabled = false; }); } }));
  box.append(panel);
  return true;
}

// Every decision of 001's Invasion the seat is asked now: a direction at the reveal, the
// bomber's choice of half.
export function renderInvasionDecisions(box, stage, send) {
  return renderDirections(box, stage, send) || renderBombPicks(box, stage, send);
}
