import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { writeCall } from '../api/write-call.ts';
import type { LiveEvent } from '../api/types.ts';
import type { LiveEventData, LiveEventType } from './events.ts';

export type LiveStatus = 'off' | 'connecting' | 'open' | 'reconnecting';

interface LiveStore {
  status: LiveStatus;
  /** Counts successful (re)connections; a page refetches when it grows past 1 (events were missed). */
  connections: number;
  /** Counts `organization.replaced` events (a snapshot restored, a reset): every page reads its data again. */
  replacements: number;
  start(): void;
  stop(): void;
}

type Listener = (data: unknown) => void;

const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];
const listeners = new Map<string, Set<Listener>>();
let source: EventSource | null = null;
let attached = new Set<string>();
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;
let running = false;
let generation = 0;

function dispatch(type: string, message: MessageEvent<string>): void {
  let event: LiveEvent;
  try {
    event = JSON.parse(message.data) as LiveEvent;
  } catch {
    return;
  }
  for (const listener of listeners.get(type) ?? []) listener(event.data);
}

function attach(type: string): void {
  if (!source || attached.has(type)) return;
  attached.add(type);
  source.addEventListener(type, (message) => dispatch(type, message as MessageEvent<string>));
}

/**
 * POST /api/live/tokens, then EventSource /api/live?token=… (an EventSource cannot send the
 * Authorization header). Tokens are short-lived, so every reconnection fetches a new one.
 */
async function connect(): Promise<void> {
  const mine = ++generation;
  useLiveStore.setState((s) => ({ status: s.connections > 0 || failures > 0 ? 'reconnecting' : 'connecting' }));
  let token: string;
  try {
    ({ token } = await writeCall('post', '/api/live/tokens').send());
  } catch {
    scheduleRetry(mine);
    return;
  }
  if (mine !== generation || !running) return;
  const es = new EventSource(`/api/live?token=${encodeURIComponent(token)}`);
  source = es;
  attached = new Set();
  for (const type of listeners.keys()) attach(type);
  es.onopen = () => {
    failures = 0;
    useLiveStore.setState((s) => ({ status: 'open', connections: s.connections + 1 }));
  };
  es.onerror = () => {
    if (source !== es) return;
    es.close();
    source = null;
    scheduleRetry(mine);
  };
}

function scheduleRetry(mine: number): void {
  if (mine !== generation || !running) return;
  useLiveStore.setState({ status: 'reconnecting' });
  const delay = RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length - 1)] ?? 10_000;
  failures += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void connect(), delay);
}

export const useLiveStore = create<LiveStore>()(() => ({
  status: 'off',
  connections: 0,
  replacements: 0,
  start() {
    if (running) return;
    running = true;
    failures = 0;
    void connect();
  },
  stop() {
    running = false;
    generation += 1;
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    useLiveStore.setState({ status: 'off', connections: 0 });
  },
}));

/** Calls handler with the data of every live event of this type while the component is mounted. */
export function useLiveEvent<T extends LiveEventType>(type: T, handler: (data: LiveEventData[T]) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener: Listener = (data) => latest.current(data as LiveEventData[T]);
    let set = listeners.get(type);
    if (!set) {
      set = new Set();
      listeners.set(type, set);
    }
    set.add(listener);
    attach(type);
    return () => {
      set.delete(listener);
    };
  }, [type]);
}

/**
 * Calls refetch after the live stream reconnects, since events may have been missed meanwhile, and
 * after the organization's data was replaced as a whole (a snapshot restored, a reset).
 */
export function useRefetchOnReconnect(refetch: () => void): void {
  const connections = useLiveStore((s) => s.connections);
  const replacements = useLiveStore((s) => s.replacements);
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    if (connections > 1) latest.current();
  }, [connections]);
  useEffect(() => {
    if (replacements > 0) latest.current();
  }, [replacements]);
}
