import { useSyncExternalStore } from "react";
import { orUndefined } from "../../catalogue/present.ts";
import { VISITOR_STORAGE_KEY } from "../shell/storage-keys.ts";

export const WRITE_INTERVAL_MS = 1000;

export type Visitor = { email: string; signedUp: boolean };

const EMPTY: Visitor = { email: "", signedUp: false };

let current: Visitor | undefined;
const listeners = new Set<() => void>();
let lastWrite = 0;
let pendingWrite: ReturnType<typeof setTimeout> | undefined;

function read(): Visitor {
  const stored = orUndefined(() => JSON.parse(localStorage.getItem(VISITOR_STORAGE_KEY) ?? "{}") as Partial<Visitor>);
  return { email: typeof stored?.email === "string" ? stored.email : "", signedUp: stored?.signedUp === true };
}

function write() {
  pendingWrite = undefined;
  lastWrite = Date.now();
  // Storage full or blocked (private mode): the visitor is simply not remembered.
  orUndefined(() => localStorage.setItem(VISITOR_STORAGE_KEY, JSON.stringify(current)));
}

const snapshot = (): Visitor => (current ??= read());

function subscribe(listener: () => void) {
  listeners.add(listener);
  const flush = () => {
    if (!pendingWrite) return;
    clearTimeout(pendingWrite);
    write();
  };
  window.addEventListener("pagehide", flush);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("pagehide", flush);
  };
}

export function updateVisitor(change: Partial<Visitor>) {
  current = { ...snapshot(), ...change };
  for (const listener of listeners) listener();
  pendingWrite ??= setTimeout(write, Math.max(0, lastWrite + WRITE_INTERVAL_MS - Date.now()));
}

// The shell script sets the same flag from storage before the first paint on later visits.
export function rememberSignedUp() {
  updateVisitor({ signedUp: true });
  document.documentElement.dataset.signedUp = "true";
}

// The server, and so the first render, knows no visitor.
export function useVisitor(): Visitor {
  return useSyncExternalStore(subscribe, snapshot, () => EMPTY);
}
