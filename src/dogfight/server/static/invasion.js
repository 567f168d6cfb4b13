// 001's Invasion on the planning panel: the blank action card where tripods' action cards
// are secret (tripods of two sides, or bombers in play), and the bombers' drops.

import { el } from "./common.js";

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
  for (let n = 0; n <= left; n++) options.push(el("option", { value: n, selected: draft.drop[i] === n, text: n ? `drop ${n} load(s) of bombs` : "keep the bombs" }));
  return el("select", { "data-drop": i, title: "bombs", onchange: (e) => { draft.drop[i] = Number(e.target.value); changed(); } }, options);
}

export function isBomber(v) {
  return (v.bombs || 0) > 0;
}

export function withDrops(plan, draft) {
  if (draft.drop && draft.drop.some((n) => n)) plan.drop = draft.drop;
  return plan;
}
