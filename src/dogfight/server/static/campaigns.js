// The campaigns page: start a shipped campaign, or open one stored on this server.
import { api, el } from "/static/common.js";

const message = document.getElementById("message");

function show(error) {
  message.textContent = error ? String(error.message || error) : "";
}

async function start(id) {
  try {
    const made = await api("POST", "/api/campaigns", { campaign: id });
    location.href = `/campaign/${made.id}`;
  } catch (error) {
    show(error);
  }
}

async function load() {
  const data = await api("GET", "/api/campaigns");
  const shipped = document.getElementById("shipped");
  shipped.replaceChildren(
    ...data.shipped.map((c) =>
      el(
        "li",
        {},
        el("button", { class: "primary", onclick: () => start(c.id), "data-campaign": c.id }, `Start ${c.title}`),
        " ",
        el("span", { class: "muted" }, `${c.note} (${c.sides.join(" against ")})`),
      ),
    ),
  );
  const stored = document.getElementById("stored");
  stored.replaceChildren(
    ...(data.campaigns.length
      ? data.campaigns.map((c) => el("li", {}, el("a", { href: `/campaign/${c.id}` }, c.title), ` (${c.id})`))
      : [el("li", { class: "muted" }, "none yet")]),
  );
}

load().catch(show);
