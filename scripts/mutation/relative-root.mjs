// Stryker records the absolute path of the checkout it ran in as `projectRoot` in its incremental files; the
// committed files must not carry one machine's paths. This replaces it with "." (the file keys are already
// relative, and Stryker does not read the field back). Usage: node scripts/mutation/relative-root.mjs [files…]
// (default: every mutation/*.json).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const files = process.argv.slice(2);
if (files.length === 0)
  for (const name of readdirSync('mutation')) if (name.endsWith('.json')) files.push(join('mutation', name));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const report = JSON.parse(text);
  if (report.projectRoot === undefined || report.projectRoot === '.') continue;
  report.projectRoot = '.';
  writeFileSync(file, JSON.stringify(report, null, 2) + (text.endsWith('\n') ? '\n' : ''));
  console.log(`${file}: projectRoot → "."`);
}
