/**
 * scripts/python-env.sh's decisions, run for real by bash against fake system tools: a fake Debian (dpkg-query,
 * dpkg, apt-cache, apt-get, id) and a fake Python that answers pyenv.py's probe from a state folder, makes a
 * "venv" by linking itself, and records what pip was asked to install. No Python and no package is involved.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..');
const PINS = [
  'torch==2.13.0',
  'onnx==1.23.1',
  'ml_dtypes==0.5.4',
  'onnxruntime==1.30.0',
  'onnx-ir==1.0.0',
  'tokenizers==0.23.2',
  'transformers==5.17.0',
  'gguf==0.19.0',
];
/** Debian 12's candidates of the packages the list names, and what each provides once installed. */
const BOOKWORM = {
  'python3-numpy': ['1:1.24.2-1+deb12u1', 'numpy ok 1.24.2'],
  'python3-sklearn': ['1.2.1+dfsg-1', 'scikit-learn ok 1.2.1'],
  'python3-jinja2': ['3.1.2-1+deb12u3', 'jinja2 ok 3.1.2'],
  'python3-torch': ['1.13.1+dfsg-4', 'torch ok 1.13.1'],
  'python3-onnx': ['1.12.0-2+b4', 'onnx missing no module onnx.reference'],
} as const;

const FAKE_PYTHON = `#!/bin/bash
# Fake Python (tests only): venv, pip install, version and pyenv.py --probe, from the state in $FAKE_STATE.
S="$FAKE_STATE"
case "$*" in
  "-m venv "*)
    dir="\${@: -1}"; mkdir -p "$dir/bin"; ln -sf "$FAKE_SYSTEM_PYTHON" "$dir/bin/python"
    printf 'home = fake\\ninclude-system-site-packages = true\\n' >"$dir/pyvenv.cfg"
    echo "venv $dir" >>"$S/log" ;;
  "-m pip install "*)
    echo "pip $*" >>"$S/log"
    prev=""; for a in "$@"; do
      [[ $prev == --constraint ]] && sed 's/^/constraint /' "$a" >>"$S/log"
      [[ $a == *==* && $prev != --constraint ]] && echo "\${a%%==*} ok \${a#*==} venv" >>"$S/venv"
      prev="$a"
    done
    exit "\${FAKE_PIP_STATUS:-0}" ;;
  "-c "*) echo 3.11.2 ;;
  *" --probe")
    while read -r dist _; do
      [[ -z $dist || $dist == \\#* ]] && continue
      line=""
      [[ $0 == */.venv/bin/python ]] && line="$(grep "^$dist " "$S/venv" 2>/dev/null | tail -n 1)"
      [[ -z $line ]] && line="$(grep "^$dist " "$S/system" 2>/dev/null | tail -n 1)"
      [[ -n $line && $line == *" ok "* && $line != *" venv" ]] && line="$line system"
      echo "\${line:-$dist missing not installed}"
    done <"$FAKE_PACKAGES" ;;
  *) echo "fake python: unexpected $*" >&2; exit 9 ;;
esac
`;

const FAKE_TOOLS: Record<string, string> = {
  id: 'echo "${FAKE_UID:-0}"',
  'dpkg-query': 'grep -qx "${@: -1}" "$FAKE_STATE/installed" && echo "install ok installed" || exit 1',
  dpkg: '[[ "$*" == "-L python3-minimal" ]] && echo "$FAKE_SYSTEM_PYTHON"',
  'apt-cache': `v="$(awk -v p="$2" '$1 == p { print $2 }' "$FAKE_STATE/candidates")"; echo "  Candidate: \${v:-(none)}"`,
  'apt-get': `echo "apt-get $*" >>"$FAKE_STATE/log"
[[ " $* " == *" update "* && -f "$FAKE_STATE/candidates.after-update" ]] && mv "$FAKE_STATE/candidates.after-update" "$FAKE_STATE/candidates"
for p in "$@"; do
  line="$(awk -v p="$p" '$1 == p { $1 = ""; $2 = ""; print substr($0, 3) }' "$FAKE_STATE/candidates")"
  [[ -n $line ]] && { echo "$p" >>"$FAKE_STATE/installed"; echo "$line" >>"$FAKE_STATE/system"; }
done
exit "\${FAKE_APT_STATUS:-0}"`,
};

let dir: string;
let state: string;

function write(path: string, text: string, mode = 0o644): void {
  writeFileSync(path, text);
  chmodSync(path, mode);
}

/** A copy of the script and the package list in a temporary "repository", and fakes of the system around it. */
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aerie-python-env-'));
  state = join(dir, 'state');
  for (const sub of ['scripts/models', 'bin', 'sys/bin', 'state'])
    mkdirSync(join(dir, sub), { recursive: true });
  cpSync(join(REPO, 'scripts', 'python-env.sh'), join(dir, 'scripts', 'python-env.sh'));
  cpSync(join(REPO, 'scripts', 'python-packages.txt'), join(dir, 'scripts', 'python-packages.txt'));
  write(join(dir, 'scripts', 'models', 'pyenv.py'), '# the fake Python answers the probe\n');
  write(join(dir, 'sys', 'bin', 'python3'), FAKE_PYTHON, 0o755);
  for (const [name, body] of Object.entries(FAKE_TOOLS))
    write(join(dir, 'bin', name), `#!/bin/bash\n${body}\n`, 0o755);
  write(join(state, 'installed'), 'python3\npython3-venv\n');
  write(
    join(state, 'candidates'),
    Object.entries(BOOKWORM)
      .map(([pkg, [candidate, provides]]) => `${pkg} ${candidate} ${provides}\n`)
      .join(''),
  );
  write(join(state, 'system'), '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the copied script with the fakes first on PATH; no PIP_* variables unless given. */
function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync('bash', [join(dir, 'scripts', 'python-env.sh'), ...args], {
    encoding: 'utf8',
    env: {
      PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
      HOME: dir,
      FAKE_STATE: state,
      FAKE_SYSTEM_PYTHON: join(dir, 'sys', 'bin', 'python3'),
      FAKE_PACKAGES: join(dir, 'scripts', 'python-packages.txt'),
      ...env,
    },
  });
  const log = existsSync(join(state, 'log')) ? readFileSync(join(state, 'log'), 'utf8') : '';
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, log: log.trim().split('\n') };
}

const installLines = (log: string[]) => log.filter((l) => /^(apt-get .*install|pip )/.test(l));

describe('scripts/python-env.sh (fake Debian, fake Python)', () => {
  it('on a fresh Debian 12: Debian for numpy, scikit-learn, jinja2; pip for the rest, exact versions, from the index named', () => {
    const result = run(['--index-url', 'file:///fake/simple', '--find-links', '/fake/wheels']);
    expect(result.status).toBe(0);
    expect(result.log[0]).toBe(`venv ${join(dir, '.venv')}`);
    expect(installLines(result.log)).toEqual([
      'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3-numpy python3-sklearn python3-jinja2',
      `pip -m pip install --prefer-binary --index-url file:///fake/simple --find-links /fake/wheels --constraint ${
        result.log
          .find((l) => l.startsWith('pip '))!
          .split('--constraint ')[1]
          .split(' ')[0]
      } ${PINS.join(' ')}`,
    ]);
    // pip may not shadow the Debian packages it found in place.
    expect(result.log.filter((l) => l.startsWith('constraint '))).toEqual([
      'constraint numpy==1.24.2',
      'constraint scikit-learn==1.2.1',
      'constraint jinja2==3.1.2',
    ]);
    expect(result.stderr).toContain(
      "torch==2.13.0          (needs ≥ 2.5: not installed; Debian's python3-torch is 1.13.1+dfsg-4)",
    );
    expect(result.stderr).toContain(
      "onnx==1.23.1           (needs ≥ 1.16: not installed; Debian's python3-onnx is 1.12.0-2+b4)",
    );
    expect(result.stdout).toMatch(/numpy +1\.24\.2 +system +\(≥ 1\.23\.3\)/);
    expect(result.stdout).toMatch(/torch +2\.13\.0 +\.venv +\(≥ 2\.5\)/);
  });

  it("on a machine without apt's package lists yet: fetches them once, then still takes Debian's packages", () => {
    cpSync(join(state, 'candidates'), join(state, 'candidates.after-update'));
    writeFileSync(join(state, 'candidates'), '');
    const result = run(['--find-links', '/fake/wheels']);
    expect(result.status).toBe(0);
    expect(result.log.filter((l) => l.includes(' update '))).toEqual([
      'apt-get -o DPkg::Lock::Timeout=600 update -qq',
    ]);
    expect(installLines(result.log)[0]).toBe(
      'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3-numpy python3-sklearn python3-jinja2',
    );
  });

  it('takes the index and wheel folders from PIP_INDEX_URL and PIP_FIND_LINKS too; folders alone mean --no-index', () => {
    const viaEnv = run([], { PIP_FIND_LINKS: '/fake/a /fake/b' });
    expect(viaEnv.status).toBe(0);
    expect(installLines(viaEnv.log)[1]).toMatch(
      /^pip -m pip install --prefer-binary --find-links \/fake\/a --find-links \/fake\/b --no-index --constraint /,
    );
  });

  it('without an index or folder named: installs what Debian has, names the exact pip packages, and fails', () => {
    const result = run([]);
    expect(result.status).toBe(1);
    expect(installLines(result.log)).toEqual([
      'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3-numpy python3-sklearn python3-jinja2',
    ]);
    expect(result.stderr).toContain('bash scripts/python-env.sh --index-url URL --find-links DIR');
    expect(result.stderr).toContain(`.venv/bin/python -m pip install --prefer-binary ${PINS.join(' ')}`);
    expect(result.stderr).toContain('The environment is incomplete');
  });

  it('--check changes nothing and reports both lists', () => {
    const result = run(['--check', '--index-url', 'file:///fake/simple']);
    expect(result.status).toBe(1);
    expect(result.log).toEqual(['']);
    expect(existsSync(join(dir, '.venv'))).toBe(false);
    expect(result.stdout).toContain('Would make .venv/ over');
    expect(result.stderr).toContain(
      'apt-get install --no-install-recommends python3-numpy python3-sklearn python3-jinja2',
    );
    expect(result.stderr).toContain(
      `Without --check, this runs: .venv/bin/python -m pip install --prefer-binary --index-url file:///fake/simple ${PINS.join(' ')}`,
    );
  });

  it('not root: says which Debian packages to install, and installs nothing (pip waits for them)', () => {
    const result = run(['--index-url', 'file:///fake/simple'], { FAKE_UID: '1000' });
    expect(result.status).toBe(1);
    expect(installLines(result.log)).toEqual([]);
    expect(result.stderr).toContain(
      'To install from Debian (apt-get, as root): python3-numpy python3-sklearn python3-jinja2',
    );
    expect(result.stderr).toContain('Install the Debian packages above first');
  });

  it("Debian's onnx installed without onnx.reference, and an old torch: pip adds the listed versions to .venv", () => {
    writeFileSync(join(state, 'installed'), 'python3\npython3-venv\npython3-onnx\npython3-torch\n', {
      flag: 'w',
    });
    writeFileSync(
      join(state, 'system'),
      'numpy ok 1.24.2\nscikit-learn ok 1.2.1\njinja2 ok 3.1.2\ntorch ok 1.13.1\nonnx missing no module onnx.reference\n',
    );
    const result = run(['--find-links', '/fake/wheels']);
    expect(result.status).toBe(0);
    expect(installLines(result.log)).toHaveLength(1);
    expect(installLines(result.log)[0]).toMatch(
      new RegExp(`--no-index --constraint \\S+ ${PINS.join(' ')}$`),
    );
    expect(result.stderr).toContain("(needs ≥ 2.5: 1.13.1 is too old; Debian's python3-torch is installed)");
    expect(result.stderr).toContain(
      "(needs ≥ 1.16: no module onnx.reference; Debian's python3-onnx is installed)",
    );
    // The too-old torch is not held in place.
    expect(result.log.filter((l) => l.startsWith('constraint '))).not.toContain('constraint torch==1.13.1');
  });

  it('everything in place: installs nothing and prints where each package comes from', () => {
    writeFileSync(join(state, 'system'), 'numpy ok 2.2.6\nscikit-learn ok 1.9.1\njinja2 ok 3.1.6\n');
    writeFileSync(join(state, 'venv'), PINS.map((p) => `${p.replace('==', ' ok ')} venv\n`).join(''));
    const result = run([]);
    expect(result.status).toBe(0);
    expect(installLines(result.log)).toEqual([]);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('Python for the bench: '))).toHaveLength(1);
    expect(lines.filter((l) => /^ {2}\S+ +\S+ +(system|\.venv) +\(≥ /.test(l))).toHaveLength(3 + PINS.length);
  });

  it('a failing pip ends the run with status 1 and says so', () => {
    const result = run(['--find-links', '/fake/wheels'], { FAKE_PIP_STATUS: '1' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('pip could not install them');
  });

  it('a failing apt-get ends the run with status 1, before pip', () => {
    const result = run(['--find-links', '/fake/wheels'], { FAKE_APT_STATUS: '100' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('apt-get failed');
    expect(result.log.filter((l) => l.startsWith('pip '))).toEqual([]);
  });

  it("remakes a .venv that is not over Debian's python3, and rejects unknown arguments", () => {
    mkdirSync(join(dir, '.venv', 'bin'), { recursive: true });
    write(join(dir, '.venv', 'bin', 'python'), '#!/bin/sh\nexit 9\n', 0o755);
    const result = run(['--find-links', '/fake/wheels']);
    expect(result.stdout).toContain('Remaking .venv/');
    expect(result.status).toBe(0);
    expect(run(['--wheels', '/fake']).status).toBe(2);
  });
});
