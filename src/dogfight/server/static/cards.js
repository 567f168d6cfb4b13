// Cards you can read: each maneuver card drawn from the deck data the server sends (so a
// user's own deck files draw right) — the base where it starts, the card's path and the
// base where it ends — with its name, speed class and restrictions in words.

import { svg } from "./common.js";

// The flight restrictions of 000 that a card carries (docs/rulings.md quotes them).
const RESTRICTIONS = {
  steep: "not right after another steep card (stall and steep turns are steep)",
  immelmann: "only right after a straight; the next card must be a straight",
};

// A card's name and speed class come with the catalog (dogfight/wording.py), the same
// words the terminal and the log use.
export function cardName(card) {
  return card.name || card.symbol;
}

export function speedClass(card) {
  return card.speed || "";
}

export function restrictions(card) {
  const out = [];
  if (card.steep) out.push(RESTRICTIONS.steep);
  if (card.symbol === "immelmann") out.push(RESTRICTIONS.immelmann);
  if (card.stop) out.push("the tripod stops: no further move this turn");
  if (card.energy) out.push("costs 1 Energy");
  return out;
}

// The pose after a card, as the engine moves a base (geometry/maneuver.py): the card's
// arrowhead laid at the base's nose, the base's rear edge put on the arrowhead.
export function poseAfter(pose, card, depth) {
  const move = (p, forward, left, turn) => {
    const r = (p.heading * Math.PI) / 180;
    return {
      x: p.x + forward * Math.cos(r) - left * Math.sin(r),
      y: p.y + forward * Math.sin(r) + left * Math.cos(r),
      heading: (((p.heading + turn) % 360) + 360) % 360,
    };
  };
  const nose = move(pose, depth / 2, 0, 0);
  const head = move(nose, card.forward, card.left, card.turn);
  return { pose: move(head, depth / 2, 0, 0), nose, head };
}

// The path of the centre dot: centre -> nose, a curve tangent to both headings, then
// arrowhead -> new centre.
export function pathAfter(pose, card, depth) {
  const { pose: end, nose, head } = poseAfter(pose, card, depth);
  const span = Math.hypot(head.x - nose.x, head.y - nose.y) / 3;
  const dir = (p) => [Math.cos((p.heading * Math.PI) / 180), Math.sin((p.heading * Math.PI) / 180)];
  const [ax, ay] = dir(nose);
  const [bx, by] = dir(head);
  const curve = [
    [pose.x, pose.y],
    [nose.x, nose.y],
    [nose.x + ax * span, nose.y + ay * span],
    [head.x - bx * span, head.y - by * span],
    [head.x, head.y],
    [end.x, end.y],
  ];
  return { pose: end, points: curvePoints(curve, 12) };
}

// A path drawn from what defines it, as the server sends a move's `curve`: the centre,
// the nose, the cubic curve's two handles, the arrowhead and the new centre. Gives the
// centre, `steps` + 1 points of the curve from the nose to the arrowhead, and the new
// centre (the server makes its own drawings of a move with 16 steps too).
export function curvePoints([centre, p0, p1, p2, p3, end], steps = 16) {
  const points = [centre];
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    points.push([a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]]);
  }
  points.push(end);
  return points;
}

// The path of a move event: drawn from its curve (an airplane's), else a straight line
// from where it started to where it ended (a tripod's).
export function movePoints(e) {
  return e.curve ? curvePoints(e.curve) : [[e.start.x, e.start.y], [e.end.x, e.end.y]];
}

function outline(pose, tripod, size) {
  const pts = [];
  const r = (pose.heading * Math.PI) / 180;
  const at = (f, l) => [pose.x + f * Math.cos(r) - l * Math.sin(r), pose.y + f * Math.sin(r) + l * Math.cos(r)];
  if (tripod) {
    for (const a of [30, 90, 150, 210, 270, 330]) {
      const q = (a * Math.PI) / 180;
      pts.push(at(size.side * Math.cos(q), size.side * Math.sin(q)));
    }
  } else {
    const [L, W] = [size.length / 2, size.width / 2];
    pts.push(at(L, W), at(-L, W), at(-L, -W), at(L, -W));
  }
  return pts;
}

// A small drawing of the card: start base (grey), the path, the end base in colour.
export function cardFace(card, catalog, tripod) {
  const c = catalog.constants;
  const size = tripod ? { side: c.tripods.base_side } : c.airplane_base;
  const depth = tripod ? Math.sqrt(3) * c.tripods.base_side : c.airplane_base.length;
  const start = { x: 0, y: 0, heading: 90 };
  const moves = card.forward || card.left || card.turn;
  const back = card.symbol === "reverse" && !moves;
  const { pose: end, points } = moves ? pathAfter(start, card, depth) : { pose: start, points: [] };
  const a = outline(start, tripod, size);
  const b = outline(end, tripod, size);
  const all = [...a, ...b, ...points];
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => -p[1]);
  const pad = 1.2;
  const x0 = Math.min(...xs) - pad;
  const y0 = Math.min(...ys) - pad;
  const w = Math.max(Math.max(...xs) - x0 + pad, 8);
  const h = Math.max(Math.max(...ys) - y0 + pad, 8);
  const poly = (pts, cls) => svg("polygon", { points: pts.map(([x, y]) => `${x},${-y}`).join(" "), class: cls });
  const face = svg("svg", { class: "card-face", viewBox: `${x0} ${y0} ${w} ${h}`, "aria-hidden": "true" });
  face.append(poly(a, "from"));
  if (points.length) {
    face.append(svg("polyline", { points: points.map(([x, y]) => `${x},${-y}`).join(" "), class: "track" }));
    face.append(poly(b, "to"));
    const r = (end.heading * Math.PI) / 180;
    const tip = [end.x + Math.cos(r) * (depth / 2), end.y + Math.sin(r) * (depth / 2)];
    face.append(svg("circle", { cx: tip[0], cy: -tip[1], r: 0.6, class: "tip" }));
  } else {
    face.append(svg("text", { x: 0, y: 1, class: "still", text: back ? "↓" : "●" }));
  }
  return face;
}

export function cardTitle(card, deck) {
  const parts = [`Card ${card.id} — ${cardName(card)}`];
  if (card.forward !== undefined) {
    parts.push(`${card.forward} cm ahead, ${Math.abs(card.left)} cm ${card.left >= 0 ? "left" : "right"}, turns ${Math.abs(card.turn)}°${card.turn ? (card.turn > 0 ? " left" : " right") : ""}`);
  }
  parts.push(`speed: ${speedClass(card)}`);
  for (const r of restrictions(card)) parts.push(`restriction: ${r}`);
  return parts.join("\n");
}
