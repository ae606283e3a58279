// The events of the games this browser has shown, kept in IndexedDB so that loading a game
// page again asks the server only for what came after (GET .../events?after=N).
// The kept events are trusted only if the server's copy of the last one is the same event
// (its prev_hash ties it to the hash chain of all before it); otherwise (a database
// restored, anything unexpected) the page loads every event, as it always did.
const DB_NAME = "hd-history", STORE = "games", KEEP_GAMES = 30, RECENT = "hd-history-recent";

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function withStore(mode, fn) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req && req.result);
      tx.onerror = () => reject(tx.error);
    });
  } finally { db.close(); }
}

// the games kept, most recent first; the oldest beyond KEEP_GAMES are forgotten
function touch(gid) {
  const recent = [gid, ...JSON.parse(localStorage.getItem(RECENT) || "[]").filter((g) => g !== gid)];
  localStorage.setItem(RECENT, JSON.stringify(recent.slice(0, KEEP_GAMES)));
  return recent.slice(KEEP_GAMES);
}

async function remember(gid, events) {
  try {
    await withStore("readwrite", (st) => st.put(events, gid));
    for (const old of touch(gid)) await withStore("readwrite", (st) => st.delete(old));
  } catch (e) { /* private mode or storage full: the next load is a full one */ }
}

function contiguous(events) {
  return events.every((e, i) => i === 0 || e.seq === events[i - 1].seq + 1);
}

// every event of the game, in order: the kept ones plus those after them, or all anew
export async function loadEvents(gid, api) {
  const path = `/api/games/${encodeURIComponent(gid)}/events`;
  let kept = [];
  try { kept = (await withStore("readonly", (st) => st.get(gid))) || []; } catch (e) { kept = []; }
  if (kept.length && contiguous(kept)) {
    const last = kept[kept.length - 1];
    const out = await api(`${path}?after=${last.seq - 1}`);
    const same = out.events.length && JSON.stringify(out.events[0]) === JSON.stringify(last);
    if (same) {
      const events = kept.concat(out.events.slice(1));
      remember(gid, events);
      return { events, reused: kept.length };
    }
  }
  const out = await api(`${path}?after=0`);
  remember(gid, out.events);
  return { events: out.events, reused: 0 };
}
