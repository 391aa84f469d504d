/**
 * Preloaded into a server child by the API benchmark (`--import`): records the event loop's delay
 * and the collector's pauses and, on SIGUSR2, writes them since the last signal to $LOOP_DELAY_FILE
 * (JSON, ms) and starts anew.
 */
import fs from 'node:fs';
import { constants, monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.LOOP_DELAY_FILE;
if (file) {
  // Each sample is the time between two ticks of a 1 ms timer, so the figures include that 1 ms.
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The collector's pauses in the same interval: what of the loop's delay is garbage collection.
  const noPauses = () => ({ count: 0, total_ms: 0, max_ms: 0, major: 0 });
  let gc = noPauses();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.total_ms += entry.duration;
      gc.max_ms = Math.max(gc.max_ms, entry.duration);
      if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
    }
  }).observe({ entryTypes: ['gc'] });
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    const snapshot = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      mean: ms(histogram.mean),
      samples: histogram.count,
      gc_pauses: { count: gc.count, total_ms: ms(gc.total_ms * 1e6), max_ms: ms(gc.max_ms * 1e6), major: gc.major },
    };
    gc = noPauses();
    histogram.reset();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    fs.renameSync(`${file}.tmp`, file);
  });
}
