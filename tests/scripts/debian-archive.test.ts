/**
 * scripts/debian-archive.sh (used by scripts/test-cpus.sh to fetch Debian's arm64 Node.js) names the Debian
 * archive of the machine's own apt configuration, never a host of ours: run with bash against made-up apt
 * configurations (APT_CONFIG pointing apt at a sources list, a sources.list.d and a lists folder of the test's
 * own) and made-up /etc/os-release files, through the real `apt-get` of this Debian machine, whose parser reads
 * them (one-line `.list` and deb822 `.sources` files alike). Nothing is downloaded.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/debian-archive.sh', import.meta.url));

interface Machine {
  /** /etc/apt/sources.list (one-line entries). */
  list?: string;
  /** Files of /etc/apt/sources.list.d/, by name. */
  parts?: Record<string, string>;
  /** Files of the lists folder (what `apt-get update` downloaded), by name. */
  lists?: Record<string, string>;
  /** The release's codename in /etc/os-release. */
  codename?: string;
  env?: Record<string, string>;
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Runs the script on `machine`: its output, error output and exit status. */
function run(machine: Machine): Promise<{ out: string; err: string; status: number }> {
  const root = mkdtempSync(join(tmpdir(), 'aerie-apt-'));
  folders.push(root);
  mkdirSync(join(root, 'parts'));
  mkdirSync(join(root, 'lists', 'partial'), { recursive: true });
  writeFileSync(join(root, 'sources.list'), machine.list ?? '');
  for (const [name, text] of Object.entries(machine.parts ?? {}))
    writeFileSync(join(root, 'parts', name), text);
  for (const [name, text] of Object.entries(machine.lists ?? {}))
    writeFileSync(join(root, 'lists', name), text);
  writeFileSync(
    join(root, 'apt.conf'),
    `Dir::Etc::SourceList "${root}/sources.list";\nDir::Etc::SourceParts "${root}/parts";\n` +
      `Dir::State::Lists "${root}/lists";\n`,
  );
  writeFileSync(
    join(root, 'os-release'),
    `PRETTY_NAME="Debian GNU/Linux"\nID=debian\n${machine.codename ? `VERSION_CODENAME=${machine.codename}\n` : ''}`,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APT_CONFIG: join(root, 'apt.conf'),
    AERIE_OS_RELEASE: join(root, 'os-release'),
    ...machine.env,
  };
  if (!machine.env?.AERIE_DEBIAN_ARCHIVE) delete env.AERIE_DEBIAN_ARCHIVE;
  return new Promise((resolve) => {
    execFile('bash', [SCRIPT], { env }, (error, out, err) =>
      resolve({ out: out.trim(), err: err.trim(), status: error ? Number(error.code ?? 1) : 0 }),
    );
  });
}

/** A deb822 stanza. */
const stanza = (uri: string, suites: string, extra = '') =>
  `Types: deb\nURIs: ${uri}\nSuites: ${suites}\nComponents: main\n` +
  `Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n${extra}`;

describe('the Debian archive of this machine’s apt', () => {
  it('a deb822 .sources behind a mirror: the main archive, not -security or -updates, not a disabled entry', async () => {
    const result = await run({
      codename: 'bookworm',
      parts: {
        'debian.sources': [
          stanza('http://old.example/debian', 'bookworm', 'Enabled: no\n'),
          stanza('http://mirror.corp.example/debian-security', 'bookworm-security'),
          stanza('http://mirror.corp.example/debian/', 'bookworm bookworm-updates'),
        ].join('\n'),
      },
    });
    expect(result).toMatchObject({ status: 0, out: 'http://mirror.corp.example/debian' });
  });

  it('one-line entries: the Debian one, in apt’s own notation (mirror+file:), past a third party’s', async () => {
    const result = await run({
      codename: 'trixie',
      list:
        '# a comment\n' +
        'deb [arch=amd64] https://deb.nodesource.com/node_20.x nodistro main\n' +
        'deb https://packages.example.com/apt cloud-sdk-trixie main\n' +
        'deb-src mirror+file:/etc/apt/mirrors/debian.list trixie main\n' +
        'deb mirror+file:/etc/apt/mirrors/debian.list trixie main contrib\n',
    });
    expect(result).toMatchObject({ status: 0, out: 'mirror+file:/etc/apt/mirrors/debian.list' });
  });

  it('after `apt-get update`: the entry whose Release says Origin and Label Debian, whatever its suite', async () => {
    const result = await run({
      codename: 'bookworm',
      list:
        'deb http://local.example/security stable-security main\n' +
        'deb http://local.example/debian stable main\n',
      lists: {
        'local.example_security_dists_stable-security_Release':
          'Origin: Debian\nLabel: Debian-Security\nSuite: stable-security\nCodename: trixie-security\n',
        'local.example_security_dists_stable-security_main_binary-amd64_Packages': '',
        'local.example_debian_dists_stable_Release':
          'Origin: Debian\nLabel: Debian\nSuite: stable\nCodename: trixie\n',
        'local.example_debian_dists_stable_main_binary-amd64_Packages': '',
      },
    });
    expect(result).toMatchObject({ status: 0, out: 'http://local.example/debian' });
  });

  it('no Debian archive configured: says so and how to name one, exit 1', async () => {
    const result = await run({
      codename: 'bookworm',
      list: 'deb [arch=amd64] https://deb.nodesource.com/node_20.x nodistro main\n',
    });
    expect(result.status).toBe(1);
    expect(result.out).toBe('');
    expect(result.err).toMatch(/no Debian archive in this machine's apt sources .*AERIE_DEBIAN_ARCHIVE/);
  });

  it('AERIE_DEBIAN_ARCHIVE names it outright', async () => {
    const result = await run({ env: { AERIE_DEBIAN_ARCHIVE: 'https://mirror.example.net/debian/' } });
    expect(result).toMatchObject({ status: 0, out: 'https://mirror.example.net/debian' });
  });
});
