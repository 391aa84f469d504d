/**
 * Preloaded into a server child by the API benchmark (`--import`): records the event loop's delay
 * and, on SIGUSR2, writes the histogram since the last signal to $LOOP_DELAY_FILE (JSON, ms) and starts anew.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_DELAY_FILE;
if (file) {
  // Each sample is the time between two ticks of a 1 ms timer, so the figures include that 1 ms.
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    const snapshot = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      mean: ms(histogram.mean),
      samples: histogram.count,
    };
    histogram.reset();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(snapshot));
    fs.renameSync(`${file}.tmp`, file);
  });
}
