// 002's bombing and photographic missions at the table: the target cards drawn on the
// felt under the bases (dashed while open, filled once the mission succeeded) and each
// mission's state in the briefing panel. Everything here is public: the target cards lie
// open on the table.

import { el, svg } from "./common.js";

export function drawTargets(board, state) {
  const layer = board.root.querySelector("g.objectives");
  if (!layer || !state.targets) return;
  for (const t of state.targets) {
    const colour = board.colour(t.side);
    const a = (t.heading * Math.PI) / 180;
    const [ux, uy, hl, hw] = [Math.cos(a), Math.sin(a), t.length / 2, t.width / 2];
    const corners = [[1, 1], [-1, 1], [-1, -1], [1, -1]].map(([i, j]) =>
      [t.x + i * hl * ux - j * hw * uy, t.y + i * hl * uy + j * hw * ux]);
    const done = Boolean(t.done_by);
    const g = svg("g", { class: `target-card${done ? " done" : ""}`, "data-target": t.id, "data-mission": t.mission });
    g.append(svg("polygon", {
      points: corners.map(([x, y]) => `${x},${board.Y(y)}`).join(" "),
      fill: colour, "fill-opacity": done ? "0.25" : "0.06", stroke: colour, "stroke-width": "0.3",
      "stroke-dasharray": done ? "" : "1 0.6",
    }));
    const label = `${t.id}: ${t.mission}${done ? ` ✓ ${t.done_by}` : ""}`;
    g.append(svg("text", { x: t.x, y: board.Y(t.y) + 0.8, class: "label", "text-anchor": "middle", fill: colour, text: label }));
    layer.append(g);
  }
}

// The briefing's lines for the missions (briefing.py's "missions").
export function missionLines(b) {
  return (b.missions || []).map((m) =>
    el("div", { class: `mission${m.done_by ? " done" : ""}`, "data-mission": m.id },
      el("strong", { text: `${m.kind === "bombing" ? "Bombing" : "Photographic"} mission ${m.id} (${m.side}): ` }),
      m.text, el("div", { class: "needs", text: m.status })));
}
