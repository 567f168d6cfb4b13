// The table drawn to scale in SVG from a seat's observation (1 user unit = 1 cm, y up on
// the table, so every point goes through Y()). Nothing here knows any secret: it draws
// what the server sent to this seat.

import { svg } from "./common.js";

const COLOURS = ["#1f5fa8", "#b3261e", "#2e7d32", "#8e44ad", "#c77700", "#00838f"];

export class Board {
  constructor(root, catalog) {
    this.root = root;
    this.catalog = catalog;
    this.hover = null;
    this.sideColour = new Map();
  }

  colour(side) {
    if (!this.sideColour.has(side)) {
      this.sideColour.set(side, COLOURS[this.sideColour.size % COLOURS.length]);
    }
    return this.sideColour.get(side);
  }

  // state: observation; extra: {poses: {id: pose} overriding, paths: [...], ghosts: [...],
  // shots: [...], mine: Set of own vehicle ids}
  draw(state, extra = {}) {
    const W = state.table.width;
    const H = state.table.height;
    this.W = W;
    this.H = H;
    const Y = (y) => H - y;
    this.Y = Y;
    const root = this.root;
    root.setAttribute("viewBox", `-2 -2 ${W + 4} ${H + 4}`);
    root.replaceChildren();
    root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "felt" }));
    for (let x = 10; x < W; x += 10) {
      root.append(svg("line", { x1: x, y1: 0, x2: x, y2: H, class: "grid" }));
    }
    for (let y = 10; y < H; y += 10) {
      root.append(svg("line", { x1: 0, y1: Y(y), x2: W, y2: Y(y), class: "grid" }));
    }
    for (const side of new Set(state.vehicles.map((v) => v.side))) this.colour(side);

    const layer = (name) => {
      const g = svg("g", { class: name });
      root.append(g);
      return g;
    };
    const under = layer("under");
    const objectives = layer("objectives");
    const paths = layer("paths");
    const ghosts = layer("ghosts");
    const bases = layer("bases");
    const shots = layer("shots");
    const over = layer("over");
    this.overLayer = over;

    for (const o of state.objectives || []) {
      const r = this.catalog.constants.tripods.objective_radius;
      const g = svg("g", { class: `objective${o.destroyed ? " destroyed" : ""}`, "data-objective": o.id });
      g.append(svg("circle", { cx: o.x, cy: Y(o.y), r }));
      g.append(svg("text", { x: o.x, y: Y(o.y) + r + 2.2, class: "label", text: `${o.id} (${o.charges})` }));
      if (o.destroyed) {
        g.append(svg("line", { x1: o.x - r, y1: Y(o.y) - r, x2: o.x + r, y2: Y(o.y) + r }));
      }
      objectives.append(g);
    }
    for (const c of state.clouds || []) {
      under.append(svg("circle", { cx: c.x, cy: Y(c.y), r: c.radius, class: "cloud" }));
    }
    for (const p of extra.paths || []) {
      const points = p.points.map(([x, y]) => `${x},${Y(y)}`).join(" ");
      paths.append(svg("polyline", { points, class: "path", stroke: this.colour(p.side) }));
    }
    for (const gh of extra.ghosts || []) {
      if (gh.path) {
        const points = gh.path.map(([x, y]) => `${x},${Y(y)}`).join(" ");
        ghosts.append(svg("polyline", { points, class: "ghost-path" }));
      }
      if (gh.pose) {
        const g = this.base(gh.vehicle, gh.pose, true);
        g.classList.add(gh.final ? "ghost-final" : "ghost");
        if (gh.label) {
          g.append(svg("text", { x: 0, y: 0.9, class: "ghost-label", transform: `rotate(${gh.pose.heading})`, text: gh.label }));
        }
        ghosts.append(g);
      }
    }
    const poses = extra.poses || {};
    for (const v of state.vehicles) {
      const pose = poses[v.id] || v.pose;
      if (v.eliminated && !poses[v.id]) {
        const left = pose.x < 0 || pose.y < 0 || pose.x > W || pose.y > H;
        if (left) continue;
      }
      const g = this.base(v, pose, false);
      if (v.eliminated) g.classList.add("eliminated");
      if (extra.mine && extra.mine.has(v.id)) g.classList.add("mine");
      g.setAttribute("data-vehicle", v.id);
      g.addEventListener("mouseenter", () => this.showReach(v, pose));
      g.addEventListener("mouseleave", () => this.hideReach());
      bases.append(g);
      bases.append(
        svg("text", { x: pose.x, y: Y(pose.y) - this.radius(v) - 1, class: "label", text: v.id }),
      );
    }
    for (const s of extra.shots || []) {
      shots.append(
        svg("line", {
          x1: s.origin[0], y1: Y(s.origin[1]), x2: s.point[0], y2: Y(s.point[1]),
          class: s.heat ? "shot heat" : "shot",
        }),
      );
    }
  }

  radius(v) {
    if (v.type in this.catalog.tripods) return this.catalog.constants.tripods.base_side;
    const b = this.catalog.constants.airplane_base;
    return Math.hypot(b.length, b.width) / 2;
  }

  // One vehicle's base at a pose: a rectangle with a nose for airplanes, a hexagon with
  // its front side flat for tripods; the centre dot.
  base(v, pose, ghost) {
    const colour = this.colour(v.side);
    const g = svg("g", {
      class: "base",
      transform: `translate(${pose.x} ${this.Y(pose.y)}) rotate(${-pose.heading})`,
    });
    if (v.type in this.catalog.tripods) {
      const s = this.catalog.constants.tripods.base_side;
      const pts = [];
      for (const a of [30, 90, 150, 210, 270, 330]) {
        const r = (a * Math.PI) / 180;
        pts.push(`${s * Math.cos(r)},${-s * Math.sin(r)}`);
      }
      g.append(svg("polygon", { points: pts.join(" "), fill: colour, class: "body" }));
      const ap = (s * Math.sqrt(3)) / 2;
      g.append(svg("line", { x1: ap, y1: -s / 2, x2: ap, y2: s / 2, class: "nose-line" }));
    } else {
      const b = this.catalog.constants.airplane_base;
      g.append(svg("rect", { x: -b.length / 2, y: -b.width / 2, width: b.length, height: b.width, fill: colour, class: "body" }));
      g.append(
        svg("polygon", {
          points: `${b.length / 2},0 ${b.length / 2 - 1.6},-1.3 ${b.length / 2 - 1.6},1.3`,
          class: "nose",
        }),
      );
    }
    g.append(svg("circle", { cx: 0, cy: 0, r: 0.35, class: "dot" }));
    return g;
  }

  // Arcs and ruler reach from the centre dot (airplanes), or the heat-ray reach from the
  // projectors (tripods), while the pointer is on a base.
  showReach(v, pose) {
    this.hideReach();
    const c = this.catalog.constants;
    const g = svg("g", {
      class: "reach",
      transform: `translate(${pose.x} ${this.Y(pose.y)}) rotate(${-pose.heading})`,
    });
    const wedge = (centre, width, r) => {
      const a0 = ((centre - width / 2) * Math.PI) / 180;
      const a1 = ((centre + width / 2) * Math.PI) / 180;
      const large = width > 180 ? 1 : 0;
      return `M0,0 L${r * Math.cos(a0)},${-r * Math.sin(a0)} A${r},${r} 0 ${large} 0 ${r * Math.cos(a1)},${-r * Math.sin(a1)} Z`;
    };
    if (v.type in this.catalog.tripods) {
      const t = this.catalog.tripods[v.type];
      const ruler = c.tripods[t.heat_ray];
      const sides = { front: 0, "front-left": 60, "rear-left": 120, rear: 180, "rear-right": 240, "front-right": 300 };
      for (const p of t.projectors) {
        g.append(svg("path", { d: wedge(sides[p], 60, ruler.length + c.tripods.base_side), class: "arc" }));
        g.append(svg("path", { d: wedge(sides[p], 60, ruler.half + c.tripods.base_side), class: "arc half" }));
      }
    } else {
      const plane = this.catalog.airplanes[v.type];
      const arcs = [c.arcs.front];
      if (plane && plane.firepower.length > 1) arcs.push(c.arcs.rear);
      for (const arc of arcs) {
        g.append(svg("path", { d: wedge(arc.centre, arc.width, c.ruler.length), class: "arc" }));
        g.append(svg("path", { d: wedge(arc.centre, arc.width, c.ruler.half), class: "arc half" }));
      }
      g.append(svg("circle", { cx: 0, cy: 0, r: c.ruler.length, class: "ruler" }));
    }
    this.overLayer.append(g);
  }

  hideReach() {
    if (this.overLayer) this.overLayer.replaceChildren();
  }
}

// A point along a polyline at fraction t (for animating a move).
export function along(points, t) {
  if (points.length < 2) return points[0];
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]));
  }
  const total = lengths[lengths.length - 1] || 1;
  const want = t * total;
  for (let i = 1; i < points.length; i++) {
    if (lengths[i] >= want) {
      const seg = lengths[i] - lengths[i - 1] || 1;
      const f = (want - lengths[i - 1]) / seg;
      return [
        points[i - 1][0] + f * (points[i][0] - points[i - 1][0]),
        points[i - 1][1] + f * (points[i][1] - points[i - 1][1]),
      ];
    }
  }
  return points[points.length - 1];
}

export function lerpAngle(a, b, t) {
  let d = ((b - a + 540) % 360) - 180;
  return a + d * t;
}
