// Small helpers shared by the pages: JSON API calls with the CSRF header, text-only DOM.
import { t } from "./i18n.js";

export function csrf() {
  const m = document.cookie.match(/(?:^|;\s*)hd_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

export async function api(path, body, method) {
  const opts = { method: method || (body === undefined ? "GET" : "POST"), credentials: "same-origin",
                 headers: { "Accept": "application/json" } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (opts.method !== "GET") opts.headers["X-CSRF-Token"] = csrf();
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    // the browser's own words for a lost connection are in the browser's language, not the page's
    throw new Error(t("The server cannot be reached: check the connection and try again."));
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.detail) || t("The server answered with an error ({status}).", { status: res.status }));
    err.status = res.status; err.code = data && data.code;
    throw err;
  }
  return data;
}

// el("li", {class: "x", "data-box": id}, "text", child) — children are text or nodes, never HTML
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function showError(form, msg) {
  const p = form.querySelector(".form-error") || document.querySelector(".form-error");
  if (!p) { alert(msg); return; }
  p.textContent = msg;
  p.hidden = !msg;
}
