// The table drawn to scale in SVG from a seat's observation (1 user unit = 1 cm, y up on
// the table, so every point goes through Y()). Nothing here knows any secret: it draws
// what the server sent to this seat.

import { svg } from "./common.js";

// One family of shades per side, one shade per vehicle: a vehicle's base, ghosts, paths,
// label and console entry share its colour, and a side still reads as one. The families
// are `render`'s side colours and their shades (render/style.py SIDE_SHADES), sent in the
// catalog: the page has no palette of its own.
function families(catalog) {
  const shades = catalog && catalog.side_shades;
  return shades && shades.length ? shades : [["#222222"]];
}

export class Board {
  constructor(root, catalog) {
    this.root = root;
    this.catalog = catalog;
    this.hover = null;
    this.tapped = null; // vehicle id whose arcs a tap pinned
    this.sideIndex = new Map();
    this.vehicleColours = new Map();
    this.zoom = null; // {x, y, w, h}: the part of the view shown (null: all of it)
    this.touch(root);
  }

  // Each side's family, as `render` places sides (render/context.py, side_slots): a side
  // the catalog's side_slots names takes its own (Allies and Earth blue, Central Powers and
  // Martians vermilion) unless another side holds it; the others, in name order, the first left.
  placeSides(sides) {
    const slots = (this.catalog && this.catalog.side_slots) || {};
    const named = [...new Set(sides)].filter((s) => !this.sideIndex.has(s)).sort();
    const taken = () => new Set(this.sideIndex.values());
    for (const side of named) {
      if (slots[side] !== undefined && !taken().has(slots[side])) this.sideIndex.set(side, slots[side]);
    }
    for (const side of named) {
      if (this.sideIndex.has(side)) continue;
      let i = 0;
      while (taken().has(i)) i++;
      this.sideIndex.set(side, i);
    }
  }

  sideOf(side) {
    if (!this.sideIndex.has(side)) this.placeSides([side]);
    return this.sideIndex.get(side);
  }

  // The colour of a side (its first shade).
  colour(side) {
    const all = families(this.catalog);
    return all[this.sideOf(side) % all.length][0];
  }

  // Give every vehicle its shade: the side's vehicles in id order, each the first shade
  // of its family no vehicle holds yet (the side's colour, then darker and lighter).
  assign(vehicles) {
    this.placeSides(vehicles.map((v) => v.side));
    const all = families(this.catalog);
    for (const v of [...vehicles].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (this.vehicleColours.has(v.id)) continue;
      const family = all[this.sideOf(v.side) % all.length];
      const held = new Set(this.vehicleColours.values());
      const taken = family.filter((c) => held.has(c)).length;
      this.vehicleColours.set(v.id, family.find((c) => !held.has(c)) || family[taken % family.length]);
    }
  }

  vehicleColour(v) {
    if (!this.vehicleColours.has(v.id)) this.assign([v]);
    return this.vehicleColours.get(v.id);
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
    this.assign(state.vehicles);
    // the view reaches whatever is drawn beyond the table (a ghost over the edge)
    let [x0, y0, x1, y1] = [-2, -2, W + 2, H + 2];
    const grow = (x, y, r = 3) => {
      x0 = Math.min(x0, x - r);
      x1 = Math.max(x1, x + r);
      y0 = Math.min(y0, Y(y) - r);
      y1 = Math.max(y1, Y(y) + r);
    };
    for (const gh of extra.ghosts || []) {
      if (gh.pose) grow(gh.pose.x, gh.pose.y, 5);
      for (const [x, y] of gh.path || []) grow(x, y);
    }
    for (const p of extra.paths || []) for (const [x, y] of p.points) grow(x, y);
    this.full = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    this.applyView();
    root.replaceChildren();
    root.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "felt" }));
    for (let x = 10; x < W; x += 10) {
      root.append(svg("line", { x1: x, y1: 0, x2: x, y2: H, class: "grid" }));
    }
    for (let y = 10; y < H; y += 10) {
      root.append(svg("line", { x1: 0, y1: Y(y), x2: W, y2: Y(y), class: "grid" }));
    }
    const edgeWords = []; // the exits' words: no label covers them
    for (const e of extra.exits || []) {
      const c = this.colour(e.side);
      const at = { north: [0, 0, W, 0], south: [0, H, W, H], west: [0, 0, 0, H], east: [W, 0, W, H] }[e.edge];
      if (!at) continue;
      const g = svg("g", { class: "exit", "data-exit": e.edge });
      g.append(svg("line", { x1: at[0], y1: at[1], x2: at[2], y2: at[3], stroke: c }));
      const tx = (at[0] + at[2]) / 2;
      const ty = e.edge === "north" ? -0.6 : e.edge === "south" ? H + 1.9 : H / 2;
      const x = e.edge === "west" ? 1 : e.edge === "east" ? W - 1 : tx;
      g.append(svg("text", { x, y: ty, class: `exit-label ${e.edge}`, fill: c, text: e.text }));
      const w = 1.25 * e.text.length; // bold, 2 units high (table.css .exit-label)
      const left = e.edge === "west" ? x : e.edge === "east" ? x - w : x - w / 2;
      edgeWords.push([left, ty - 2, left + w, ty + 0.6]);
      root.append(g);
    }

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

    const poses = extra.poses || {};
    const shown = [];
    for (const v of state.vehicles) {
      const pose = poses[v.id] || v.pose;
      if (v.eliminated && !poses[v.id]) {
        const left = pose.x < 0 || pose.y < 0 || pose.x > W || pose.y > H;
        if (left) continue;
      }
      shown.push([v, pose]);
    }
    // what no label may cover: the bases, the ghosts and the objective tokens
    const discs = shown.map(([v, pose]) => [pose.x, Y(pose.y), this.radius(v)]);
    for (const gh of extra.ghosts || []) {
      if (gh.pose) discs.push([gh.pose.x, Y(gh.pose.y), this.radius(gh.vehicle)]);
    }
    const r = this.catalog.constants.tripods.objective_radius;
    for (const o of state.objectives || []) discs.push([o.x, Y(o.y), r]);
    // the labels already placed (the exits' words, an objective's, then each base's): no
    // label covers another
    const placed = [...edgeWords];
    for (const o of state.objectives || []) {
      const g = svg("g", { class: `objective${o.destroyed ? " destroyed" : ""}`, "data-objective": o.id });
      g.append(svg("circle", { cx: o.x, cy: Y(o.y), r }));
      const text = `${o.id} (${o.charges})`;
      const [lx, ly] = this.labelSpot(o.x, Y(o.y), r, text, discs, placed, true);
      g.append(svg("text", { x: lx, y: ly, class: "label", text }));
      if (o.destroyed) {
        g.append(svg("line", { x1: o.x - r, y1: Y(o.y) - r, x2: o.x + r, y2: Y(o.y) + r }));
      }
      objectives.append(g);
    }
    for (const c of state.clouds || []) {
      under.append(svg("circle", { cx: c.x, cy: Y(c.y), r: c.radius, class: "cloud" }));
    }
    const byId = new Map(state.vehicles.map((v) => [v.id, v]));
    for (const p of extra.paths || []) {
      const points = p.points.map(([x, y]) => `${x},${Y(y)}`).join(" ");
      const v = byId.get(p.vehicle);
      const stroke = v ? this.vehicleColour(v) : this.colour(p.side);
      paths.append(svg("polyline", { points, class: "path", stroke, "data-path": p.vehicle }));
    }
    for (const gh of extra.ghosts || []) {
      const colour = this.vehicleColour(gh.vehicle);
      if (gh.path) {
        const points = gh.path.map(([x, y]) => `${x},${Y(y)}`).join(" ");
        ghosts.append(svg("polyline", { points, class: `ghost-path${gh.warned ? " warned" : ""}`, stroke: colour }));
      }
      if (gh.pose) {
        const g = this.base(gh.vehicle, gh.pose, true);
        g.classList.add(gh.final ? "ghost-final" : "ghost");
        if (gh.warned) g.classList.add("warned");
        if (gh.preview) g.classList.add("preview");
        g.setAttribute("data-ghost", gh.vehicle.id);
        g.setAttribute("data-colour", colour);
        if (gh.label) {
          g.append(svg("text", { x: 0, y: 0.9, class: "ghost-label", transform: `rotate(${gh.pose.heading})`, text: gh.label }));
        }
        ghosts.append(g);
      }
    }
    for (const [v, pose] of shown) {
      const g = this.base(v, pose, false);
      if (v.eliminated) g.classList.add("eliminated");
      if (extra.mine && extra.mine.has(v.id)) g.classList.add("mine");
      g.setAttribute("data-vehicle", v.id);
      g.addEventListener("mouseenter", () => this.showReach(v, pose));
      g.addEventListener("mouseleave", () => {
        if (this.tapped !== v.id) this.hideReach();
      });
      // a tap (or click) pins the arcs until the next tap: there is no hover on a phone
      g.addEventListener("pointerup", (event) => {
        event.stopPropagation();
        if (this.moved) return;
        if (this.tapped === v.id) {
          this.tapped = null;
          this.hideReach();
        } else {
          this.tapped = v.id;
          this.showReach(v, pose);
        }
      });
      bases.append(g);
      const [lx, ly] = this.labelSpot(pose.x, Y(pose.y), this.radius(v), v.id, discs, placed);
      bases.append(svg("text", { x: lx, y: ly, class: "label", fill: this.vehicleColour(v), "data-label": v.id, text: v.id }));
    }
    const pinned = shown.find(([v]) => v.id === this.tapped);
    if (pinned) this.showReach(pinned[0], pinned[1]);
    else this.tapped = null;
    for (const s of extra.shots || []) {
      shots.append(
        svg("line", {
          x1: s.origin[0], y1: Y(s.origin[1]), x2: s.point[0], y2: Y(s.point[1]),
          class: s.heat ? "shot heat" : "shot",
        }),
      );
    }
  }

  // The box (table units) of a label of ``text`` whose baseline is centred on (cx, cy).
  labelBox(cx, cy, text) {
    const w = 1.25 * text.length + 0.6;
    return [cx - w / 2, cy - 2.4 + 0.4, cx + w / 2, cy + 0.6];
  }

  // A spot for the label of a thing of radius r at (x, y) (a base, or an objective
  // token) that covers no base, ghost or objective token and no label placed before it
  // (`placed`, which it joins): above, below, right or left of the thing (below first
  // for a token, as printed), further out if need be, then rings farther around it, as
  // `render` places its labels (render/labels.py); when no spot is free, the one
  // covering least.
  labelSpot(x, y, r, text, discs, placed, below = false) {
    const w = 1.25 * text.length + 0.6;
    const covered = (cx, cy) => {
      const box = this.labelBox(cx, cy, text);
      let area = 0;
      for (const [dx, dy, dr] of discs) {
        const nx = Math.max(box[0], Math.min(dx, box[2]));
        const ny = Math.max(box[1], Math.min(dy, box[3]));
        // a disc the box reaches counts as the box's overlap with the disc's square
        if (Math.hypot(nx - dx, ny - dy) < dr) area += overlap(box, [dx - dr, dy - dr, dx + dr, dy + dr]);
      }
      for (const b of placed) area += overlap(box, b);
      return area;
    };
    const spots = [];
    for (const extra of [1, 3, 6]) {
      const up = [x, y - r - extra];
      const down = [x, y + r + extra + 1.6];
      spots.push(...(below ? [down, up] : [up, down]));
      spots.push([x + r + extra + w / 2, y + 0.8], [x - r - extra - w / 2, y + 0.8]);
    }
    for (let ring = 1; ring <= 6; ring++) {
      const d = r + 6 + 2.5 * ring;
      for (let a = 0; a < 16; a++) {
        const t = (a * Math.PI) / 8;
        spots.push([x + d * Math.cos(t), y + 0.8 + d * Math.sin(t)]);
      }
    }
    let best = [Infinity, spots[0]];
    for (const [cx, cy] of spots) {
      const area = covered(cx, cy);
      if (area < best[0]) best = [area, [cx, cy]];
      if (area === 0) break;
    }
    const [cx, cy] = best[1];
    placed.push(this.labelBox(cx, cy, text));
    return [cx, cy];
  }

  // Zoom onto some vehicles so that a base is at least `minPx` pixels long on screen
  // (a touch target a finger can hit, 44 px, and labels of 12 px and more); the whole
  // table again when none is given.
  zoomTo(poses, minPx = 44) {
    if (!this.full || !poses.length) {
      this.zoom = null;
      this.applyView();
      return;
    }
    const box = this.root.getBoundingClientRect();
    const base = this.catalog.constants.airplane_base.length;
    const w = Math.min(this.full.w, (box.width * base) / (minPx * 1.1));
    const h = (w * this.full.h) / this.full.w;
    const xs = poses.map((p) => p.x);
    const ys = poses.map((p) => this.Y(p.y));
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    this.zoom = { x: cx - w / 2, y: cy - h / 2, w, h };
    this.applyView();
  }

  applyView() {
    const v = this.zoom || this.full;
    if (v) this.root.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  // Pinch or wheel to zoom, drag to pan, double-click to see the whole table again. A
  // drag is not a tap: this.moved keeps a base's click from pinning its arcs after one.
  touch(root) {
    const pointers = new Map();
    let last = null;
    const toTable = (clientX, clientY) => {
      const box = root.getBoundingClientRect();
      const v = this.zoom || this.full;
      const s = Math.max(v.w / box.width, v.h / box.height);
      const ox = v.x + (v.w - box.width * s) / 2;
      const oy = v.y + (v.h - box.height * s) / 2;
      return [ox + (clientX - box.left) * s, oy + (clientY - box.top) * s, s];
    };
    const zoomAt = (clientX, clientY, factor) => {
      if (!this.full) return;
      const v = this.zoom || { ...this.full };
      const [px, py] = toTable(clientX, clientY);
      const w = Math.min(this.full.w * 1.5, Math.max(this.full.w / 8, v.w / factor));
      const k = w / v.w;
      this.zoom = { x: px - (px - v.x) * k, y: py - (py - v.y) * k, w, h: v.h * k };
      this.applyView();
    };
    root.addEventListener("wheel", (e) => {
      e.preventDefault();
      zoomAt(e.clientX, e.clientY, e.deltaY < 0 ? 1.15 : 1 / 1.15);
    }, { passive: false });
    root.addEventListener("dblclick", () => {
      this.zoom = null;
      this.applyView();
    });
    root.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      this.moved = false;
      last = null;
    });
    root.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId) || !this.full) return;
      const before = pointers.get(e.pointerId);
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (last) zoomAt((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, d / last);
        last = d;
        this.moved = true;
        return;
      }
      const dx = e.clientX - before[0];
      const dy = e.clientY - before[1];
      if (!this.moved && Math.hypot(dx, dy) < 4) {
        pointers.set(e.pointerId, before);
        return;
      }
      this.moved = true;
      if (!this.zoom) return;
      const [, , s] = toTable(0, 0);
      this.zoom = { ...this.zoom, x: this.zoom.x - dx * s, y: this.zoom.y - dy * s };
      this.applyView();
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) last = null;
    };
    root.addEventListener("pointerup", up, true);
    root.addEventListener("pointercancel", up, true);
    root.addEventListener("pointerup", () => {
      if (this.moved || !this.tapped) return;
      this.tapped = null;
      this.hideReach();
    });
  }

  radius(v) {
    if (v.type in this.catalog.tripods) return this.catalog.constants.tripods.base_side;
    const b = this.catalog.constants.airplane_base;
    return Math.hypot(b.length, b.width) / 2;
  }

  // One vehicle's base at a pose: a rectangle with a nose for airplanes, a hexagon with
  // its front side flat for tripods; the centre dot.
  base(v, pose, ghost) {
    const colour = this.vehicleColour(v);
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
    if (this.noReach) return; // as printed: no measuring before the reveal
    this.hideReach();
    const c = this.catalog.constants;
    const g = svg("g", {
      class: "reach",
      "data-reach": v.id,
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

// The area two boxes [x0, y0, x1, y1] share.
function overlap(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return Math.max(0, w) * Math.max(0, h);
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
