// The /docs page: lists the operations of /openapi.json, grouped by tag (no third-party code).
// The page's own words are translated; the operations' summaries, descriptions, tags and
// field names are the server's developer reference, shown as the code writes them.
import { el } from "./api.js";
import { t, tn } from "./i18n.js";

const METHODS = ["get", "post", "put", "patch", "delete"];

// "#/components/schemas/CreateGameIn" -> the schema it names
function resolve(spec, schema) {
  let s = schema || {};
  for (let i = 0; s.$ref && i < 10; i++) s = s.$ref.split("/").slice(1).reduce((o, k) => (o || {})[k], spec) || {};
  return s;
}

function typeName(spec, schema) {
  const s = schema || {};
  if (s.$ref) return s.$ref.split("/").pop();
  if (s.anyOf) return s.anyOf.map((x) => typeName(spec, x)).join(" | ");
  if (s.enum) return s.enum.map((x) => JSON.stringify(x)).join(" | ");
  if (s.type === "array") return `${typeName(spec, s.items)}[]`;
  return s.type || "any";
}

function fieldRows(spec, schema) {
  const s = resolve(spec, schema);
  const required = new Set(s.required || []);
  return Object.entries(s.properties || {}).map(([name, p]) => el("tr", {},
    el("td", { class: "mono" }, name, required.has(name) ? " *" : ""),
    el("td", { class: "mono" }, typeName(spec, p)),
    el("td", {}, p.description || (p.default !== undefined ? t("default {value}", { value: JSON.stringify(p.default) }) : ""))));
}

function table(rows) {
  if (!rows.length) return null;
  return el("table", { class: "api-fields" }, el("tr", {}, el("th", {}, t("name")), el("th", {}, t("type")), el("th", {}, "")), rows);
}

function operation(spec, method, path, op) {
  const params = (op.parameters || []).map((p) => el("tr", {},
    el("td", { class: "mono" }, p.name, p.required ? " *" : ""),
    el("td", { class: "mono" }, `${p.in}: ${typeName(spec, p.schema)}`),
    el("td", {}, p.description || "")));
  const body = op.requestBody && (op.requestBody.content || {})["application/json"];
  return el("details", { class: "api-op", id: op.operationId || `${method}-${path}` },
    el("summary", {}, el("span", { class: `api-method ${method}` }, method.toUpperCase()), " ",
      el("code", {}, path), " ", el("span", { class: "hint" }, op.summary || "")),
    op.description ? el("p", { class: "api-description" }, op.description) : null,
    params.length ? el("h4", {}, t("Parameters")) : null, table(params),
    body ? el("h4", {}, t("Body: {type}", { type: typeName(spec, body.schema) })) : null,
    body ? table(fieldRows(spec, body.schema)) : null,
    el("p", { class: "hint" }, t("Answers: {codes}", { codes: Object.keys(op.responses || {}).join(", ") })));
}

async function main() {
  const status = document.getElementById("api-status");
  let spec;
  try {
    spec = await (await fetch("/openapi.json", { credentials: "same-origin" })).json();
  } catch (e) {
    status.textContent = t("Could not load {address}: {reason}", { address: "/openapi.json", reason: e.message });
    return;
  }
  const groups = new Map();
  for (const [path, item] of Object.entries(spec.paths || {})) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const tag = (item[method].tags || ["other"])[0];
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag).push(operation(spec, method, path, item[method]));
    }
  }
  const nav = document.getElementById("api-tags");
  const out = document.getElementById("api-operations");
  for (const [tag, ops] of groups) {
    nav.append(el("a", { href: `#tag-${tag}` }, tag));
    out.append(el("section", { class: "card stack api-tag", id: `tag-${tag}` }, el("h2", {}, tag), ops));
  }
  const count = [...groups.values()].flat().length;
  status.textContent = tn("{title}, version {version}: {n} operation.", "{title}, version {version}: {n} operations.", count,
    { title: spec.info.title, version: spec.info.version });
}

main();
