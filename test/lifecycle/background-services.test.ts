import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { BackgroundServices } from '../../server/lifecycle/background-services.ts';

function collectingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino(stream), lines };
}

describe('background services', () => {
  it('start one after the other in order, and all stop in reverse order before stop() resolves', async () => {
    const { logger } = collectingLogger();
    const steps: string[] = [];
    const service = (name: string, stopMs: number) => ({
      name,
      async start() {
        steps.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        steps.push(`started ${name}`);
      },
      async stop() {
        steps.push(`stop ${name}`);
        await new Promise((resolve) => setTimeout(resolve, stopMs));
        steps.push(`stopped ${name}`);
      },
    });
    const services = new BackgroundServices(logger, [service('a', 20), service('b', 1), service('c', 10)]);
    await services.start();
    assert.deepEqual(steps.splice(0), ['start a', 'started a', 'start b', 'started b', 'start c', 'started c']);
    await services.stop();
    assert.deepEqual(steps.slice(0, 3), ['stop c', 'stop b', 'stop a']);
    assert.deepEqual(steps.slice(3).sort(), ['stopped a', 'stopped b', 'stopped c']);
  });

  it('stops every service once, also after a start that failed half way, and logs a stop that fails', async () => {
    const { logger, lines } = collectingLogger();
    let stops = 0;
    const services = new BackgroundServices(logger, [
      { name: 'first', stop: () => void stops++ },
      {
        name: 'broken',
        start: () => {
          throw new Error('cannot start');
        },
        stop: () => {
          throw new Error('cannot stop either');
        },
      },
      { name: 'never started', start: () => assert.fail('must not start after a failed start'), stop: () => void stops++ },
    ]);
    await assert.rejects(services.start(), /cannot start/);
    await Promise.all([services.stop(), services.stop()]);
    await services.stop();
    assert.equal(stops, 2);
    const failed = lines.filter((line) => line.msg === 'a background service failed to stop');
    assert.deepEqual(
      failed.map((line) => line.service),
      ['broken'],
    );
  });
});
