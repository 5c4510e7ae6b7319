// The Pushline console: plain DOM and fetch, no framework, nothing loaded from elsewhere.
"use strict";

const $ = (id) => document.getElementById(id);
const fmt = (n) => Number(n).toLocaleString("en-US");

async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  if (r.status === 401) {
    location.href = "/console";
    throw new Error("logged out");
  }
  const data = await r.json().catch(() => ({ error: "not JSON (HTTP " + r.status + ")" }));
  return { status: r.status, data };
}

function age(ms) {
  const s = Math.floor(ms / 1000);
  if (s >= 86400) return Math.floor(s / 86400) + "d" + Math.floor((s % 86400) / 3600) + "h";
  if (s >= 3600) return Math.floor(s / 3600) + "h" + Math.floor((s % 3600) / 60) + "m";
  if (s >= 60) return Math.floor(s / 60) + "m" + (s % 60) + "s";
  return s + "s";
}

function when(ts) {
  return new Date(ts).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

function cell(row, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  row.appendChild(td);
  return td;
}

// ---- tabs -------------------------------------------------------------------------------------

function showTab() {
  const tab = (location.hash || "#editor").slice(1);
  for (const p of document.querySelectorAll(".panel")) p.hidden = p.id !== tab;
  for (const a of document.querySelectorAll("a.tab")) a.classList.toggle("active", a.dataset.tab === tab);
  if (tab === "segments") loadSegments();
  if (tab === "saved") loadSaved();
}

// ---- expression editor ------------------------------------------------------------------------

let checkSeq = 0;
let lastOk = null;
let timer = null;

function scheduleCheck() {
  clearTimeout(timer);
  timer = setTimeout(check, 150);
}

async function check() {
  const expression = $("expr").value;
  const seq = ++checkSeq;
  lastOk = null;
  // a save's or a dry run's answer was about the expression before this edit
  for (const id of ["save-status", "dry-status", "dry-result"]) $(id).textContent = "";
  if (expression.trim() === "") {
    showError(null);
    $("expr-status").textContent = "";
    $("size").textContent = "-";
    $("explain").textContent = "";
    return;
  }
  const { status, data } = await api("POST", "/v1/audiences/check", { expression });
  if (seq !== checkSeq) return; // a newer keystroke has its own answer coming
  if (status !== 200) {
    showError({ message: data.error || "HTTP " + status });
    return;
  }
  if (!data.ok) {
    showError(data.error, expression);
    $("size").textContent = "-";
    $("explain").textContent = "";
    return;
  }
  lastOk = data;
  showError(null);
  $("expr-status").className = "status ok";
  $("expr-status").textContent = "OK: " + data.canonical;
  $("size").textContent = fmt(data.size);
  $("explain").textContent = data.explain
    .map((n) => (n.lead + n.label).padEnd(Math.max(...data.explain.map((x) => (x.lead + x.label).length)) + 2) + fmt(n.size).padStart(12))
    .join("\n");
}

// The error as the contract prints it: message, the expression, a caret under the column.
function showError(err, expression) {
  const status = $("expr-status");
  const caret = $("expr-caret");
  const box = $("suggestions");
  box.textContent = "";
  $("expr").classList.toggle("bad", !!err);
  if (!err) {
    caret.textContent = "";
    return;
  }
  status.className = "status error";
  status.textContent = err.message;
  caret.textContent = err.column ? expression + "\n" + " ".repeat(err.column - 1) + "^" : "";
  const unknown = /unknown segment '([^']*)'/.exec(err.message || "");
  for (const s of err.suggestions || []) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "suggestion";
    b.textContent = s;
    b.title = "use " + s;
    b.addEventListener("click", () => {
      const start = err.column - 1;
      const len = unknown ? unknown[1].length : 0;
      const e = $("expr");
      e.value = expression.slice(0, start) + s + expression.slice(start + len);
      e.focus();
      check();
    });
    box.appendChild(b);
  }
}

async function save() {
  const name = $("save-name").value.trim();
  const out = $("save-status");
  if (!name) {
    out.className = "status error";
    out.textContent = "Give the audience a name.";
    return;
  }
  const { status, data } = await api("PUT", "/v1/audiences/saved/" + encodeURIComponent(name), {
    expression: $("expr").value,
  });
  if (status === 200) {
    out.className = "status ok";
    out.textContent = "Saved " + data.name + " v" + data.version + " (" + fmt(data.size) + " members) by " + data.savedBy + ".";
  } else {
    out.className = "status error";
    out.textContent = data.error;
  }
}

async function overlap() {
  const out = $("overlap-result");
  const { status, data } = await api("POST", "/v1/audiences/overlap", { a: $("expr").value, b: $("overlap-b").value });
  if (status !== 200 || !data.ok) {
    out.className = "status error";
    out.textContent = data.error ? (data.which ? "expression " + data.which.toUpperCase() + ": " : "") + (data.error.message || data.error) : "HTTP " + status;
    return;
  }
  out.className = "status";
  out.textContent =
    "first " + fmt(data.a) + ", second " + fmt(data.b) + "; in both " + fmt(data.both) +
    ", only the first " + fmt(data.onlyA) + ", only the second " + fmt(data.onlyB) + ", either " + fmt(data.either) + ".";
}

// ---- dry run ----------------------------------------------------------------------------------

async function dryRun() {
  const out = $("dry-result");
  const st = $("dry-status");
  const button = $("dry-run");
  out.textContent = "";
  st.className = "status";
  st.textContent = "Reading the dispatch job's state ...";
  button.disabled = true;
  try {
    const { status, data } = await api("POST", "/v1/audiences/dry-run", { expression: $("expr").value, msgType: $("dry-msgtype").value });
    if (status !== 200 || !data.ok) {
      st.className = "status error";
      st.textContent = data.error ? data.error.message || data.error : "HTTP " + status;
      return;
    }
    st.className = "status ok";
    st.textContent = "Dry run done.";
    renderDryRun(out, data);
  } finally {
    button.disabled = false;
  }
}

function renderDryRun(out, d) {
  const p = document.createElement("p");
  p.id = "dry-summary";
  p.textContent =
    fmt(d.members) + " members, " + fmt(d.withDevice) + " with a device (" + fmt(d.devices) + " devices): the gate would pass " +
    fmt(d.pass) + " and drop " + fmt(d.dropped) + "; the pacer would take " + (d.pacerSeconds < 1 ? "" : "about ") + duration(d.pacerSeconds) + ".";
  out.appendChild(p);
  const t = document.createElement("table");
  t.id = "dry-table";
  const head = t.createTHead().insertRow();
  for (const h of ["vendor", "devices", "pass", "dropped", "drops by reason", "rate/s", "pacer"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const v of d.vendors) {
    const r = body.insertRow();
    cell(r, v.vendor);
    cell(r, fmt(v.devices), "num");
    cell(r, fmt(v.pass), "num");
    cell(r, fmt(v.dropped), "num");
    cell(r, Object.entries(v.drops).map(([k, n]) => k + " " + fmt(n)).join(", ") || "-");
    cell(r, v.rate ? fmt(v.rate) : "-", "num");
    cell(r, duration(v.seconds), "num");
  }
  const all = body.insertRow();
  cell(all, "all");
  cell(all, fmt(d.devices), "num");
  cell(all, fmt(d.pass), "num");
  cell(all, fmt(d.dropped), "num");
  cell(all, Object.entries(d.drops).map(([k, n]) => k + " " + fmt(n)).join(", ") || "-");
  cell(all, "");
  cell(all, duration(d.pacerSeconds), "num");
  out.appendChild(t);
  const f = document.createElement("p");
  f.className = "fresh";
  f.id = "dry-freshness";
  f.textContent = "Devices and gate state from the dispatch job's " + d.state.source + ", taken " + when(d.state.takenAt) +
    " (" + age(d.state.ageMs) + " old); segment members read now; rates " + d.ratesFrom + ". Members without a device: " +
    fmt(d.members - d.withDevice) + "." + (d.rules ? " Rules: " + d.rules + "." : "");
  out.appendChild(f);
}

function duration(s) {
  if (s === null || s === undefined) return "-";
  if (s < 1) return "under 1 s";
  return age(Math.round(s * 1000));
}

// ---- segments ---------------------------------------------------------------------------------

async function loadSegments() {
  const q = $("segment-search").value;
  const { data } = await api("GET", "/v1/audiences/segments?q=" + encodeURIComponent(q));
  const body = $("segment-table").tBodies[0];
  body.textContent = "";
  for (const s of data.segments) {
    const r = body.insertRow();
    r.className = "clickable";
    r.title = "add to the expression";
    cell(r, s.name);
    cell(r, fmt(s.size), "num");
    cell(r, "v" + s.version);
    cell(r, age(s.ageMs));
    cell(r, s.source);
    r.addEventListener("click", () => {
      const e = $("expr");
      e.value = e.value.trim() ? e.value.trim() + " AND " + s.name : s.name;
      location.hash = "#editor";
      check();
    });
  }
  if (data.segments.length === 0) {
    const r = body.insertRow();
    cell(r, q ? "no segment matches" : "no segments yet (build them with ./pushline audience build)").colSpan = 5;
  }
}

async function lookupUid() {
  const uid = $("uid").value.trim();
  const out = $("uid-result");
  if (!uid) return;
  const { status, data } = await api("GET", "/v1/audiences/uids/" + encodeURIComponent(uid));
  if (status !== 200) {
    out.className = "status error";
    out.textContent = data.error;
  } else if (!data.known) {
    out.className = "status";
    out.textContent = uid + " is not a known user.";
  } else {
    out.className = "status";
    out.textContent = uid + " is in " + (data.segments.length ? data.segments.join(", ") : "no segment") + ".";
  }
}

// ---- saved audiences --------------------------------------------------------------------------

async function loadSaved() {
  const { data } = await api("GET", "/v1/audiences/saved");
  const body = $("saved-table").tBodies[0];
  body.textContent = "";
  for (const a of data.audiences) {
    const r = body.insertRow();
    r.className = "clickable";
    cell(r, a.name);
    const code = document.createElement("code");
    code.textContent = a.expression;
    cell(r, "").appendChild(code);
    cell(r, fmt(a.size), "num");
    cell(r, "v" + a.version);
    cell(r, a.savedBy);
    cell(r, when(a.savedAt));
    cell(r, fmt(a.campaigns), "num");
    r.addEventListener("click", () => loadOne(a.name));
  }
  if (data.audiences.length === 0) {
    const r = body.insertRow();
    cell(r, "nothing saved yet: write an expression and save it").colSpan = 7;
  }
}

async function loadOne(name) {
  const { data } = await api("GET", "/v1/audiences/saved/" + encodeURIComponent(name));
  const out = $("saved-detail");
  out.textContent = "";
  const h = document.createElement("h3");
  h.textContent = name + ": versions";
  out.appendChild(h);
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const x of ["version", "expression", "size", "saved by", "saved", ""]) {
    const th = document.createElement("th");
    th.textContent = x;
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const v of data.versions) {
    const r = body.insertRow();
    cell(r, "v" + v.version);
    const code = document.createElement("code");
    code.textContent = v.expression;
    cell(r, "").appendChild(code);
    cell(r, fmt(v.size), "num");
    cell(r, v.savedBy);
    cell(r, when(v.savedAt));
    const b = document.createElement("button");
    b.textContent = "Edit";
    b.addEventListener("click", () => {
      $("expr").value = v.expression;
      $("save-name").value = name;
      location.hash = "#editor";
      check();
    });
    cell(r, "").appendChild(b);
  }
  out.appendChild(t);
  const c = document.createElement("h3");
  c.textContent = "Campaigns that used it";
  out.appendChild(c);
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.id = "saved-use";
  hint.textContent = "A campaign request names it with \"target\": {\"savedAudience\": " + JSON.stringify(name) +
    "} and goes to the version current when it is sent.";
  out.appendChild(hint);
  const list = document.createElement("ul");
  for (const u of data.campaigns) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "/console/campaigns/" + encodeURIComponent(u.msgId);
    a.textContent = u.msgId;
    li.appendChild(a);
    li.appendChild(document.createTextNode(" at " + when(u.ts) + " (v" + u.version + "): its funnel"));
    list.appendChild(li);
  }
  if (data.campaigns.length === 0) {
    const li = document.createElement("li");
    li.textContent = "none yet";
    list.appendChild(li);
  }
  out.appendChild(list);
}

// ---- wiring -----------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  $("expr").addEventListener("input", scheduleCheck);
  $("save").addEventListener("click", save);
  $("dry-run").addEventListener("click", dryRun);
  $("overlap").addEventListener("click", overlap);
  $("segment-search").addEventListener("input", loadSegments);
  $("uid-lookup").addEventListener("click", lookupUid);
  $("uid").addEventListener("keydown", (e) => e.key === "Enter" && lookupUid());
  window.addEventListener("hashchange", showTab);
  showTab();
});
