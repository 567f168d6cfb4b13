// Tripods' action tokens you can read (issue 12: "Same for tripod cards and action
// tokens"): each token a small picture drawn from the tripod model's data the server sends
// (its hexagonal base, heat-ray and smoke projectors, facing limit), green or red as in
// 000, with its name and the rule in a tooltip. Clicking a picture chooses the token in
// the slot's select, which stays the one source of the choice.

import { el, plural, svg } from "./common.js";

// 000's five tokens (and 001's blank action card): name, colour, the rule quoted.
export const TOKENS = {
  heat_ray: {
    name: "Heat-ray Fire",
    colour: "red",
    rule: "000: \"Immediately after selecting this action, the Tripod player controlling the vehicle must put 1 Energy next to the side of the tripod corresponding to the tripod's heat-ray projector that will fire during the firing step.\"",
  },
  black_smoke: {
    name: "Black Smoke Fire",
    colour: "red",
    rule: "000: \"The Black Smoke Fire token is used only with the Standard Rules\"; \"the Tripod player controlling the vehicle must put 1 Energy on a spot on the tripod reference card corresponding to one of its black-smoke projectors\"",
  },
  change_facing: {
    name: "Change facing",
    colour: "green",
    rule: "000: \"A tripod that selected this action changes facing, turning sideways up to a maximum of sides, as shown on its Change facing action token, or on the tripod reference card.\"",
  },
  recharge: {
    name: "Recharge",
    colour: "green",
    rule: "000: \"Tripods that selected this action receive 1 Energy at the end of the phase, after combat is resolved and damage allocated. If the tripod base overlaps an Objective token, the Tripod player may choose to gain a number of Energy tokens equal to the [Recharge Level] of the tripod instead.\"",
  },
  destroy_objective: {
    name: "Destroy Objective",
    colour: "green",
    rule: "000: \"If the tripod base overlaps an Objective token, the Tripod player must now remove it\"",
  },
  blank: {
    name: "Blank action card",
    colour: "grey",
    rule: "001: a blank card, \"to pretend he is executing an action when he is not\"",
  },
};

const GREEN_RULE = "000: \"A Tripod player can place a green Action token (Change Facing, Recharge, Destroy Objective) only when the planned card is a standing still card.\"";
const STOP_RULE = "000: \"A Tripod player is not allowed to place an Action token if the planned card has the [STOP] icon.\"";

// Hex sides counter-clockwise from the front (geometry/hexbase.py).
const SIDES = ["front", "front-left", "rear-left", "rear", "rear-right", "front-right"];

// The picture's frame: a token of radius 10 around (0, 0), the base's front up.
const R = 6; // the hexagon's circumradius in the picture

function corner(k) {
  // corner k of the hexagon, between side k-1 and side k (front side between corners 0 and 1)
  const a = ((90 - 30 + 60 * k) * Math.PI) / 180;
  return [R * Math.cos(a), -R * Math.sin(a)];
}

function sideEnds(side) {
  const k = SIDES.indexOf(side);
  return [corner(k), corner(k + 1)];
}

function sideNormal(side) {
  const k = SIDES.indexOf(side);
  const a = ((90 + 60 * k) * Math.PI) / 180;
  return [Math.cos(a), -Math.sin(a)];
}

function hexagon(cls) {
  const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(k).join(",")).join(" ");
  return svg("polygon", { points: pts, class: cls });
}

function sideLine(side, cls) {
  const [[x1, y1], [x2, y2]] = sideEnds(side);
  return svg("line", { x1, y1, x2, y2, class: cls });
}

// The picture of one token choice (``action``: {token, projector?, sides?, objective?})
// for a tripod model (``model``: the catalog's tripod: projectors, smoke_projectors).
export function tokenPicture(action, model) {
  const spec = TOKENS[action.token] || TOKENS.blank;
  const face = svg("svg", { class: `token-face ${spec.colour}`, viewBox: "-11 -11 22 22", "aria-hidden": "true", "data-token": action.token });
  face.append(svg("circle", { cx: 0, cy: 0, r: 10, class: "rim" }));
  if (action.token === "blank") {
    face.append(svg("text", { x: 0, y: 3.5, class: "mark", text: "?" }));
    return face;
  }
  face.append(hexagon("base"));
  if (action.token === "heat_ray" || action.token === "black_smoke") {
    const ports = action.token === "heat_ray" ? model.projectors || [] : model.smoke_projectors || [];
    for (const side of ports) face.append(sideLine(side, "port"));
    const side = action.projector;
    if (SIDES.includes(side)) {
      face.append(sideLine(side, "chosen"));
      const [[x1, y1], [x2, y2]] = sideEnds(side);
      const [nx, ny] = sideNormal(side);
      const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
      if (action.token === "heat_ray") {
        face.append(svg("line", { x1: mx, y1: my, x2: mx + nx * 4.5, y2: my + ny * 4.5, class: "ray" }));
      } else {
        face.append(svg("circle", { cx: mx + nx * 3.4, cy: my + ny * 3.4, r: 2.2, class: "cloud" }));
      }
    }
    return face;
  }
  if (action.token === "change_facing") {
    const n = action.sides || 0;
    const target = SIDES[((n % 6) + 6) % 6];
    face.append(sideLine("front", "port"));
    face.append(sideLine(target, "chosen"));
    // an arc from the front towards the new facing, left (counter-clockwise) or right
    const turn = n * 60;
    const start = 90;
    const end = 90 + turn;
    const rr = 3;
    const p = (deg) => [rr * Math.cos((deg * Math.PI) / 180), -rr * Math.sin((deg * Math.PI) / 180)];
    const [sx, sy] = p(start);
    const [ex, ey] = p(end);
    const large = Math.abs(turn) > 180 ? 1 : 0;
    const sweep = turn > 0 ? 0 : 1;
    face.append(svg("path", { d: `M${sx},${sy} A${rr},${rr} 0 ${large} ${sweep} ${ex},${ey}`, class: "turn" }));
    face.append(svg("circle", { cx: ex, cy: ey, r: 0.9, class: "turn-head" }));
    return face;
  }
  if (action.token === "recharge") {
    face.append(svg("polygon", { points: "0.8,-4.5 -2.2,0.6 -0.2,0.6 -0.8,4.5 2.2,-0.6 0.2,-0.6", class: "bolt" }));
    if (action.objective) face.append(svg("circle", { cx: 6.2, cy: 6.2, r: 2.2, class: "objective" }));
    return face;
  }
  if (action.token === "destroy_objective") {
    face.append(svg("circle", { cx: 0, cy: 0, r: 3, class: "objective" }));
    face.append(svg("path", { d: "M-2.6,-2.6 L2.6,2.6 M-2.6,2.6 L2.6,-2.6", class: "cross" }));
  }
  return face;
}

// The tooltip: the token's name, what this choice does, and the rules.
export function tokenTitle(action, label) {
  const spec = TOKENS[action.token] || TOKENS.blank;
  const lines = [`${spec.name} — ${label}`, spec.rule];
  if (spec.colour === "green") lines.push(GREEN_RULE);
  if (action.token !== "blank") lines.push(STOP_RULE);
  return lines.join("\n");
}

// A row of token pictures for the slot's options ([value, label] pairs, "" for none);
// clicking one chooses it in ``select`` (and fires its change event).
export function tokenStrip(options, current, model, select) {
  const strip = el("div", { class: "token-strip", role: "group", "aria-label": "action tokens" });
  for (const [value, label] of options) {
    if (!value) continue;
    const action = JSON.parse(value);
    const button = el("button", {
      type: "button",
      class: `token${value === current ? " chosen" : ""}`,
      title: tokenTitle(action, label),
      "data-token-value": value,
      "aria-pressed": value === current ? "true" : "false",
      onclick: () => {
        select.value = value === current ? "" : value;
        select.dispatchEvent(new Event("change"));
      },
    }, tokenPicture(action, model));
    strip.append(button);
  }
  return strip;
}

// An option string of the action-token decision (rules/action_tokens.py: "none", "blank",
// "heat_ray:SIDE[@TARGET]", "black_smoke:SIDE[@AIRPLANE]", "change_facing:+N",
// "recharge[:OBJECTIVE]", "destroy_objective[:OBJECTIVE]") as an action and a label.
export function parseOption(option) {
  if (option === "none") return [null, "no action token"];
  if (option === "blank") return [{ token: "blank" }, "a blank card (to pretend)"];
  const [token, rest = ""] = option.split(/:(.*)/s);
  const [arg, at] = rest.split("@");
  if (token === "heat_ray") return [{ token, projector: arg }, `heat-ray ${arg}${at ? ` at ${at}` : ""}`];
  if (token === "black_smoke") return [{ token, projector: arg }, `black smoke ${arg}${at ? ` towards ${at}` : ""}`];
  if (token === "change_facing") {
    const n = Number(arg);
    return [{ token, sides: n }, `turn ${plural(Math.abs(n), "side")} ${n > 0 ? "left" : "right"}`];
  }
  if (token === "recharge") return [{ token, objective: arg || undefined }, arg ? `recharge from ${arg}` : "recharge"];
  return [{ token, objective: arg || undefined }, arg ? `destroy ${arg}` : "destroy an objective"];
}

// The action-token decision at the start of an action phase (000: "At the start of each
// Movement step, all Tripod players may choose an Action token and place it face up";
// 001: an action card "in secret", face down until its reveal): one radio group per
// tripod of the seat, only the tokens the rules allow now, the plan's pencilled choice
// preselected. ctx: {models(vehicleId) -> the tripod model, send(answers) -> Promise}.
export function renderActionTokens(box, stage, ctx) {
  const mine = (stage.decisions || []).filter((d) => d.kind === "action_token");
  if (!mine.length) return false;
  const panel = el("div", { id: "action-tokens", class: "decisions" });
  panel.append(el("h2", { text: `Turn ${stage.turn}, phase ${stage.phase}: choose your action token` }));
  const answers = {};
  for (const d of mine) {
    answers[d.id] = [...d.default];
    const s = d.shown || {};
    const face = s.face === "down" ? "face down: secret until its reveal" : "face up: every seat sees it";
    const group = el("fieldset", { "data-decision": d.id },
      el("legend", { text: `${d.vehicle}: card ${s.card} (${s.symbol}${s.stop ? ", Stop icon" : ""}), Energy ${s.energy}; placed ${face}` }));
    const model = ctx.model(d.vehicle) || {};
    for (const option of d.options) {
      const [action, label] = parseOption(option);
      const input = el("input", { type: "radio", name: d.id, value: option, checked: d.default.includes(option), onchange: () => { answers[d.id] = [option]; } });
      group.append(el("label", { "data-token-option": option, title: action ? tokenTitle(action, label) : label },
        input, action ? tokenPicture(action, model) : null, ` ${label}`));
    }
    // why the other tokens are not offered now, one line per token (the rule quoted)
    const why = new Map();
    for (const [option, reason] of Object.entries(d.reasons || {})) {
      const token = option.split(":")[0];
      if (!why.has(token) && !d.options.some((o) => o.split(":")[0] === token)) why.set(token, reason);
    }
    if (why.size) {
      group.append(el("details", { class: "refused" }, el("summary", { text: "Not allowed now" }),
        el("ul", {}, [...why].map(([token, reason]) => el("li", { "data-refused": token, text: `${(TOKENS[token] || { name: token }).name}: ${reason}` })))));
    }
    group.append(el("div", { class: "rule", text: d.rule }));
    panel.append(group);
  }
  panel.append(el("button", { id: "submit-tokens", class: "primary", text: "Place the token", onclick: (e) => { e.target.disabled = true; ctx.send(answers).catch(() => { e.target.disabled = false; }); } }));
  box.append(panel);
  return true;
}
