/**
 * The model-service skeleton's calls by request id (`Requests`), with FAKE calls (promises the test settles): a
 * cancel reaches every call in flight under its id and no other; the embed service's policy ('until-idle') also
 * stops calls that start under the id before its last call has ended, the generate service's
 * ('calls-in-flight') lets them run.
 */
import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../../src/core/abort';
import { Requests, type CancelPolicy } from '../../../src/models/service';

describe('Requests (fake calls): cancel by request id', () => {
  it('aborts every call in flight with the id, with an AbortError, and no call of another id or none', () => {
    for (const policy of ['calls-in-flight', 'until-idle'] as CancelPolicy[]) {
      const requests = new Requests(policy);
      const [a1, a2, b, none] = [
        requests.track('a'),
        requests.track('a'),
        requests.track('b'),
        requests.track(undefined),
      ];
      requests.cancel('a');
      expect([a1, a2, b, none].map((c) => c.signal.aborted)).toEqual([true, true, false, false]);
      expect(isAbortError(a1.signal.reason)).toBe(true);
      requests.cancel('nobody'); // an id with no call in flight: nothing happens
    }
  });

  it("'calls-in-flight': a call that starts after the cancel runs; 'until-idle': it stops until the id is idle", () => {
    const generate = new Requests('calls-in-flight');
    const first = generate.track('r');
    generate.cancel('r');
    expect(generate.track('r').signal.aborted).toBe(false);
    first.done();

    const embed = new Requests('until-idle');
    const running = embed.track('r');
    embed.cancel('r');
    const late = embed.track('r');
    expect(late.signal.aborted).toBe(true);
    running.done();
    late.done();
    // The id is idle again: a new call with it runs.
    expect(embed.track('r').signal.aborted).toBe(false);
  });

  it('a cancel of an id with no call in flight does not reach a later call with it', () => {
    const requests = new Requests('until-idle');
    requests.cancel('r');
    expect(requests.track('r').signal.aborted).toBe(false);
  });

  it('run() tracks the call while its work runs and forgets it after, even when the work fails', async () => {
    const requests = new Requests('until-idle');
    let seen: AbortSignal | undefined;
    await expect(
      requests.run('r', async (signal) => {
        seen = signal;
        requests.cancel('r');
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(seen?.aborted).toBe(true);
    expect(await requests.run('r', async (signal) => signal.aborted)).toBe(false);
  });
});
