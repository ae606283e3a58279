// The page scripts' words in the reader's language. The server ships them as JSON (the
// `client` gettext catalogue, docs/i18n.md): in the game words on the game and replay
// pages, on their own elsewhere. A msgid is the English text; without a translation it
// is said as it is. Placeholders are written {name}, a plural's count is {n}.

const source = document.getElementById("words") || document.getElementById("ui-words");
export const PAGE_WORDS = source ? JSON.parse(source.textContent) : {};
export const LANG = PAGE_WORDS.lang || document.documentElement.lang || "en";
const UI = PAGE_WORDS.ui || {};
const plurals = new Intl.PluralRules(LANG);

function put(text, values) {
  return text.replace(/\{(\w+)\}/g, (all, k) => (values && values[k] !== undefined && values[k] !== null ? String(values[k]) : all));
}

export function t(msgid, values) {
  const said = UI[msgid];
  return put(typeof said === "string" ? said : msgid, values);
}

// The site's three languages have two plural forms in gettext: "one" is the first, every
// other CLDR category the second.
export function tn(one, many, n, values) {
  const forms = UI[one];
  const index = plurals.select(Number(n)) === "one" ? 0 : 1;
  const text = Array.isArray(forms) && forms.length ? forms[Math.min(index, forms.length - 1)] : (index === 0 ? one : many);
  return put(text, { n, ...(values || {}) });
}

// dates and times in the reader's language and the browser's time zone
export function dateTime(value, options) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value ?? "");
  return new Intl.DateTimeFormat(LANG, options || { dateStyle: "medium", timeStyle: "short" }).format(d);
}
