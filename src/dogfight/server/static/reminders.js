// The seat's turn-a-day reminder (issue 32 item 3), in the table's seat tools: an e-mail
// address or a webhook URL (Discord, Slack) the server sends one message to, with this
// seat's link, each turn the game waits for it. What the server offers (no public
// address: no reminder at all; no SMTP settings: no e-mail) is said in the form.

import { api, el } from "./common.js";

const forms = new Map(); // "game/seat" -> the form, made once (its input kept across views)

export function reminderForm(gameId, seatId, token) {
  const key = `${gameId}/${seatId}`;
  if (forms.has(key)) return forms.get(key);
  const path = `/api/games/${gameId}/seats/${encodeURIComponent(seatId)}/reminder`;
  const kind = el("select", { id: "reminder-kind", "aria-label": "reminder by" },
    el("option", { value: "webhook", text: "webhook URL" }),
    el("option", { value: "email", text: "e-mail" }));
  const address = el("input", { id: "reminder-to", type: "text", size: "36", "aria-label": "reminder address", maxlength: "500" });
  const note = el("span", { id: "reminder-note", class: "muted", role: "status" });
  const save = async (body) => {
    try {
      const got = await api("PUT", path, body, token());
      note.textContent = got.email || got.webhook ? `Reminders go to ${got.email || got.webhook}.` : "No reminders.";
    } catch (e) {
      note.textContent = e.field ? `${e.field}: ${e.message}` : e.message;
    }
  };
  const set = el("button", { id: "reminder-set", type: "button", text: "Remind me",
    onclick: () => save({ [kind.value]: address.value }) });
  const clear = el("button", { id: "reminder-clear", type: "button", text: "No reminders",
    onclick: () => { address.value = ""; save({}); } });
  const form = el("p", { id: "reminder" }, "Remind this seat when the game waits for it: ", kind, " ", address, " ", set, " ", clear, " ", note);
  forms.set(key, form);
  api("GET", path, undefined, token()).then((got) => {
    const offered = got.offered;
    if (got.email || got.webhook) {
      kind.value = got.email ? "email" : "webhook";
      address.value = got.email || got.webhook;
      note.textContent = `Reminders go to ${address.value}.`;
    }
    if (!offered.webhook) {
      for (const input of [kind, address, set, clear]) input.disabled = true;
      note.textContent = offered.why;
    } else if (!offered.email) {
      kind.querySelector('option[value="email"]').disabled = true;
      if (!note.textContent) note.textContent = offered.email_why;
    }
  }).catch((e) => { note.textContent = e.message; });
  return form;
}
