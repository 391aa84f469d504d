/**
 * The top self-time entries of a .cpuprofile, as % of the busy time (idle excluded), and the
 * share of each package / server folder. Usage: node bench/profile-top.ts <file.cpuprofile> [top]
 */
import { readProfile, type ProfileNode } from './cpuprofile.ts';

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [top]');
const profile = readProfile(file);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, ProfileNode>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
const place = (url: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ??
  /\/(server\/[^/]+)\//.exec(url)?.[1] ??
  (url.startsWith('node:') ? 'node' : url ? 'other' : '(native)');
const frame = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|server\/|bench\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
/** Native frames (no file) are named with their JavaScript caller: `writev ← writeGeneric node:…`. */
function fn(n: ProfileNode): string {
  if (n.callFrame.url || n.callFrame.functionName.startsWith('(')) return frame(n);
  let caller = parent.get(n.id);
  while (caller && !caller.callFrame.url && caller.callFrame.functionName) caller = parent.get(caller.id);
  return `${n.callFrame.functionName} ← ${caller ? frame(caller) : '?'}`;
}

const perFunction = new Map<string, number>();
const perPlace = new Map<string, number>();
/** Time with a package or server folder anywhere on the stack (its callees included). */
const onStack = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const n = byId.get(id);
  const us = profile.timeDeltas[i] ?? 0;
  if (!n || n.callFrame.functionName === '(idle)') return;
  busy += us;
  perFunction.set(fn(n), (perFunction.get(fn(n)) ?? 0) + us);
  perPlace.set(place(n.callFrame.url), (perPlace.get(place(n.callFrame.url)) ?? 0) + us);
  const seen = new Set<string>();
  for (let at: ProfileNode | undefined = n; at; at = parent.get(at.id)) seen.add(place(at.callFrame.url));
  for (const p of seen) onStack.set(p, (onStack.get(p) ?? 0) + us);
});
const top = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`);
console.log(`busy ${(busy / 1e6).toFixed(2)} s of ${(profile.timeDeltas.reduce((a, b) => a + b, 0) / 1e6).toFixed(2)} s`);
console.log(top(perFunction, Number(topArg ?? 25)).join('\n'));
console.log('-- by package / server folder');
console.log(top(perPlace, 15).join('\n'));
console.log('-- on the stack (inclusive)');
console.log(top(onStack, 25).join('\n'));
