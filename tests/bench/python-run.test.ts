import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_PYTHON_LACKS, PYTHON_SETUP_HINT, runPython } from '../../bench/support';

/** Fake interpreters: shell scripts that behave as a Python lacking a package, failing, or working would. */
const dir = mkdtempSync(join(tmpdir(), 'aerie-fake-python-'));
const ranMarker = join(dir, 'works-ran');
function fakePython(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
const lacks = fakePython(
  'lacks',
  `echo "fake python lacks: onnx >= 1.16 (found 1.12.0)" >&2\nexit ${EXIT_PYTHON_LACKS}`,
);
const broken = fakePython(
  'broken',
  'echo "Traceback (most recent call last):" >&2\necho "ValueError: fake bug" >&2\nexit 1',
);
const works = fakePython('works', `touch "${ranMarker}"\necho "{\\"script\\": \\"$1\\"}"`);
const absent = join(dir, 'no-such-python');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runPython (fake interpreters)', () => {
  it('moves on from an interpreter that lacks a package, or does not exist, to one that works', () => {
    const run = runPython(['script.py'], 10_000, undefined, [absent, lacks, works]);
    expect(run).toEqual({ stdout: '{"script": "script.py"}\n' });
  });

  it("stops at a script's own failure and reports it, without trying the next interpreter", () => {
    rmSync(ranMarker, { force: true });
    const run = runPython(['script.py'], 10_000, undefined, [broken, works]);
    expect(existsSync(ranMarker)).toBe(false);
    expect('reason' in run && run.reason).toBe(
      `script.py did not run (${broken}: exit status 1, Traceback (most recent call last): | ValueError: fake bug): ${PYTHON_SETUP_HINT}`,
    );
  });

  it('names what every interpreter said, and how to set Python up, when none could run it', () => {
    const run = runPython(['script.py'], 10_000, undefined, [lacks, absent]);
    expect('reason' in run && run.reason).toMatch(
      new RegExp(
        `^script.py did not run \\(${lacks}: fake python lacks: onnx >= 1.16 \\(found 1.12.0\\); ${absent}: .*ENOENT.*\\): `,
      ),
    );
    expect('reason' in run && run.reason).toContain('bash scripts/python-env.sh');
    expect(runPython(['script.py'], 10_000, undefined, [])).toEqual({
      reason: `script.py did not run (no Python interpreter found): ${PYTHON_SETUP_HINT}`,
    });
  });

  it("uses the caller's explanation of an exit status", () => {
    const explain = (status: number | null, python: string) =>
      status === EXIT_PYTHON_LACKS ? `no scikit-learn in ${python}` : undefined;
    const run = runPython(['script.py'], 10_000, explain, [lacks]);
    expect(run).toEqual({
      reason: `script.py did not run (${lacks}: no scikit-learn in ${lacks}): ${PYTHON_SETUP_HINT}`,
    });
  });
});
